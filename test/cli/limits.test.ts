/**
 * A model file whose lines go past the parser's bounds (a formula nested thousands deep, an array constant
 * too large, a line too long) costs those lines only: each gets its #USAGE result naming the limit, the
 * other lines are evaluated and printed, exit 2. (Before, 2,000 parentheses ended the whole run with
 * "internal error: Maximum call stack size exceeded", printing nothing.)
 */
import { mkdtempSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { MAX_FORMULA_LENGTH } from "../../src/sheet/limits";
import { BASE, resetFixtureLog, runCli } from "./harness";

beforeEach(resetFixtureLog);

function tempFile(content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "cm-cli-limits-")), "model.txt");
  writeFileSync(path, content);
  return path;
}

it("evaluates every other line of a file holding formulas past the depth, size and length limits", async () => {
  const ids = Array.from({ length: 5_001 }, (_, i) => `"p${i}"`).join(",");
  const lines = [
    "DOUBLE(1)",
    `DOUBLE(${"(".repeat(2_000)}2${")".repeat(2_000)})`,
    `DOUBLE(1${"+1".repeat(4_000)})`,
    "DOUBLE(3)",
    `ECHO({${ids}})`,
    `ECHO("${"x".repeat(MAX_FORMULA_LENGTH)}")`,
    "DOUBLE(4)",
  ];
  const path = tempFile(lines.join("\n"));
  const outcome = await runCli(["eval", ...BASE, "--format", "json", "--file", path]);
  expect(outcome.code).toBe(2);
  expect(outcome.stderr).toBe(
    "cryptometrics: 4 lines not evaluated (usage errors, shown at their places)\n"
  );
  const usage = (line: number, message: RegExp) => [
    [
      {
        error: "#USAGE",
        message: expect.stringMatching(new RegExp(`^${path}:${line}: ${message.source}`)),
      },
    ],
  ];
  expect(JSON.parse(outcome.stdout)).toEqual([
    [[2]],
    usage(2, /the formula is nested too deeply: at most 100 levels .* at column 108$/),
    usage(3, /the formula is nested too deeply/),
    [[6]],
    usage(5, /an array constant holds at most 5,000 elements at column \d+$/),
    usage(6, /the formula is 100,008 characters long; at most 100,000 are read/),
    [[8]],
  ]);
});
