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
    expect(JSON.parse(formatResults("json", results()))[1]).toEqual([
      [{ error: "#N/A", message: "unknown project 'foo'" }],
    ]);
  });

  it("table: formula headers, aligned columns with numbers on the right, messages below", () => {
    expect(formatResults("table", results())).toBe(expected("mixed.table.txt"));
  });

  it("csv: CRLF records, a blank line between results, messages as # lines", () => {
    expect(formatResults("csv", results())).toBe(expected("mixed.csv"));
  });

  it("table keeps multi-line text on one line so the columns stay aligned", () => {
    expect(formatResults("table", [{ formula: "=X()", grid: [[s("a\nb"), n(1)]] }])).toBe(
      "=X()\na b  1\n"
    );
  });
});
