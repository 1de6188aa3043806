import { optionalDate, requiredText } from "../../src/functions/coerce";
import { checkRange, idList, uniqueIds } from "../../src/functions/coerce-lists";
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

  it("takes ids from one value, a comma list or a range, skipping blanks, one per position", () => {
    expect(
      idList([["aave, uniswap"], [""], ["AAVE"], [null], ["lido-finance"]], "project")
    ).toEqual(["aave", "uniswap", "AAVE", "lido-finance"]);
    expect(idList("0x", "project")).toEqual(["0x"]);
    expect(
      idList(
        [
          ["a", "b"],
          ["c", null],
        ],
        "project"
      )
    ).toEqual(["a", "b", "c"]);
    fails(
      () =>
        idList(
          Array.from({ length: 501 }, (_, i) => [`p${i}`]),
          "project"
        ),
      "project lists more than 500 ids; at most 500 fit in one formula"
    );
  });

  it("de-duplicates ids for requests with a set, case-insensitively, first spelling kept", () => {
    expect(uniqueIds(["aave", "uniswap", "AAVE", "lido", "Uniswap"])).toEqual([
      "aave",
      "uniswap",
      "lido",
    ]);
    const many = Array.from({ length: 200_000 }, (_, i) => `p${i % 1000}`);
    expect(uniqueIds(many)).toHaveLength(1000);
  });

  it("refuses a 1,000,000-cell range while reading it, without de-duplicating a million ids", () => {
    // A whole column (A:A): a million cells, every one an id. The limit stops the reading at id 501.
    // Work counted, not timed: the rows the reading touches, through a proxy of the column.
    const column = Array.from({ length: 1_000_000 }, (_, i) => [`project-${i}`]);
    let rowsRead = 0;
    const counted = new Proxy(column, {
      get(target, key, receiver) {
        if (typeof key === "string" && /^\d+$/.test(key)) rowsRead++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    fails(() => idList(counted, "project"), "at most 500");
    // Id 501 is refused as it is read: 501 rows, not a million (nor a pass over them all afterwards).
    expect(rowsRead).toBe(501);
    // The same column with the same id everywhere is no cheaper to accept: still refused at 501.
    fails(
      () =>
        idList(
          Array.from({ length: 1_000_000 }, () => ["aave"]),
          "project"
        ),
      "at most 500"
    );
    // Blank cells cost nothing: a column of blanks with three ids is three ids.
    const sparse: unknown[][] = Array.from({ length: 1_000_000 }, () => [null]);
    sparse[10] = ["aave"];
    sparse[500_000] = ["uniswap"];
    sparse[999_999] = ["aave"];
    expect(idList(sparse, "project")).toEqual(["aave", "uniswap", "aave"]);
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
