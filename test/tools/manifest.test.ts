import { readFileSync } from "fs";
import { resolve } from "path";
import {
  checkManifestStructure,
  validateUnifiedManifest,
  validateWithMicrosoftSchema,
} from "../../src/tools/manifest-check";

const xml = readFileSync(resolve(__dirname, "../../manifest.xml"), "utf8");

describe("manifest.xml structure", () => {
  it("declares one long-lived shared runtime page used by functions, taskpane and commands", () => {
    expect(checkManifestStructure(xml)).toEqual([]);
  });

  it.each([
    [
      "a short-lived runtime",
      (s: string) => s.replace('lifetime="long"', 'lifetime="short"'),
      /lifetime="long"/,
    ],
    [
      "a function file on another page",
      (s: string) =>
        s.replace(
          '<FunctionFile resid="Taskpane.Url"/>',
          '<FunctionFile resid="Functions.Script.Url"/>'
        ),
      /FunctionFile/,
    ],
    [
      "an undefined resource id",
      (s: string) => s.replace('resid="Group.Label"', 'resid="Group.Missing"'),
      /Group.Missing/,
    ],
    [
      "a plain-http URL",
      (s: string) =>
        s.replace("https://localhost:3000/functions.json", "http://localhost:3000/functions.json"),
      /not https/,
    ],
    [
      "another namespace",
      (s: string) => s.replace('DefaultValue="CRYPTO"', 'DefaultValue="COIN"'),
      /namespace/,
    ],
    [
      "no SharedRuntime requirement",
      (s: string) => s.replace('Name="SharedRuntime"', 'Name="ExcelApi"'),
      /SharedRuntime/,
    ],
    [
      "a second origin",
      (s: string) =>
        s.replace(
          "https://localhost:3000/assets/icon-16.png",
          "https://cdn.example.com/icon-16.png"
        ),
      /several origins/,
    ],
  ])("reports %s", (_label, mutate, expected) => {
    const problems = checkManifestStructure(mutate(xml));
    expect(problems.join("\n")).toMatch(expected);
  });
});

describe("manifest.xml through Microsoft's converter and unified-manifest schema", () => {
  it("converts to a unified manifest that the bundled schema accepts", async () => {
    const { manifest, problems } = await validateWithMicrosoftSchema(xml);
    expect(problems).toEqual([]);
    // The converter carries the long-lived page and the ribbon's actions; it drops the CustomFunctions extension
    // point (custom functions are not in the unified manifest it targets), which the structural test covers.
    const [extension] = (manifest as { extensions: Array<{ runtimes: unknown[] }> }).extensions;
    expect(extension.runtimes).toContainEqual(
      expect.objectContaining({
        code: { page: "https://localhost:3000/taskpane.html" },
        lifetime: "long",
      })
    );
    expect(JSON.stringify(extension)).toContain('"actionId":"refreshAll"');
  });

  it("would catch a unified manifest the schema rejects", async () => {
    const { manifest } = await validateWithMicrosoftSchema(xml);
    const broken = { ...(manifest as Record<string, unknown>), id: "not-a-guid", version: 7 };
    const problems = await validateUnifiedManifest(broken);
    expect(problems.join("\n")).toMatch(/\/version/);
    expect(problems.join("\n")).toMatch(/\/id/);
  });
});
