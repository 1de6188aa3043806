import { checkRange, idList, optionalDate, requiredText } from "../../src/functions/coerce";
import { parseOptions, DEFAULT_OPTIONS } from "../../src/functions/options";
import { dayNumber } from "../../src/client/data/days";
import { FunctionError } from "../../src/functions/result";

const fails = (fn: () => unknown, message: string | RegExp) => {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(FunctionError);
  expect((error as FunctionError).code).toBe("value");
  expect((error as FunctionError).message).toMatch(message);
};

describe("argument coercion", () => {
  it("reads dates from serials and ISO text, and says what is expected otherwise", () => {
    expect(optionalDate(45292, "start")).toBe(dayNumber("2024-01-01"));
    expect(optionalDate(" 2024-01-01 ", "start")).toBe(dayNumber("2024-01-01"));
    expect(optionalDate(null, "start")).toBeUndefined();
    expect(optionalDate("", "start")).toBeUndefined();
    expect(optionalDate([[45292]], "start")).toBe(dayNumber("2024-01-01"));
    fails(
      () => optionalDate("2024-02-30", "start"),
      'start "2024-02-30" is not a date: use a date cell or text like "2024-01-31"'
    );
    fails(() => optionalDate(true, "end"), "end must be a date, got true");
    fails(() => optionalDate([[1, 2]], "end"), "end must be one date, not a range");
  });

  it("takes ids from one value, a comma list or a range, skipping blanks and repeats", () => {
    expect(
      idList([["aave, uniswap"], [""], ["AAVE"], [null], ["lido-finance"]], "project")
    ).toEqual(["aave", "uniswap", "lido-finance"]);
    expect(idList("0x", "project")).toEqual(["0x"]);
    fails(
      () =>
        idList(
          Array.from({ length: 501 }, (_, i) => [`p${i}`]),
          "project"
        ),
      "at most 500"
    );
  });

  it("refuses text that is missing, huge, or not text", () => {
    fails(() => requiredText(null, "project"), "project is missing");
    fails(() => requiredText("x".repeat(10_001), "project"), "too long");
    fails(() => requiredText(false, "metric"), "metric must be text, got false");
    fails(
      () => requiredText([["a", "b"]], "metric"),
      "metric must be one value, not a range of 2 cells"
    );
    expect(requiredText(42, "project")).toBe("42");
  });

  it("refuses a start after the end", () => {
    fails(
      () => checkRange(dayNumber("2024-02-01"), dayNumber("2024-01-01")),
      "start 2024-02-01 is after end 2024-01-01"
    );
    expect(() => checkRange(undefined, dayNumber("2024-01-01"))).not.toThrow();
  });
});

describe("options", () => {
  const all = [
    "order",
    "headers",
    "chains",
    "sectors",
    "period",
    "agg",
    "fill",
    "bridged",
  ] as const;

  it("parses key=value pairs case-insensitively, ignoring spaces and empty pairs", () => {
    const o = parseOptions(
      " ORDER=Desc ;; headers=2; chains=base, arbitrum ;BRIDGED=false; period=Month; agg=AVG; fill=previous;",
      "METRIC",
      all
    );
    expect(o).toMatchObject({
      order: "desc",
      headers: 2,
      chains: ["base", "arbitrum"],
      bridged: false,
      period: "month",
      agg: "avg",
      fill: "previous",
    });
  });

  it("defaults like STOCKHISTORY: oldest first, column headers, service defaults", () => {
    expect(parseOptions(null, "METRIC", all)).toEqual(DEFAULT_OPTIONS);
    expect(parseOptions([["order=desc"], ["headers=0"]], "METRIC", all)).toMatchObject({
      order: "desc",
      headers: 0,
    });
  });

  it.each([
    ["order", 'option "order" is not key=value'],
    [
      "colour=red",
      'unknown option "colour"; METRIC takes order, headers, chains, sectors, period, agg, fill, bridged',
    ],
    ["layout=long", 'option "layout" does not apply to METRIC'],
    ["order=sideways", 'option order="sideways" is not allowed; use order=asc|desc'],
    ["chains=", 'option "chains" needs a comma list of ids'],
    ["order=asc; order=desc", 'option "order" is given twice'],
  ])("refuses %j by name, listing what is allowed", (text, message) => {
    fails(() => parseOptions(text, "METRIC", all), message);
  });
});
