/**
 * The add-in's manifests: the XML one (perpetual and older Office) and the unified JSON one (Excel on the web,
 * Windows 2501+, Mac 16.103+), rendered from one source, checked for the shared-runtime structure, against
 * each other, and by Microsoft's schema and validator (offline).
 */
import { execFile } from "child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join, resolve } from "path";
import { promisify } from "util";
import {
  checkManifestStructure,
  checkUnifiedStructure,
  compareManifests,
  validateUnifiedManifest,
  validateWithMicrosoftSchema,
} from "../../src/tools/manifest-check";
import { renderXml, unifiedText } from "../../src/tools/manifest/manifests";
import { generateFunctionsMeta } from "../../src/tools/gen-functions-meta";
import devDefaults from "../../src/config/dev-defaults.json";
import pkg from "../../package.json";
import { ensureNodeBuild } from "../support/node-build";

const ROOT = resolve(__dirname, "../..");
const DEV_ORIGIN = `https://localhost:${devDefaults.devServerPort}/`;
const xml = readFileSync(join(ROOT, "manifest.xml"), "utf8");
const unifiedFile = join(ROOT, "manifest.json");
const unified = JSON.parse(readFileSync(unifiedFile, "utf8")) as Record<string, unknown>;

/** The parts of the unified manifest the tests below change. */
interface Editable {
  version: unknown;
  developer: { privacyUrl: string };
  extensions: Array<{
    runtimes: Array<{
      id: string;
      lifetime: string;
      code: { script: string };
      customFunctions?: { namespace: unknown; metadataUrl: string };
    }>;
    ribbons: Array<{ tabs: Array<{ groups: Array<{ controls: Array<{ actionId: string }> }> }> }>;
  }>;
}

/** A copy of the unified manifest, changed by `edit`. */
function edited(edit: (m: Editable) => void): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(unified)) as Editable & Record<string, unknown>;
  edit(copy);
  return copy;
}

function functionsOf(m: Editable) {
  const functions = m.extensions[0].runtimes[0].customFunctions;
  if (!functions) throw new Error("no customFunctions to change");
  return functions;
}

/** The functions metadata the build serves as functions.json (custom-functions-metadata over the JSDoc). */
let functionsMetadata: { functions: unknown[]; allowCustomDataForDataTypeAny?: boolean };
beforeAll(async () => {
  const generated = JSON.parse(
    await generateFunctionsMeta(join(ROOT, "src/functions/functions.ts"))
  ) as { metadata: typeof functionsMetadata };
  functionsMetadata = generated.metadata;
}, 120_000);

describe("the two manifests, from one source", () => {
  // UPDATE_MANIFESTS=1 rewrites the repository's copies from src/tools/manifest/manifests.js.
  const update = process.env.UPDATE_MANIFESTS === "1";

  it("keeps the repository's manifest.xml as the source renders it for the development server", () => {
    const rendered = renderXml(DEV_ORIGIN, pkg.version);
    if (update) writeFileSync(join(ROOT, "manifest.xml"), rendered);
    expect(readFileSync(join(ROOT, "manifest.xml"), "utf8")).toBe(rendered);
  });

  it("keeps the repository's manifest.json as the source renders it, with the functions' own metadata", () => {
    const rendered = unifiedText(DEV_ORIGIN, pkg.version, functionsMetadata);
    if (update) writeFileSync(unifiedFile, rendered);
    expect(readFileSync(unifiedFile, "utf8")).toBe(rendered);
  });

  it("describes one add-in: the same id, version, origin, page, functions, namespace and ribbon", () => {
    expect(compareManifests(xml, unified)).toEqual([]);
  });

  it("declares the custom functions on the one long-lived runtime, with the metadata's data-type flag", () => {
    expect(checkUnifiedStructure(unified)).toEqual([]);
    const [extension] = unified.extensions as Array<{ runtimes: Array<Record<string, unknown>> }>;
    expect(extension.runtimes).toEqual([
      expect.objectContaining({
        lifetime: "long",
        code: { page: `${DEV_ORIGIN}taskpane.html`, script: `${DEV_ORIGIN}functions.js` },
        customFunctions: {
          namespace: { id: "CRYPTO", name: "CRYPTO" },
          metadataUrl: `${DEV_ORIGIN}functions.json`,
          allowCustomDataForDataTypeAny: functionsMetadata.allowCustomDataForDataTypeAny === true,
        },
      }),
    ]);
  });

  it("refuses to render a unified manifest for a build without functions", () => {
    expect(() => unifiedText(DEV_ORIGIN, pkg.version, { functions: [] })).toThrow(/no function/);
    expect(() => renderXml("http://localhost:3000/", pkg.version)).toThrow(/https/);
  });
});

describe("manifest.json against Microsoft's schema and validator", () => {
  it("passes the schema bundled in @microsoft/app-manifest for its manifestVersion", async () => {
    expect(await validateUnifiedManifest(unified)).toEqual([]);
  });

  it("passes Microsoft's own validator, offline (office-addin-manifest validate)", async () => {
    const run = promisify(execFile);
    const cli = require.resolve("office-addin-manifest/cli.js", { paths: [ROOT] });
    // Its own process: office-addin-manifest's ESM-only dependencies do not load in jest.
    const ok = await run(process.execPath, [cli, "validate", unifiedFile], { cwd: ROOT });
    expect(ok.stderr).toBe("");
    const dir = mkdtempSync(join(tmpdir(), "cm-manifest-"));
    try {
      const broken = join(dir, "manifest.json");
      writeFileSync(
        broken,
        JSON.stringify(edited((m) => (m.extensions[0].runtimes[0].lifetime = "forever")))
      );
      await expect(
        run(process.execPath, [cli, "validate", broken], { cwd: ROOT })
      ).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/Invalid value/),
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("would catch a unified manifest the schema rejects", async () => {
    const problems = await validateUnifiedManifest(
      edited((m) => {
        m.version = 7;
        functionsOf(m).namespace = { id: "crypto-fn!" };
      })
    );
    expect(problems.join("\n")).toMatch(/\/version/);
    expect(problems.join("\n")).toMatch(/namespace/);
  });
});

describe("manifest.json structure", () => {
  it.each([
    [
      "a short-lived runtime",
      (m: Editable) => (m.extensions[0].runtimes[0].lifetime = "short"),
      /lifetime "long"/,
    ],
    [
      "no custom functions",
      (m: Editable) => delete m.extensions[0].runtimes[0].customFunctions,
      /no custom functions/,
    ],
    [
      "another namespace",
      (m: Editable) => (functionsOf(m).namespace = { id: "COIN", name: "COIN" }),
      /namespace/,
    ],
    [
      "a ribbon button whose action is in another runtime",
      (m: Editable) =>
        (m.extensions[0].ribbons[0].tabs[0].groups[0].controls[1].actionId = "elsewhere"),
      /elsewhere/,
    ],
    [
      "a second runtime",
      (m: Editable) =>
        m.extensions[0].runtimes.push({
          ...m.extensions[0].runtimes[0],
          id: "Other",
          lifetime: "short",
        }),
      /one runtime/,
    ],
    [
      "a plain-http URL",
      (m: Editable) =>
        (m.extensions[0].runtimes[0].code.script = "http://localhost:3000/functions.js"),
      /not https/,
    ],
    [
      "a second origin",
      (m: Editable) => (m.developer.privacyUrl = "https://cdn.example.com/privacy.html"),
      /several origins/,
    ],
  ])("reports %s", (_label, mutate, expected) => {
    expect(checkUnifiedStructure(edited(mutate)).join("\n")).toMatch(expected);
  });

  it("reports where the XML and the unified manifest disagree", () => {
    const other = edited((m) => {
      functionsOf(m).metadataUrl = "https://localhost:3000/other.json";
      m.version = "0.2.0";
    });
    const problems = compareManifests(xml, other).join("\n");
    expect(problems).toMatch(/functions metadata/);
    expect(problems).toMatch(/version/);
  });
});

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

describe("npm run validate", () => {
  it("checks the repository's pair: each manifest, Microsoft's validators where they run, and that they agree", async () => {
    const build = await ensureNodeBuild();
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, [join(build, "tools/validate-manifest.js")], {
      cwd: ROOT,
    });
    expect(stdout).toContain("Microsoft's validator (offline): ok");
    expect(stdout).toContain("The XML and unified manifests agree: ok");
    expect(stdout).not.toContain("PROBLEMS");
  }, 400_000);
});
