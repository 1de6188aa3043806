import { CLI_HOST, installCliHost } from "../../src/cli/host";

describe("the CLI as a custom-functions host", () => {
  it("declares itself as the CLI, a current Excel (formatted numbers, entities), through __CM_HOST__", () => {
    const target: { __CM_HOST__?: unknown; CustomFunctions?: unknown } = {};
    installCliHost(target);
    expect(target.__CM_HOST__).toEqual({ name: "cli", formattedNumbers: true, entities: true });
    expect(target.CustomFunctions).toBeDefined();
  });

  it("stands for an older Excel with --legacy-host: no formatted numbers, no entities", () => {
    const target: { __CM_HOST__?: unknown } = {};
    installCliHost(target, true);
    expect(target.__CM_HOST__).toEqual({ name: "cli", formattedNumbers: false, entities: false });
    installCliHost(target);
    expect(target.__CM_HOST__).toEqual({ name: "cli", formattedNumbers: true, entities: true });
  });

  it("keeps its host constant out of reach of whoever reads the flag", () => {
    const target: { __CM_HOST__?: { formattedNumbers: boolean } } = {};
    installCliHost(target);
    target.__CM_HOST__!.formattedNumbers = false;
    expect(CLI_HOST.formattedNumbers).toBe(true);
  });
});
