/** The CLI calls the functions as Excel's custom-functions runtime does; these tests go through `run`. */
import { callLog, cancelled } from "../fixtures/cli/functions";
import { BASE, evalJson, resetFixtureLog, runCli } from "../cli/harness";

beforeEach(resetFixtureLog);

describe("calling functions like Excel", () => {
  it("pads omitted and missing optional arguments with null and passes the invocation last", async () => {
    const { results } = await evalJson('ECHO("a")', 'ECHO("b",,3)');
    expect(results).toEqual([[["a"]], [["b"]]]);
    expect(callLog.map((c) => c.args)).toEqual([
      ["a", null, null, { functionName: "ECHO" }],
      ["b", null, 3, { functionName: "ECHO" }],
    ]);
  });

  it("gives the cell address only to functions that ask for it: Sheet1!A<n> for formula n", async () => {
    const { results } = await evalJson("ECHO(1)", "WHERE()", "WHERE()");
    expect(results).toEqual([[[1]], [["Sheet1!A2"]], [["Sheet1!A3"]]]);
    expect(callLog[0].args[3]).not.toHaveProperty("address");
  });

  it("passes a matrix parameter a 2D array: a scalar as [[v]], a row as one row, a column as rows", async () => {
    const { results } = await evalJson("TOTAL(5)", "TOTAL({1,2})", "TOTAL({1;2},10)");
    expect(results).toEqual([[[5]], [[3]], [[30]]]);
    expect(callLog.map((c) => c.args)).toEqual([
      [[[5]], null],
      [[[1, 2]], null],
      [[[1], [2]], 10],
    ]);
  });

  it("converts arguments to the declared parameter type as Excel does", async () => {
    const { code, results } = await evalJson(
      'DOUBLE("12")',
      "DOUBLE(TRUE)",
      'DOUBLE("2024-01-01")',
      "LABEL(12)",
      "NEGATE(0)"
    );
    expect(code).toBe(0);
    expect(results).toEqual([[[24]], [[2]], [[90584]], [["12:2"]], [[true]]]);
  });

  it("answers an argument Excel cannot convert with #VALUE!, without calling the function", async () => {
    const { code, results } = await evalJson('DOUBLE("abc")');
    expect(code).toBe(1);
    expect(results).toEqual([
      [[{ error: "#VALUE!", message: "argument 'value' of CRYPTO.DOUBLE must be a number" }]],
    ]);
    expect(callLog).toEqual([]);
  });

  it("lifts a scalar parameter given an array: one call per element, results in the array's shape", async () => {
    const { code, results } = await evalJson("DOUBLE({1,2;3,4})");
    expect(code).toBe(0);
    expect(results).toEqual([
      [
        [2, 4],
        [6, 8],
      ],
    ]);
    expect(callLog.map((c) => c.args[0])).toEqual([1, 2, 3, 4]);
  });

  it("broadcasts a row against a column, and a scalar against both", async () => {
    const { results } = await evalJson('ECHO({"a","b"},{1;2;3},"same")');
    expect(results).toEqual([
      [
        ["a", "b"],
        ["a", "b"],
        ["a", "b"],
      ],
    ]);
    expect(callLog.map((c) => c.args.slice(0, 3))).toEqual([
      ["a", 1, "same"],
      ["b", 1, "same"],
      ["a", 2, "same"],
      ["b", 2, "same"],
      ["a", 3, "same"],
      ["b", 3, "same"],
    ]);
  });

  it("fills positions beyond a smaller array's edge with #N/A, as Excel does", async () => {
    const { results } = await evalJson('ECHO({"a","b","c"},{1,2})');
    expect(results).toEqual([
      [["a", "b", { error: "#N/A", message: "array arguments of different sizes" }]],
    ]);
  });

  it("shows #VALUE! where an element of a lifted call returns an array", async () => {
    const { code, results } = await evalJson("SERIES({1,2})");
    expect(code).toBe(0);
    expect(results).toEqual([
      [[1, { error: "#VALUE!", message: "array result in a lifted call" }]],
    ]);
  });

  it("converts each element of a lifted call on its own", async () => {
    const { results } = await evalJson('DOUBLE({"1","x"})');
    expect(results).toEqual([
      [[2, { error: "#VALUE!", message: "argument 'value' of CRYPTO.DOUBLE must be a number" }]],
    ]);
  });

  it("starts every formula, and every lifted element, before awaiting any: one recalculation", async () => {
    const { results } = await evalJson("BATCHED(1)", "BATCHED({2,3})", 'BATCHED("4")');
    expect(results).toEqual([[[4]], [[4, 4]], [[4]]]);
  });

  it("prints results in input order whatever order they finish in", async () => {
    const { results } = await evalJson('LATER("first")', "DOUBLE(1)", 'LATER("third")');
    expect(results).toEqual([[["first"]], [[2]], [["third"]]]);
  });

  it("takes a stream's first value and then tells the stream to stop", async () => {
    const { results } = await evalJson("TICKER(5)");
    expect(results).toEqual([[[5]]]);
    expect(cancelled).toEqual(["TICKER 5"]);
  });

  it("stops a stream whose first value comes later, too", async () => {
    const { results } = await evalJson("TICKER_LATER(7)");
    expect(results).toEqual([[[7]]]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(cancelled).toEqual(["TICKER_LATER 7"]);
  });

  it("does not cancel calls that have already finished", async () => {
    const controller = new AbortController();
    const pending = runCli(["eval", ...BASE, 'HANG("x")', "TICKER(1)"], {
      signal: controller.signal,
    });
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    await pending;
    expect(cancelled).toEqual(["TICKER 1", "x"]);
  });

  it("cancels running cancelable calls when interrupted, and exits 130", async () => {
    const controller = new AbortController();
    const pending = runCli(["eval", ...BASE, 'HANG("x")', 'HANG("y")'], {
      signal: controller.signal,
    });
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    const { code, stdout, stderr } = await pending;
    expect(code).toBe(130);
    expect(cancelled.sort()).toEqual(["x", "y"]);
    expect(stdout).toBe("");
    expect(stderr).toBe("cryptometrics: interrupted\n");
  });
});

describe("computing expressions in arguments like Excel", () => {
  /** Noon UTC on 2024-03-31 (serial 45382), in a time zone at UTC; counts how often it is read. */
  function clock() {
    const read = { count: 0 };
    const fn = () => {
      read.count += 1;
      return { now: Date.UTC(2024, 2, 31, 12), utcOffsetMinutes: 0 };
    };
    return { read, fn };
  }

  it("passes the function what DATE, TODAY, arithmetic and & compute", async () => {
    const { fn } = clock();
    const outcome = await runCli(
      ["eval", ...BASE, "--format", "json", 'ECHO(DATE(2024,3,31),"p="&"q",TODAY()-1)'],
      { deps: { clock: fn } }
    );
    expect(outcome.code).toBe(0);
    expect(callLog.map((c) => c.args.slice(0, 3))).toEqual([[45382, "p=q", 45381]]);
    // The printed formula is the one written, not its computed values.
    expect(JSON.parse(outcome.stdout)).toEqual([[[45382]]]);
  });

  it("reads the clock once for a whole recalculation: every TODAY() agrees", async () => {
    const { read, fn } = clock();
    const outcome = await runCli(
      ["eval", ...BASE, "--format", "json", "ECHO(TODAY())", "ECHO(TODAY()-1)", "ECHO(NOW())"],
      { deps: { clock: fn } }
    );
    expect(JSON.parse(outcome.stdout)).toEqual([[[45382]], [[45381]], [[45382.5]]]);
    expect(read.count).toBe(1);
  });

  it("makes an expression's error the formula's result, without calling the function", async () => {
    const outcome = await runCli(["eval", ...BASE, "--format", "json", "ECHO(1/0)", 'ECHO("a"+1)']);
    expect(outcome.code).toBe(1);
    expect(JSON.parse(outcome.stdout)).toEqual([
      [[{ error: "#DIV/0!", message: "division by zero" }]],
      [[{ error: "#VALUE!", message: `'+' needs a number or a date, got "a"` }]],
    ]);
    expect(callLog).toEqual([]);
  });

  it("prints the formula with its expressions as written", async () => {
    const outcome = await runCli(["eval", ...BASE, "echo( today() - 365 , date(2024,1,1)+30 )"]);
    expect(outcome.stdout.split("\n")[0]).toBe("=CRYPTO.ECHO(TODAY()-365,DATE(2024,1,1)+30)");
  });
});

describe("reading results like Excel", () => {
  it("reads a formatted date number as a date and keeps other cells as they are", async () => {
    const { code, results } = await evalJson("MIXED()");
    expect(code).toBe(0);
    expect(results[0]).toEqual([
      ["date", "value", "note", "ok"],
      ["2024-01-01", 1234.5, "plain", true],
      [
        "2024-01-02",
        { error: "#N/A", message: "no data for 2024-01-02" },
        'has "quotes", commas',
        false,
      ],
      ["2024-01-03", -0.000123456789, null, null],
    ]);
  });

  it("keeps a thrown CustomFunctions.Error's code and message as the result, and exits 1", async () => {
    const { code, results } = await evalJson(
      'FAIL("notAvailable","unknown project \'foo\'")',
      "DOUBLE(1)"
    );
    expect(code).toBe(1);
    expect(results).toEqual([[[{ error: "#N/A", message: "unknown project 'foo'" }]], [[2]]]);
  });

  it("shows an unhandled exception as #VALUE! naming the function, never the exception's text", async () => {
    const outcome = await runCli(["eval", ...BASE, "CRASH()"]);
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe("=CRYPTO.CRASH()\n#VALUE! unhandled error in CRYPTO.CRASH\n");
    expect(outcome.stdout + outcome.stderr).not.toContain("boom");
  });

  it.each([
    ["ragged", "function returned rows of different lengths"],
    ["empty", "function returned an empty array"],
    ["object", "unsupported cell value (an object)"],
  ])("answers a %s result with #VALUE!: %s", async (kind, message) => {
    const { code, results } = await evalJson(`WEIRD("${kind}")`);
    expect(code).toBe(1);
    expect(results).toEqual([[[{ error: "#VALUE!", message }]]]);
  });

  it("shows NaN as #NUM! and an out-of-range date as its number", async () => {
    const { results } = await evalJson('WEIRD("nan")', 'WEIRD("serial0")', 'WEIRD("percent")');
    expect(results).toEqual([
      [[{ error: "#NUM!", message: "not a finite number" }]],
      [[0]],
      [[0.25]],
    ]);
  });
});
