/**
 * The architecture's rules are tools' configurations (`.dependency-cruiser.cjs`, `eslint.config.mjs`), run by
 * `npm test` over src. That src passes them says nothing if a rule cannot fire: these check that each one
 * refuses what it names and lets the allowed layering through.
 *
 * The import rules run over a small tree of one-line modules (test/fixtures/architecture/src), laid out as
 * src is, with exactly one wrong import per rule and the usual right ones beside them. The Office and DOM
 * globals rules run over samples linted as if they were files of src.
 */
import { spawnSync } from "child_process";
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join, resolve } from "path";

const ROOT = resolve(__dirname, "../..");

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** dependency-cruiser with the project's rules over the fixture tree; its violations as "rule: from → to". */
function cruiseFixture(): { violations: string[]; modules: number } {
  const dir = mkdtempSync(join(tmpdir(), "cm-architecture-"));
  try {
    cpSync(resolve(ROOT, "test/fixtures/architecture/src"), join(dir, "src"), { recursive: true });
    // The rules name paths from the repository root (^src/...) and read a tsconfig.json there.
    writeFileSync(join(dir, "tsconfig.json"), '{ "compilerOptions": { "strict": true } }\n');
    const run = spawnSync(
      process.execPath,
      [
        resolve(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs"),
        "src",
        "--config",
        resolve(ROOT, ".dependency-cruiser.cjs"),
        "--output-type",
        "json",
      ],
      { cwd: dir, encoding: "utf8" }
    );
    if (run.stdout === "") throw new Error(`depcruise failed: ${run.stderr}`);
    const result = JSON.parse(run.stdout) as {
      summary: { violations: Violation[]; totalCruised: number };
    };
    return {
      violations: result.summary.violations
        .map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)
        .sort(),
      modules: result.summary.totalCruised,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("the import rules (dependency-cruiser)", () => {
  it("refuse each wrong import of the fixture tree and nothing else", () => {
    const { violations, modules } = cruiseFixture();
    expect(modules).toBe(24);
    expect(violations).toEqual([
      // What Excel loads never reaches the simulator (here through another module), nor the CLI.
      "bundles-without-dev-code: src/functions/entry.ts → src/simulator/simulator.ts",
      "bundles-without-dev-code: src/taskpane/taskpane.ts → src/cli/flags.ts",
      // The cache policy sits below the engine: it takes only the client (and here passes the door too).
      "cache-policy-below-engine-and-gateway: src/cache/policy.ts → src/engine/lru.ts",
      "client-is-the-base: src/client/base.ts → src/engine/index.ts",
      // Outside the client, only its index: not one of its modules.
      "client-through-its-index: src/runtime/runtime.ts → src/client/c.ts",
      "core-stays-plain: src/sheet/cells.ts → src/ui/dom.ts",
      // Outside the engine, only its door (a dynamic import, a chunk of its own, is the named exception).
      "engine-through-its-index: src/cache/policy.ts → src/engine/lru.ts",
      "engine-through-its-index: src/functions/impl.ts → src/engine/figures/rule.ts",
      // functions.js never holds page code (here through another module).
      "functions-bundle-lean: src/functions/entry.ts → src/ui/dom.ts",
      // A type-only cycle between files is still a cycle.
      "no-file-cycles: src/client/a.ts → src/client/b.ts",
      // taskpane/taskpane → preview/page and preview/preview → taskpane/model: no file cycle, a folder one.
      "no-folder-cycles: src/preview → src/taskpane",
      "no-folder-cycles: src/taskpane → src/preview",
      "pages-not-cli: src/taskpane/taskpane.ts → src/cli/flags.ts",
      // A page never reaches into a function's implementation; the functions themselves may.
      "pages-not-function-internals: src/taskpane/model.ts → src/functions/impl/columns.ts",
      "tools-only-by-tools: src/cli/main.ts → src/tools/bench.ts",
    ]);
    // Allowed and present in the tree, hence not above: the pages and the CLI using the sheet model, the
    // tools using each other and the simulator.
  }, 60_000);
});

/**
 * The project's ESLint configuration without its type-aware part (the globals rules need no types, and a
 * sample is no file of the TypeScript project). Samples as JSON in argv; per sample, the lines each
 * no-restricted-globals message is on, and the Office edge list found in the configuration.
 */
const LINT_SAMPLES = `
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import config from "./eslint.config.mjs";
const samples = JSON.parse(process.argv[1]);
const eslint = new ESLint({ cwd: process.cwd(), overrideConfig: tseslint.configs.disableTypeChecked });
const flagged = [];
for (const { file, code } of samples) {
  const [result] = await eslint.lintText(code, { filePath: file });
  flagged.push(result.messages.filter((m) => m.ruleId === "no-restricted-globals").map((m) => m.line));
}
const edge = config.find((c) => c.ignores && c.rules && c.rules["no-restricted-globals"]).ignores;
process.stdout.write(JSON.stringify({ flagged, edge }));
`;

function lintSamples(samples: ReadonlyArray<{ file: string; code: string }>): {
  flagged: number[][];
  edge: string[];
} {
  const run = spawnSync(
    process.execPath,
    ["--input-type=module", "--eval", LINT_SAMPLES, JSON.stringify(samples)],
    { cwd: ROOT, encoding: "utf8" }
  );
  if (run.status !== 0) throw new Error(`eslint failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as { flagged: number[][]; edge: string[] };
}

const OFFICE = [
  "export const a = () => Excel.run(async () => undefined);",
  "export const b = () => Office.onReady();",
  "export const c = () => OfficeRuntime.storage;",
  "export const d = (e: CustomFunctions.Error) => new CustomFunctions.Error(e.code);",
].join("\n");
const DOM = [
  "export const a = () => document.title;",
  "export const b = () => window.location.href;",
  "export const c = () => localStorage.length;",
].join("\n");

describe("the Office and DOM globals rules (ESLint)", () => {
  const samples = [
    { file: "src/engine/engine.ts", code: OFFICE },
    { file: "src/taskpane/views/settings-view.ts", code: OFFICE },
    { file: "src/excel/sheets.ts", code: OFFICE },
    { file: "src/excel/office-host.ts", code: OFFICE },
    { file: "src/functions/edge.ts", code: OFFICE },
    { file: "src/client/http/fetch.ts", code: DOM },
    { file: "src/sheet/cells.ts", code: DOM },
    { file: "src/ui/dom.ts", code: DOM },
  ];
  let flagged: number[][];
  let edge: string[];
  beforeAll(() => {
    ({ flagged, edge } = lintSamples(samples));
  }, 60_000);
  const linted = (file: string) => flagged[samples.findIndex((s) => s.file === file)];

  it("refuse Office globals anywhere in src but the edge files, even in the pages and src/excel", () => {
    // Line 4 uses CustomFunctions only as a value (new): a type position is no use of the global.
    expect(linted("src/engine/engine.ts")).toEqual([1, 2, 3, 4]);
    expect(linted("src/taskpane/views/settings-view.ts")).toEqual([1, 2, 3, 4]);
    expect(linted("src/excel/sheets.ts")).toEqual([1, 2, 3, 4]);
    expect(linted("src/excel/office-host.ts")).toEqual([]);
    expect(linted("src/functions/edge.ts")).toEqual([]);
  });

  it("refuse DOM globals in the core (client, engine, sheet), not in the pages' helpers", () => {
    expect(linted("src/client/http/fetch.ts")).toEqual([1, 2, 3]);
    expect(linted("src/sheet/cells.ts")).toEqual([1, 2, 3]);
    expect(linted("src/ui/dom.ts")).toEqual([]);
  });

  it("list only edge files that exist (a renamed one would silently lose its exemption)", () => {
    expect(edge.length).toBeGreaterThan(0);
    expect(edge.filter((file) => !existsSync(resolve(ROOT, file)))).toEqual([]);
  });
});
