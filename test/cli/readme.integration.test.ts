/**
 * The README runs: every `=CRYPTO.…` formula it shows (the examples, the function reference, the prose) is
 * evaluated by the built command-line evaluator against the simulator, from one --file as a user would
 * keep a model. Each must give a result without any error cell, unless the README says, right after the
 * formula, which error it shows (`#N/A …`; the convention is in test/support/readme-formulas.ts and in
 * the README's Examples). Whoever adds a function, an option or an example to the README is held to it here;
 * a failure names the formula and its README line.
 */
import { execFile } from "child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { basename, join, resolve } from "path";
import { promisify } from "util";
import { DEMO_API_KEY, startSimulator, type RunningSimulator } from "../../src/simulator";
import type { JsonCell } from "../../src/cli/output/json";
import { extractFormulas, type ShownFormula } from "../support/readme-formulas";
import { shellSteps, shellWords } from "../support/readme-commands";
import { cliNodeFlags } from "../harness/hostile/cli-command";
import { builtCli } from "../support/node-build";

const ROOT = resolve(__dirname, "../..");
/** The built CLI (test/support/node-build.ts): dist/node/cli/main.js after npm test's build. */
let CLI: string;
/**
 * The documents whose formulas a user copies: the README (the front door), the function reference and the
 * command line's guide. Every formula in any of them runs here.
 */
const DOCUMENTS = ["README.md", "src/functions/REFERENCE.md", "src/cli/README.md"] as const;
const TEXT: Record<string, string> = Object.fromEntries(
  DOCUMENTS.map((name) => [name, readFileSync(resolve(ROOT, name), "utf8")])
);
const README = TEXT["README.md"];
const REFERENCE = TEXT["src/functions/REFERENCE.md"];

interface DocumentFormula extends ShownFormula {
  document: string;
}
const execFileAsync = promisify(execFile);

type Result = JsonCell[][];

let simulator: RunningSimulator;

beforeAll(async () => {
  CLI = await builtCli();
  simulator = await startSimulator({ port: 0, rateLimit: null });
}, 300_000);

afterAll(() => simulator?.close());

function errorsIn(result: Result): { error: string; message: string }[] {
  return result.flat().filter((cell): cell is { error: string; message: string } => {
    return typeof cell === "object" && cell !== null && "error" in cell;
  });
}

/** Every formula through the built CLI, one --file line each; the JSON results in the same order. */
async function evaluate(
  formulas: readonly ShownFormula[]
): Promise<{ code: number; results: Result[] }> {
  const file = join(mkdtempSync(join(tmpdir(), "cm-readme-")), "readme-formulas.txt");
  writeFileSync(file, formulas.map((f) => f.formula).join("\n") + "\n");
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.CRYPTOMETRICS_BASE_URL;
  delete env.CRYPTOMETRICS_API_KEY;
  const args = [
    CLI,
    "eval",
    "--format",
    "json",
    "--base-url",
    simulator.url,
    "--api-key",
    DEMO_API_KEY,
    "--file",
    file,
  ];
  const { stdout, code } = await execFileAsync(process.execPath, args, {
    cwd: ROOT,
    env,
    timeout: 180_000,
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    ({ stdout }) => ({ stdout, code: 0 }),
    (error: { stdout?: string; stderr?: string; code?: number }) => {
      // 1 (a whole result is an error) and 2 (a line refused) still print every result.
      if ((error.code === 1 || error.code === 2) && error.stdout)
        return { stdout: error.stdout, code: error.code };
      throw new Error(`the CLI failed (${error.code}): ${error.stderr ?? ""}`);
    }
  );
  return { code, results: JSON.parse(stdout) as Result[] };
}

/** What is wrong with one formula's result, in words naming it; undefined when it gives what the README says. */
function verdict(shown: DocumentFormula, result: Result | undefined): string | undefined {
  const where = `${shown.document}:${shown.line} ${shown.formula}`;
  if (!result) return `${where}: no result`;
  const errors = errorsIn(result);
  if (!shown.shows) {
    if (errors.length === 0) return undefined;
    const first = errors[0];
    return (
      `${where}: gave ${first.error} ${first.message}`.trim() +
      (errors.length > 1 ? ` (and ${errors.length - 1} more error cells)` : "")
    );
  }
  if (errors.some((e) => e.error === shown.shows)) return undefined;
  return `${where}: the README says it shows ${shown.shows}, it gave ${
    errors.length === 0 ? "no error" : errors.map((e) => e.error).join(", ")
  }`;
}

describe("the formulas of the README and the reference", () => {
  const extracted = DOCUMENTS.map((document) => ({ document, ...extractFormulas(TEXT[document]) }));
  const formulas: DocumentFormula[] = extracted.flatMap((e) =>
    e.formulas.map((f) => ({ ...f, document: e.document }))
  );
  const problems = extracted.flatMap((e) => e.problems.map((p) => `${e.document}: ${p}`));

  it("are all readable: each closes its call on its own line", () => {
    expect(problems).toEqual([]);
  });

  it("include every example and the function reference's functions", () => {
    // Every line of the Examples block that starts with a formula is taken.
    const block = /## Examples\s*```text\n([\s\S]*?)```/.exec(REFERENCE);
    expect(block).not.toBeNull();
    const exampleLines = block![1].split("\n").filter((l) => l.startsWith("="));
    const taken = new Set(formulas.map((f) => f.formula));
    for (const line of exampleLines)
      expect({ line, taken: [...taken].some((f) => line.startsWith(f)) }).toEqual({
        line,
        taken: true,
      });
    // Every function of the README's table appears in at least one formula, and the reference lists the same.
    const reference = [...README.matchAll(/^\| `([A-Z_]+)\(/gm)].map((m) => m[1]);
    expect([...REFERENCE.matchAll(/^\| `([A-Z_]+)\(/gm)].map((m) => m[1]).sort()).toEqual(
      [...reference].sort()
    );
    expect(reference.length).toBeGreaterThan(10);
    const used = new Set(
      formulas.flatMap((f) =>
        [...f.formula.matchAll(/CRYPTO\.([A-Z_]+)/gi)].map((m) => m[1].toUpperCase())
      )
    );
    expect(reference.filter((name) => !used.has(name))).toEqual([]);
  });

  it("each give a result without an error, or the error the README says they show", async () => {
    const { results } = await evaluate(formulas);
    expect(results).toHaveLength(formulas.length);
    const wrong = formulas.map((f, i) => verdict(f, results[i])).filter((v) => v !== undefined);
    expect(wrong).toEqual([]);
    // For the record: how many formulas the README holds, all evaluated.
    process.stdout.write(`README formulas evaluated: ${formulas.length}\n`);
  }, 240_000);
});

/** The address the README's commands use for the simulator (`npm run simulator`'s default). */
const README_SIMULATOR = "http://127.0.0.1:3001";

describe("the README's command-line examples", () => {
  it("run as a user types them: built, against the simulator, exit 0 with results printed", async () => {
    const block = /## The command line[\s\S]*?```sh\n([\s\S]*?)```/.exec(README);
    expect(block).not.toBeNull();
    // `npm run cli` is the built CLI under node: the test runs that file with the words after `--`.
    const pkg = JSON.parse(readFileSync(resolve(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.cli).toBe(`node ${cliNodeFlags(ROOT).join(" ")} dist/node/cli/main.js`);
    // That file is where build:node puts the CLI (tsconfig.node.json's outDir); the test runs this build's.
    const nodeBuild = JSON.parse(readFileSync(resolve(ROOT, "tsconfig.node.json"), "utf8")) as {
      compilerOptions: { outDir: string };
    };
    expect(nodeBuild.compilerOptions.outDir).toBe("dist/node");
    expect(existsSync(CLI)).toBe(true);
    const local = (word: string): string => word.split(README_SIMULATOR).join(simulator.url);
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.CRYPTOMETRICS_BASE_URL;
    delete env.CRYPTOMETRICS_API_KEY;
    const out = mkdtempSync(join(tmpdir(), "cm-readme-out-"));
    const skipped: string[] = [];
    const ran: string[] = [];
    for (const step of shellSteps(block![1])) {
      if (step.kind === "export") {
        for (const [name, value] of Object.entries(step.vars)) env[name] = local(value);
        continue;
      }
      const command = step.words.join(" ");
      // Making the key file private is the user's step: done here as typed, on the repository's own file.
      if (
        step.words[0] === "chmod" &&
        step.words.length === 3 &&
        /^[0-7]{3}$/.test(step.words[1])
      ) {
        chmodSync(resolve(ROOT, step.words[2]), parseInt(step.words[1], 8));
        ran.push(command);
        continue;
      }
      // The build is the suite's own (npm test builds first); the simulator is this test's, on its own port.
      if (["npm ci", "npm run build", "npm run simulator"].includes(command)) {
        skipped.push(command);
        continue;
      }
      const prefix = ["npm", "run", "--silent", "cli", "--"];
      if (prefix.some((word, i) => step.words[i] !== word))
        throw new Error(
          `README sh block line ${step.line}: not a CLI command this test knows: ${command}`
        );
      const args = step.words.slice(prefix.length).map(local);
      const { stdout, stderr, code } = await execFileAsync(
        process.execPath,
        [...cliNodeFlags(ROOT), CLI, ...args],
        {
          cwd: ROOT,
          env,
          timeout: 120_000,
          maxBuffer: 64 * 1024 * 1024,
        }
      ).then(
        ({ stdout, stderr }) => ({ stdout, stderr, code: 0 }),
        (error: { stdout?: string; stderr?: string; code?: number }) => ({
          stdout: error.stdout ?? "",
          stderr: error.stderr ?? "",
          code: error.code,
        })
      );
      // Written where the test keeps its files, whatever directory the README names (/tmp/model.csv).
      if (step.redirect) writeFileSync(join(out, basename(step.redirect)), stdout);
      expect({ command, code, stderr }).toEqual({ command, code: 0, stderr: "" });
      expect(stdout).toMatch(/\d/);
      // Exit 0 allows an error in part of a result: none is shown either.
      expect({ command, errors: stdout.match(/#(N\/A|VALUE!|NAME\?|NUM!|USAGE)/g) }).toEqual({
        command,
        errors: null,
      });
      ran.push(command);
    }
    expect(skipped).toEqual(["npm ci", "npm run build", "npm run simulator"]);
    expect(ran).toHaveLength(3);
  }, 240_000);

  it("never write the API key on a command line (other users see it with ps; npm's debug log keeps it)", () => {
    // Every code block and inline command: --api-key with a value is the one way that exposes the key.
    const shown = README.split("\n")
      .map((text, i) => ({ text, line: i + 1 }))
      .filter(({ text }) => /--api-key(?!-file)[ =]\S/.test(text))
      .map(({ text, line }) => `README.md:${line}: ${text.trim()}`);
    expect(shown).toEqual([]);
  });

  it("reads the shell the block uses: continuations, quotes, comments, exports, a redirect", () => {
    expect(
      shellSteps(
        [
          "npm ci && npm run build",
          "npm run simulator   # in a second terminal",
          "npm run --silent cli -- eval --base-url http://h \\",
          `  '=CRYPTO.VALUE("a","b")' "x y"`,
          "export A=1 B=http://h",
          "npm run --silent cli -- eval --file m.txt > m.csv",
        ].join("\n")
      )
    ).toEqual([
      { kind: "run", words: ["npm", "ci"], line: 1 },
      { kind: "run", words: ["npm", "run", "build"], line: 1 },
      { kind: "run", words: ["npm", "run", "simulator"], line: 2 },
      {
        kind: "run",
        words: [
          "npm",
          "run",
          "--silent",
          "cli",
          "--",
          "eval",
          "--base-url",
          "http://h",
          '=CRYPTO.VALUE("a","b")',
          "x y",
        ],
        line: 3,
      },
      { kind: "export", vars: { A: "1", B: "http://h" }, line: 5 },
      {
        kind: "run",
        words: ["npm", "run", "--silent", "cli", "--", "eval", "--file", "m.txt"],
        redirect: "m.csv",
        line: 6,
      },
    ]);
  });

  it("refuses shell it does not read, naming it", () => {
    expect(() => shellWords("cat m.txt | npm run cli")).toThrow(/'\|'/);
    expect(() => shellWords('echo "$HOME"')).toThrow(/expansion/);
    expect(() => shellWords("echo 'open")).toThrow(/unclosed '/);
  });
});

describe("finding the formulas in markdown", () => {
  it("takes every formula on a line, up to its closing parenthesis, whatever the text inside holds", () => {
    const { formulas, problems } = extractFormulas(
      [
        '=CRYPTO.SECTORS()  /  =CRYPTO.SECTOR("lending")   sectors / one',
        'Prose with `=CRYPTO.VALUE("a)b","say ""(hi""",DATE(2024,1,1)+30)` inside.',
        '=crypto.metric( "aave" , "fees" )',
      ].join("\n")
    );
    expect(problems).toEqual([]);
    expect(formulas).toEqual([
      { formula: "=CRYPTO.SECTORS()", line: 1 },
      { formula: '=CRYPTO.SECTOR("lending")', line: 1 },
      { formula: '=CRYPTO.VALUE("a)b","say ""(hi""",DATE(2024,1,1)+30)', line: 2 },
      { formula: '=crypto.metric( "aave" , "fees" )', line: 3 },
    ]);
  });

  it("reads the error an example announces right after it, and only there", () => {
    const { formulas } = extractFormulas(
      [
        '=CRYPTO.VALUE("aavee","fees")          #N/A: unknown project, with a suggestion',
        '`=CRYPTO.VALUE("aave","fees","x")` → `#VALUE!`',
        '=CRYPTO.VALUE("aave","fees") -> #N/A',
        '=CRYPTO.VALUE("aave","fees")   not an error; #N/A further on does not count',
        '=CRYPTO.VALUE("aave","fees")   #WHAT? is no error code',
      ].join("\n")
    );
    expect(formulas.map((f) => f.shows)).toEqual(["#N/A", "#VALUE!", "#N/A", undefined, undefined]);
  });

  it("reports a formula cut off at the end of its line", () => {
    const { formulas, problems } = extractFormulas('see =CRYPTO.METRIC("aave",\n"fees")');
    expect(formulas).toEqual([]);
    expect(problems).toEqual([`line 1: =CRYPTO.METRIC("aave",: no closing ')' on its line`]);
  });
});
