/**
 * Guards that live in the lint configuration itself: this checks that they stay in force over the code and the
 * tests (lint runs in `npm test`), and that what they allow stays allowed. ESLint runs in one child process for
 * every snippet below (its config is an ES module jest cannot load, and starting it costs seconds).
 */
import { spawnSync } from "child_process";
import { resolve } from "path";

const ROOT = resolve(__dirname, "../..");

/**
 * The project's ESLint configuration without the type-aware part (typescript-eslint's disableTypeChecked on
 * top): these rules need no types, and a snippet that is no file on disk has no place in the TypeScript project
 * the type-aware rules read. Snippets as JSON on stdin ({code, filePath}), each linted as that file; for each,
 * the rule and line of every message, as JSON on stdout.
 */
const LINT_WITHOUT_TYPES = `
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
const input = await new Promise((done) => {
  let text = "";
  process.stdin.setEncoding("utf8").on("data", (c) => (text += c)).on("end", () => done(text));
});
const eslint = new ESLint({ cwd: process.cwd(), overrideConfig: tseslint.configs.disableTypeChecked });
const out = [];
for (const { code, filePath } of JSON.parse(input)) {
  const [result] = await eslint.lintText(code, { filePath });
  out.push(result.messages.map((m) => ({ ruleId: m.ruleId, line: m.line })));
}
process.stdout.write(JSON.stringify(out));
`;

const SPREAD_RULE = "no-restricted-syntax";
const ANY_RULE = "@typescript-eslint/no-explicit-any";

const REFUSED_SPREADS = [
  "export const a = (xs: number[]) => Math.max(0, ...xs);",
  "export const b = (xs: number[]) => Math.min(...xs);",
  "export const c = (o: number[], xs: number[]) => o.push(...xs);",
  "export const d = (o: number[], xs: number[]) => o.unshift(...xs);",
  "export const e = (xs: number[]) => String.fromCharCode(...xs);",
  "export const f = (xs: number[]) => Math.max.apply(null, xs);",
].join("\n");
const ALLOWED_SPREADS = [
  "export const a = (xs: number[]) => [0, ...xs];",
  "export const b = (xs: number[]) => xs.reduce((m, x) => Math.max(m, x), -Infinity);",
].join("\n");
const TEXT_WRITES = [
  "export const a = (e: HTMLElement, s: string) => { e.textContent = s; };",
  "export const b = (e: HTMLElement, s: string) => { e.innerHTML = s; };",
  "export const c = (e: HTMLElement, s: string) => { e.innerText = s; };",
].join("\n");
const ANY = "export const a = (x: any) => String(x);";

const SPREAD_FILES = ["src/engine/example.ts", "test/engine/example.test.ts"];
const PAGE_FILES = [
  "src/taskpane/views/example.ts",
  "src/ui/example.ts",
  "src/preview/example.ts",
  "src/commands/example.ts",
];
const ANY_REFUSED_FILES = [
  "src/functions/impl/example.ts",
  "src/functions/edge.ts",
  "src/engine/example.ts",
];

/** Every snippet the tests ask about, linted once. */
const SNIPPETS: ReadonlyArray<{ code: string; filePath: string }> = [
  ...SPREAD_FILES.map((filePath) => ({ code: REFUSED_SPREADS, filePath })),
  { code: ALLOWED_SPREADS, filePath: "src/engine/example.ts" },
  ...[...PAGE_FILES, "src/ui/dom.ts"].map((filePath) => ({ code: TEXT_WRITES, filePath })),
  ...[...ANY_REFUSED_FILES, "src/functions/functions.ts"].map((filePath) => ({
    code: ANY,
    filePath,
  })),
];

let results: Array<Array<{ ruleId: string | null; line: number }>>;

beforeAll(() => {
  const run = spawnSync(process.execPath, ["--input-type=module", "--eval", LINT_WITHOUT_TYPES], {
    cwd: ROOT,
    input: JSON.stringify(SNIPPETS.map((s) => ({ ...s, filePath: resolve(ROOT, s.filePath) }))),
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`eslint failed: ${run.stderr}`);
  results = JSON.parse(run.stdout) as typeof results;
}, 120_000);

/** Lines of `code` that `rule` flags, linted as if it were the file `filePath`. */
function flaggedLines(code: string, filePath: string, rule = SPREAD_RULE): number[] {
  const i = SNIPPETS.findIndex((s) => s.code === code && s.filePath === filePath);
  if (i < 0) throw new Error(`not linted: ${filePath}`);
  return results[i].filter((m) => m.ruleId === rule).map((m) => m.line);
}

describe("no spreads of data-sized arrays into calls", () => {
  it.each(SPREAD_FILES)(
    "refuses Math.max/min, push/unshift, fromCharCode over a spread and apply, in %s",
    (filePath) => {
      expect(flaggedLines(REFUSED_SPREADS, filePath)).toEqual([1, 2, 3, 4, 5, 6]);
    }
  );

  it("allows spreads into array literals, and folds", () => {
    expect(flaggedLines(ALLOWED_SPREADS, "src/engine/example.ts")).toEqual([]);
  });
});

describe("the pages write element text only through src/ui/dom.ts (bidi controls neutralised)", () => {
  it.each(PAGE_FILES)("refuses textContent, innerHTML and innerText writes in %s", (filePath) => {
    expect(flaggedLines(TEXT_WRITES, filePath)).toEqual([1, 2, 3]);
  });

  it("allows them in src/ui/dom.ts, where setText neutralises the text", () => {
    expect(flaggedLines(TEXT_WRITES, "src/ui/dom.ts")).toEqual([]);
  });
});

describe("`any` only where Excel's metadata needs it", () => {
  it.each(ANY_REFUSED_FILES)("refuses it in %s", (filePath) => {
    expect(flaggedLines(ANY, filePath, ANY_RULE)).toEqual([1]);
  });

  it("allows it in src/functions/functions.ts, the custom functions' signatures", () => {
    expect(flaggedLines(ANY, "src/functions/functions.ts", ANY_RULE)).toEqual([]);
  });
});
