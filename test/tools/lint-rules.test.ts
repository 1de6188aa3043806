/**
 * The guard against spreading data-sized arrays into calls is the lint configuration itself: this checks
 * that it stays in force over the code and the tests (lint runs in `npm test`), and that ordinary spreads
 * stay allowed. ESLint runs in a child process (its config is an ES module jest cannot load).
 */
import { spawnSync } from "child_process";
import { resolve } from "path";

const ROOT = resolve(__dirname, "../..");

/**
 * The project's ESLint configuration without the type-aware part (typescript-eslint's disableTypeChecked on
 * top): the spread rule needs no types, and a snippet that is no file on disk has no place in the TypeScript
 * project the type-aware rules read. Code on stdin, the file name it is linted as in argv; JSON results out.
 */
const LINT_WITHOUT_TYPES = `
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
const code = await new Promise((done) => {
  let text = "";
  process.stdin.setEncoding("utf8").on("data", (c) => (text += c)).on("end", () => done(text));
});
const eslint = new ESLint({ cwd: process.cwd(), overrideConfig: tseslint.configs.disableTypeChecked });
const results = await eslint.lintText(code, { filePath: process.argv[1] });
process.stdout.write(JSON.stringify(results));
`;

/** Lines of `code` that a rule (the spread rule by default) flags, linted as if it were the file `filePath`. */
function flaggedLines(code: string, filePath: string, rule = "no-restricted-syntax"): number[] {
  const run = spawnSync(
    process.execPath,
    ["--input-type=module", "--eval", LINT_WITHOUT_TYPES, resolve(ROOT, filePath)],
    { cwd: ROOT, input: code, encoding: "utf8" }
  );
  if (run.status !== 0) throw new Error(`eslint failed: ${run.stderr}`);
  const [result] = JSON.parse(run.stdout) as Array<{
    messages: Array<{ ruleId: string | null; line: number }>;
  }>;
  return result.messages.filter((m) => m.ruleId === rule).map((m) => m.line);
}

const REFUSED = [
  "export const a = (xs: number[]) => Math.max(0, ...xs);",
  "export const b = (xs: number[]) => Math.min(...xs);",
  "export const c = (o: number[], xs: number[]) => o.push(...xs);",
  "export const d = (o: number[], xs: number[]) => o.unshift(...xs);",
  "export const e = (xs: number[]) => String.fromCharCode(...xs);",
  "export const f = (xs: number[]) => Math.max.apply(null, xs);",
].join("\n");

describe("no spreads of data-sized arrays into calls", () => {
  it.each(["src/engine/example.ts", "test/engine/example.test.ts"])(
    "refuses Math.max/min, push/unshift, fromCharCode over a spread and apply, in %s",
    (filePath) => {
      expect(flaggedLines(REFUSED, filePath)).toEqual([1, 2, 3, 4, 5, 6]);
    },
    60_000
  );

  it("allows spreads into array literals, and folds", () => {
    const code = [
      "export const a = (xs: number[]) => [0, ...xs];",
      "export const b = (xs: number[]) => xs.reduce((m, x) => Math.max(m, x), -Infinity);",
    ].join("\n");
    expect(flaggedLines(code, "src/engine/example.ts")).toEqual([]);
  }, 60_000);
});

describe("the pages write element text only through src/ui/dom.ts (bidi controls neutralised)", () => {
  const WRITES = [
    "export const a = (e: HTMLElement, s: string) => { e.textContent = s; };",
    "export const b = (e: HTMLElement, s: string) => { e.innerHTML = s; };",
    "export const c = (e: HTMLElement, s: string) => { e.innerText = s; };",
  ].join("\n");

  it.each([
    "src/taskpane/views/example.ts",
    "src/ui/example.ts",
    "src/preview/example.ts",
    "src/commands/example.ts",
  ])(
    "refuses textContent, innerHTML and innerText writes in %s",
    (filePath) => {
      expect(flaggedLines(WRITES, filePath)).toEqual([1, 2, 3]);
    },
    60_000
  );

  it("allows them in src/ui/dom.ts, where setText neutralises the text", () => {
    expect(flaggedLines(WRITES, "src/ui/dom.ts")).toEqual([]);
  }, 60_000);
});

describe("`any` only where Excel's metadata needs it", () => {
  const ANY = "export const a = (x: any) => String(x);";

  it.each(["src/functions/impl/example.ts", "src/functions/edge.ts", "src/engine/example.ts"])(
    "refuses it in %s",
    (filePath) => {
      expect(flaggedLines(ANY, filePath, "@typescript-eslint/no-explicit-any")).toEqual([1]);
    },
    60_000
  );

  it("allows it in src/functions/functions.ts, the custom functions' signatures", () => {
    expect(
      flaggedLines(ANY, "src/functions/functions.ts", "@typescript-eslint/no-explicit-any")
    ).toEqual([]);
  }, 60_000);
});
