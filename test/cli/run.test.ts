/** The command line itself: flags, sources of formulas, environment, formats and exit codes. */
import fc from "fast-check";
import { mkdtempSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { SheetError } from "../../src/sheet/errors";
import { BASE, fakeDeps, resetFixtureLog, runCli } from "./harness";

beforeEach(resetFixtureLog);

function tempFile(content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "cm-cli-")), "formulas.txt");
  writeFileSync(path, content);
  return path;
}

/** A usage error: exit 2, nothing on stdout, one line on stderr, no stack trace. */
function expectUsageError(
  outcome: { code: number; stdout: string; stderr: string },
  message: string | RegExp
): void {
  expect(outcome.code).toBe(2);
  expect(outcome.stdout).toBe("");
  expect(outcome.stderr.endsWith("\n")).toBe(true);
  expect(outcome.stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(outcome.stderr).not.toMatch(/\n\s+at /);
  if (typeof message === "string") expect(outcome.stderr).toBe(`cryptometrics: ${message}\n`);
  else expect(outcome.stderr).toMatch(message);
}

describe("the eval command", () => {
  it("prints a table by default and exits 0", async () => {
    const outcome = await runCli(["eval", ...BASE, "=CRYPTO.DOUBLE(21)", "double(1.5)"]);
    expect(outcome).toMatchObject({
      code: 0,
      stderr: "",
      stdout: "=CRYPTO.DOUBLE(21)\n42\n\n=CRYPTO.DOUBLE(1.5)\n3\n",
    });
  });

  it("exits 0 when only cells inside a table are errors", async () => {
    const outcome = await runCli(["eval", ...BASE, "--format", "csv", "MIXED()"]);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain("# B3: #N/A no data for 2024-01-02\r\n");
  });

  it("exits 1 when a whole result is an error, still printing every result", async () => {
    const outcome = await runCli([
      "eval",
      ...BASE,
      "DOUBLE(1)",
      'FAIL("notAvailable","unknown project \'foo\'")',
    ]);
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe(
      "=CRYPTO.DOUBLE(1)\n2\n\n=CRYPTO.FAIL(\"notAvailable\",\"unknown project 'foo'\")\n#N/A unknown project 'foo'\n"
    );
  });

  it("reads formulas from --file, one per non-empty line, before the FORMULA arguments", async () => {
    const path = tempFile("\uFEFF=CRYPTO.DOUBLE(1)\r\n\r\n   \nDOUBLE(2)\n");
    const outcome = await runCli([
      "eval",
      ...BASE,
      "--format",
      "json",
      "--file",
      path,
      "DOUBLE(3)",
    ]);
    expect(outcome.code).toBe(0);
    expect(JSON.parse(outcome.stdout)).toEqual([[[2]], [[4]], [[6]]]);
  });

  describe("a --file line that cannot be evaluated costs only itself", () => {
    // Line 3 does not parse, line 4 names no function, line 5 has too many arguments.
    const lines = ["DOUBLE(1)", "", "  DOUBLE(2))", "DUBBLE(3)", "DOUBLE(4,5)", "DOUBLE(6)"];

    it("json: a #USAGE result at its place, the other lines evaluated, exit 2", async () => {
      const path = tempFile(lines.join("\n"));
      const outcome = await runCli(["eval", ...BASE, "--format", "json", "--file", path]);
      expect(outcome.code).toBe(2);
      expect(JSON.parse(outcome.stdout)).toEqual([
        [[2]],
        [
          [
            {
              error: "#USAGE",
              message: `${path}:3: unexpected ')' after the closing ')' at column 12`,
            },
          ],
        ],
        [
          [
            {
              error: "#USAGE",
              message: expect.stringMatching(/^.*:4: unknown function DUBBLE/),
            },
          ],
        ],
        [[{ error: "#USAGE", message: expect.stringMatching(/^.*:5: too many arguments \(2\)/) }]],
        [[12]],
      ]);
      expect(outcome.stderr).toBe(
        "cryptometrics: 3 lines not evaluated (usage errors, shown at their places)\n"
      );
    });

    it("table and csv: a message line in place of the result", async () => {
      const path = tempFile(lines.join("\n"));
      const table = await runCli(["eval", ...BASE, "--file", path]);
      expect(table.code).toBe(2);
      expect(table.stdout.split("\n\n")[1]).toBe(
        `DOUBLE(2))\n#USAGE ${path}:3: unexpected ')' after the closing ')' at column 12`
      );
      expect(table.stdout).toContain("=CRYPTO.DOUBLE(6)\n12\n");
      const csv = await runCli(["eval", ...BASE, "--format", "csv", "--file", path]);
      expect(csv.code).toBe(2);
      // Labelled by the line as written, as every table of the csv is by its formula.
      expect(csv.stdout.split("\r\n\r\n")[1]).toBe(
        `# DOUBLE(2))\r\n#USAGE\r\n# #USAGE ${path}:3: unexpected ')' after the closing ')' at column 12`
      );
    });

    it("keeps each formula in its own cell: the line after a refused one is still Sheet1!A<its place>", async () => {
      const path = tempFile("DOUBLE(1))\nWHERE()\n");
      const outcome = await runCli(["eval", ...BASE, "--format", "json", "--file", path]);
      expect((JSON.parse(outcome.stdout) as unknown[])[1]).toEqual([["Sheet1!A2"]]);
    });

    it("shows why every line of a file was refused even with no service configured", async () => {
      const path = tempFile("DOUBLE(1))\nDUBBLE(2)\n");
      const outcome = await runCli(["eval", "--format", "json", "--file", path]);
      expect(outcome.code).toBe(2);
      expect(outcome.configured).toEqual([]);
      expect(JSON.parse(outcome.stdout)).toEqual([
        [[{ error: "#USAGE", message: expect.stringMatching(/:1: unexpected '\)'/) }]],
        [
          [
            {
              error: "#USAGE",
              message: expect.stringMatching(/:2: unknown function DUBBLE/),
            },
          ],
        ],
      ]);
      expect(outcome.stderr).toBe(
        "cryptometrics: 2 lines not evaluated (usage errors, shown at their places)\n"
      );
    });

    it("a FORMULA argument that does not parse still stops the run before any request", async () => {
      expectUsageError(
        await runCli(["eval", ...BASE, "DOUBLE(1)", "DOUBLE(2))"]),
        "formula 2: unexpected ')' after the closing ')' at column 10"
      );
    });
  });

  it("takes base URL and API key from the environment, flags first", async () => {
    const env = { CRYPTOMETRICS_BASE_URL: "https://env.example", CRYPTOMETRICS_API_KEY: "env-key" };
    expect((await runCli(["eval", "DOUBLE(1)"], { env })).configured).toEqual([
      { baseUrl: "https://env.example", apiKey: "env-key" },
    ]);
    expect(
      (
        await runCli(
          ["eval", "--base-url", "https://flag.example", "--api-key", "flag-key", "DOUBLE(1)"],
          { env }
        )
      ).configured
    ).toEqual([{ baseUrl: "https://flag.example", apiKey: "flag-key" }]);
  });

  it("runs without an API key: that is the functions' to report in the cells, not a usage error", async () => {
    const outcome = await runCli(["eval", ...BASE, "DOUBLE(1)"], {
      env: { CRYPTOMETRICS_API_KEY: "" },
    });
    expect(outcome.code).toBe(0);
    expect(outcome.configured).toEqual([{ baseUrl: "https://metrics.example", apiKey: "" }]);
  });

  it("never prints the API key", async () => {
    const key = "sk-live-0123456789abcdef";
    const outcomes = await Promise.all([
      runCli(["eval", ...BASE, "--api-key", key, "DOUBLE(1)", "CRASH()"]),
      runCli(["eval", "--api-key", key, "DOUBLE(1)"]),
      runCli(["eval", "--base-url", "http://example.com", "--api-key", key, "DOUBLE(1)"]),
      runCli(["eval", ...BASE, "--api-key", key, "DOUBLE(1"]),
    ]);
    for (const outcome of outcomes) expect(outcome.stdout + outcome.stderr).not.toContain(key);
  });

  it("prints help with the available functions on --help, exit 0", async () => {
    const outcome = await runCli(["--help"]);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toMatch(/^usage: cryptometrics eval /);
    expect(outcome.stdout).toContain(
      "  CRYPTO.ECHO(value, [second], [third])\n      Returns its first argument"
    );
  });

  it("still prints help when the build is broken", async () => {
    const deps = {
      loadRegistry: () => {
        throw new SheetError("broken-build", "functions metadata: cannot read it");
      },
    };
    const outcome = await runCli(["eval", "-h"], { deps });
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toMatch(/^usage: /);
    expect(outcome.stdout).not.toContain("Functions:");
  });
});

describe("usage errors: exit 2, one line on stderr", () => {
  it.each([
    [["eval", "--bogus", "DOUBLE(1)"], "Unknown option '--bogus' (see --help)"],
    [["eval", "DOUBLE(1)", "--format"], "Option '--format <value>' argument missing (see --help)"],
    [["eval", "--format", "xml", "DOUBLE(1)"], "unknown format 'xml' (use table, csv or json)"],
    [["evaluate", "DOUBLE(1)"], "unknown command 'evaluate' (the commands are eval and cache)"],
    [[], /^cryptometrics: missing command: usage: cryptometrics eval/],
    [["eval"], "no formula: pass FORMULA arguments or --file PATH"],
    [
      ["eval", "--file", "/nonexistent/formulas.txt"],
      "cannot read --file /nonexistent/formulas.txt: no such file",
    ],
  ])("%j", async (argv, message) => {
    expectUsageError(await runCli(argv), message);
  });

  it("refuses a formula that does not parse, naming it and the column", async () => {
    expectUsageError(
      await runCli(["eval", ...BASE, "DOUBLE(1)", '=CRYPTO.METRIC("aave",))']),
      "formula 2: unexpected ')' after the closing ')' at column 24"
    );
  });

  it("refuses an unknown function, suggesting a near name", async () => {
    expectUsageError(
      await runCli(["eval", ...BASE, "DOUBEL(1)"]),
      "formula 1: unknown function DOUBEL (did you mean CRYPTO.DOUBLE?)"
    );
    expectUsageError(
      await runCli(["eval", ...BASE, "PRICEZ(1)"]),
      "formula 1: unknown function PRICEZ"
    );
  });

  it("refuses too many arguments or a missing required one, showing the signature", async () => {
    expectUsageError(
      await runCli(["eval", ...BASE, "DOUBLE(1,2)"]),
      "formula 1: too many arguments (2) for CRYPTO.DOUBLE(value): it takes at most 1 argument"
    );
    expectUsageError(
      await runCli(["eval", ...BASE, "MIXED(,)"]),
      "formula 1: too many arguments (2) for CRYPTO.MIXED(): it takes no arguments"
    );
    expectUsageError(
      await runCli(["eval", ...BASE, "DOUBLE()"]),
      "formula 1: missing required argument 'value' of CRYPTO.DOUBLE(value)"
    );
  });

  it("accepts an explicitly empty required argument, as Excel does (the function sees null)", async () => {
    const outcome = await runCli(["eval", ...BASE, "--format", "json", "ECHO(,1)"]);
    expect(outcome.code).toBe(0);
    expect(JSON.parse(outcome.stdout)).toEqual([[[null]]]);
  });

  it("reports what is wrong with a formula before a missing base URL", async () => {
    expectUsageError(
      await runCli(["eval", "DOUBLE()"], { env: {} }),
      "formula 1: missing required argument 'value' of CRYPTO.DOUBLE(value)"
    );
  });

  it("needs a base URL", async () => {
    expectUsageError(
      await runCli(["eval", "DOUBLE(1)"], { env: { CRYPTOMETRICS_BASE_URL: "" } }),
      "no base URL: pass --base-url or set CRYPTOMETRICS_BASE_URL"
    );
  });

  it("turns a base URL the runtime refuses into a usage error with the runtime's message", async () => {
    expectUsageError(
      await runCli(["eval", "--base-url", "http://example.com", "DOUBLE(1)"]),
      "refusing plain http base URL http://example.com: use https"
    );
  });

  it("checks every formula's syntax before loading anything", async () => {
    let loaded = false;
    const outcome = await runCli(["eval", "DOUBLE(1", "DOUBLE(2)"], {
      deps: {
        loadRegistry: () => {
          loaded = true;
          return fakeDeps([]).loadRegistry();
        },
      },
    });
    expectUsageError(outcome, /^cryptometrics: formula 1: unexpected end of formula/);
    expect(loaded).toBe(false);
  });

  it("never shows a stack trace for malformed formulas, whatever the text", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 30 }), async (text) => {
        const outcome = await runCli(["eval", ...BASE, "--format", "json", text]);
        expect([0, 1, 2]).toContain(outcome.code);
        expect(outcome.stderr).not.toMatch(/\n\s+at /);
        expect(outcome.stderr.split("\n").filter(Boolean).length).toBeLessThanOrEqual(1);
        if (outcome.code === 2) expect(outcome.stdout).toBe("");
      }),
      { numRuns: 300 }
    );
  });
});

describe("other failures: one line, exit 1", () => {
  it("reports a broken build", async () => {
    const outcome = await runCli(["eval", ...BASE, "DOUBLE(1)"], {
      deps: {
        loadRegistry: () => {
          throw new SheetError(
            "broken-build",
            "functions metadata: cannot read x (run npm run build:node)"
          );
        },
      },
    });
    expect(outcome).toMatchObject({
      code: 1,
      stdout: "",
      stderr: "cryptometrics: functions metadata: cannot read x (run npm run build:node)\n",
    });
  });

  it("reports an unexpected failure of a layer below without its stack", async () => {
    const outcome = await runCli(["eval", ...BASE, "DOUBLE(1)"], {
      deps: {
        configureRuntime: () => {
          throw new TypeError(
            "cannot read properties of undefined\n    at somewhere (file.js:1:1)"
          );
        },
      },
    });
    expect(outcome).toMatchObject({
      code: 1,
      stdout: "",
      stderr: "cryptometrics: internal error: cannot read properties of undefined\n",
    });
  });
});
