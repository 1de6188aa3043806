/**
 * COMPS's column syntax, read where both the functions and the taskpane's builder take it: a text that is no
 * column is the sheet model's error, and at the functions' edge COMPS's #VALUE! with the very same message.
 */
import { FunctionError } from "../../src/functions/result";
import { parseColumns as compsColumns } from "../../src/functions/impl/comps-columns";
import { MAX_COMPS_COLUMNS, parseColumns } from "../../src/sheet/comps-columns";
import { SheetError } from "../../src/sheet/errors";

const REFUSED: readonly (readonly string[])[] = [
  [""],
  [":ttm"],
  ["fees:week"],
  ["a/b/c"],
  ["P/S"],
  [Array.from({ length: MAX_COMPS_COLUMNS + 1 }, (_, i) => `m${i}`).join(",")],
];

function thrown(read: () => unknown): unknown {
  try {
    read();
  } catch (error) {
    return error;
  }
  throw new Error("nothing thrown");
}

test("a column text the syntax refuses is a SheetError of its own kind", () => {
  for (const texts of REFUSED) {
    const error = thrown(() => parseColumns(texts));
    expect(error).toBeInstanceOf(SheetError);
    expect((error as SheetError).kind).toBe("comps-column");
  }
});

test("COMPS turns each refusal into its #VALUE! with the same message", () => {
  for (const texts of REFUSED) {
    const sheet = thrown(() => parseColumns(texts)) as SheetError;
    const fn = thrown(() => compsColumns(texts));
    expect(fn).toBeInstanceOf(FunctionError);
    expect((fn as FunctionError).code).toBe("value");
    expect((fn as FunctionError).message).toBe(sheet.message);
  }
  expect((thrown(() => compsColumns(["a/b/c"])) as Error).message).toBe(
    'COMPS column "a/b/c" divides more than once; use one ratio a/b per column'
  );
  expect((thrown(() => compsColumns([" , "])) as Error).message).toBe(
    'COMPS needs at least one column, e.g. "revenue:ttm, market_cap_fully_diluted"'
  );
});

test("the columns it accepts read the same through COMPS", () => {
  const texts = ["market_cap_fully_diluted/revenue:ttm, fees:30d", "tvl"];
  expect(compsColumns(texts)).toEqual(parseColumns(texts));
  expect(parseColumns(texts).map((c) => c.label)).toEqual([
    "market_cap_fully_diluted/revenue:ttm",
    "fees:30d",
    "tvl",
  ]);
});
