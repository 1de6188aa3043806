import { CLI_HOST, installCliHost } from "../../src/cli/host";

describe("the CLI as a custom-functions host", () => {
  it("declares itself as the CLI, a host that shows formatted numbers, through __CM_HOST__", () => {
    const target: { __CM_HOST__?: unknown; CustomFunctions?: unknown } = {};
    installCliHost(target);
    expect(target.__CM_HOST__).toEqual({ name: "cli", formattedNumbers: true });
    expect(target.CustomFunctions).toBeDefined();
  });

  it("keeps its host constant out of reach of whoever reads the flag", () => {
    const target: { __CM_HOST__?: { formattedNumbers: boolean } } = {};
    installCliHost(target);
    target.__CM_HOST__!.formattedNumbers = false;
    expect(CLI_HOST.formattedNumbers).toBe(true);
  });
});
