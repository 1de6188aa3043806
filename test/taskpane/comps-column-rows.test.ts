/**
 * The builder's COMPS columns editor, as a model: rows → the text COMPS parses (checked with COMPS's own
 * parser), text → rows, the rows it starts at, and what keeps rows from being written.
 */
import { parseColumns, type CompsColumn, type CompsTerm } from "../../src/sheet/comps-columns";
import { OPTION_CHOICES } from "../../src/functions/options";
import { parseFormula } from "../../src/sheet/formula";
import {
  columnRows,
  columnText,
  COMPS_WINDOW_CHOICES,
  defaultColumnRows,
  MAX_COMPS_COLUMNS,
  rowProblems,
  windowWords,
  type CompsColumnRow,
  type CompsTermRow,
} from "../../src/taskpane/model/comps-column-rows";
import {
  build,
  emptyState,
  withValue,
  type BuilderState,
} from "../../src/taskpane/model/formula-builder";
import { SECTOR_COMPS_COLUMNS } from "../../src/taskpane/model/sector-comps";

const t = (metric: string, window = ""): CompsTermRow => ({ metric, window });
const PS: CompsColumnRow = { term: t("market_cap_fully_diluted"), divisor: t("revenue", "ttm") };

function comps(rows: readonly CompsColumnRow[]): BuilderState {
  return withValue(
    withValue(emptyState("COMPS"), "projects", { kind: "ids", ids: ["aave", "uniswap"] }),
    "columns",
    { kind: "columns", rows }
  );
}

/** The column texts of a built COMPS formula, read back as Excel reads its arguments. */
function columnTextsOf(formula: string): string[] {
  const arg = parseFormula(formula).args[1];
  if (arg.kind === "string") return [arg.value];
  if (arg.kind === "array")
    return arg.rows.map(([cell]) => {
      if (cell.kind !== "string") throw new Error(`a column that is not a text: ${cell.kind}`);
      return cell.value;
    });
  throw new Error(`unexpected columns argument ${JSON.stringify(arg)}`);
}

/** A parsed column back in the rows' terms: metric and window text of each side. */
const asRow = (c: CompsColumn): CompsColumnRow => {
  const term = (x: CompsTerm): CompsTermRow => ({ metric: x.metric, window: x.window?.text ?? "" });
  return c.denominator
    ? { term: term(c.numerator), divisor: term(c.denominator) }
    : { term: term(c.numerator) };
};

test("the builder writes P/S on TTM revenue exactly as COMPS parses it", () => {
  const built = build(comps([PS, { term: t("fees", "30d") }]));
  if (!built.ok) throw new Error(built.problems.join(" "));
  expect(built.formula).toBe(
    '=CRYPTO.COMPS("aave,uniswap","market_cap_fully_diluted/revenue:ttm,fees:30d")'
  );
  expect(parseColumns(columnTextsOf(built.formula))).toEqual([
    {
      label: "market_cap_fully_diluted/revenue:ttm",
      numerator: { metric: "market_cap_fully_diluted" },
      denominator: { metric: "revenue", window: { kind: "months", n: 12, text: "ttm" } },
    },
    {
      label: "fees:30d",
      numerator: { metric: "fees", window: { kind: "days", n: 30, text: "30d" } },
    },
  ]);
});

test("every window preset, alone and on either side of a ratio, reads back as the row that wrote it", () => {
  const windows = ["", ...COMPS_WINDOW_CHOICES];
  const rows: CompsColumnRow[] = windows.flatMap((a) => [
    { term: t("revenue", a) },
    ...windows.map((b) => ({ term: t("market_cap_fully_diluted", a), divisor: t("fees", b) })),
  ]);
  // More columns than one formula takes: checked in panels COMPS accepts.
  for (let i = 0; i < rows.length; i += MAX_COMPS_COLUMNS) {
    const panel = rows.slice(i, i + MAX_COMPS_COLUMNS);
    const built = build(comps(panel));
    if (!built.ok) throw new Error(built.problems.join(" "));
    const parsed = parseColumns(columnTextsOf(built.formula));
    expect(parsed.map(asRow)).toEqual(panel);
    expect(parsed.map((c) => c.label)).toEqual(panel.map(columnText));
  }
});

test("the window presets are the option table's own", () => {
  expect(COMPS_WINDOW_CHOICES).toBe(OPTION_CHOICES.window);
  expect(COMPS_WINDOW_CHOICES).toContain("ttm");
  expect(windowWords("ttm")).toBe("ttm: trailing twelve months");
  expect(windowWords("30d")).toBe("30d: last 30 days");
  expect(windowWords("6m")).toBe("6m: last 6 months");
});

test("columns past 255 characters are written as a column of texts, which COMPS reads the same", () => {
  const rows = Array.from({ length: 12 }, (): CompsColumnRow => PS);
  const built = build(comps(rows));
  if (!built.ok) throw new Error(built.problems.join(" "));
  const arg = parseFormula(built.formula).args[1];
  expect(arg.kind).toBe("array");
  const texts = columnTextsOf(built.formula);
  expect(texts).toEqual(rows.map(() => "market_cap_fully_diluted/revenue:ttm"));
  expect(texts.every((x) => x.length <= 255)).toBe(true);
  expect(parseColumns(texts)).toHaveLength(12);
});

test("a formula's columns read back into rows, windows COMPS takes beyond the presets included", () => {
  expect(columnRows(["market_cap_fully_diluted/revenue:TTM, fees:7d", "tvl"])).toEqual([
    PS,
    { term: t("fees", "7d") },
    { term: t("tvl") },
  ]);
  expect(() => columnRows(["a/b/c"])).toThrow(/divides more than once/);
  expect(() => columnRows(["fees:week"])).toThrow(/is not a window/);
});

test("the rows start at Insert comps's columns, without those whose metrics the catalogue lacks", () => {
  const all = defaultColumnRows(() => true);
  expect(all.map(columnText)).toEqual(SECTOR_COMPS_COLUMNS.map((c) => c.column));
  expect(all).toEqual([
    { term: t("market_cap_fully_diluted") },
    { term: t("revenue", "ttm") },
    { term: t("fees", "ttm") },
    PS,
  ]);
  expect(defaultColumnRows((id) => id !== "revenue").map(columnText)).toEqual([
    "market_cap_fully_diluted",
    "fees:ttm",
  ]);
  expect(defaultColumnRows(() => false)).toEqual([]);
});

test("a row without its metric, or with a metric COMPS would misread, is a problem named by its column", () => {
  const rows: CompsColumnRow[] = [
    PS,
    { term: t("") },
    { term: t("fees"), divisor: t("", "ttm") },
    { term: t("odd:id") },
  ];
  expect(rowProblems(rows)).toEqual([
    { row: 1, part: "metric", message: "Column 2: choose a metric.", unchosen: true },
    {
      row: 2,
      part: "divisor",
      message: "Column 3: choose the metric to divide by.",
      unchosen: true,
    },
    {
      row: 3,
      part: "metric",
      message: 'Column 4: the metric "odd:id" cannot be written as a COMPS column.',
    },
  ]);
  const built = build(comps(rows));
  expect(built.ok).toBe(false);
  expect(build(comps(rows))).toEqual({
    ok: false,
    problems: ['Column 4: the metric "odd:id" cannot be written as a COMPS column.'],
    missing: ["Column 2: choose a metric.", "Column 3: choose the metric to divide by."],
  });
  expect(build(comps([]))).toEqual({ ok: false, problems: [], missing: ["Add a column."] });
  const tooMany = build(comps(Array.from({ length: MAX_COMPS_COLUMNS + 1 }, () => PS)));
  expect(tooMany).toEqual({
    ok: false,
    problems: [`COMPS takes at most ${MAX_COMPS_COLUMNS} columns, not ${MAX_COMPS_COLUMNS + 1}.`],
    missing: [],
  });
});
