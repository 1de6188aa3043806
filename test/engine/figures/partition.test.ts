import { DayParts, unaskedMembers } from "../../../src/engine/figures/partition";
import { fetchGroup, type SeriesClient } from "../../../src/engine/series-fetch";
import { DEFAULT_VARIANT, seriesKey } from "../../../src/engine/series-types";

/** The values pushed per day, and the notes, for parts added as [members, value]. */
function settle(parts: Array<[Record<string, string>, number | null]>) {
  const d = new DayParts();
  for (const [members, value] of parts) d.add("aave", "", 19737, members, value);
  const pushed: Array<number | null> = [];
  const notes = d.resolve(
    (_id, _dim, _day, value) => pushed.push(value),
    () => "aave fees on 2024-01-15"
  );
  return { pushed, notes: notes.get("aave") ?? [] };
}

describe("a day's rows split by a member nobody asked for", () => {
  it("adds up parts with distinct member values", () => {
    expect(
      settle([
        [{ chain: "base" }, 2],
        [{ chain: "ethereum" }, 3],
      ])
    ).toEqual({
      pushed: [5],
      notes: [],
    });
    expect(
      settle([
        [{ chain: "ethereum", version: "v2" }, 1],
        [{ chain: "ethereum", version: "v3" }, 2],
        [{ chain: "base", version: "v3" }, 4],
      ]).pushed
    ).toEqual([7]);
  });

  it("takes a total that its parts add up to, and a total whose parts are empty", () => {
    expect(
      settle([
        [{}, 5],
        [{ chain: "base" }, 2],
        [{ chain: "ethereum" }, 3],
      ]).pushed
    ).toEqual([5]);
    expect(
      settle([
        [{}, 110],
        [{ chain: "base" }, null],
        [{ chain: "ethereum" }, null],
      ]).pushed
    ).toEqual([110]);
  });

  it("leaves the day empty, saying why, when the total and the parts cannot be told apart", () => {
    const mixed = settle([
      [{}, 9],
      [{ chain: "base" }, 2],
      [{ chain: "ethereum" }, 3],
    ]);
    expect(mixed.pushed).toEqual([null]);
    expect(mixed.notes).toEqual([
      "aave fees on 2024-01-15: sent both as a total (9) and split by chain into parts that add up to 5: the total cannot be told from the parts; left empty",
    ]);
    const gap = settle([
      [{ version: "v2" }, 2],
      [{ version: "v3" }, null],
    ]);
    expect(gap.pushed).toEqual([null]);
    expect(gap.notes[0]).toMatch(/split by version with a part that has no value/);
  });

  it("refuses the same members twice on one day: the client gives rows distinct, and says which disagreed", () => {
    expect(() =>
      settle([
        [{}, 5],
        [{}, 6],
      ])
    ).toThrow(
      /aave on day 19737: the same row twice after the client made rows distinct \(no member\)/
    );
    expect(() =>
      settle([
        [{ chain: "base" }, 2],
        [{ chain: "base" }, 2],
        [{ chain: "ethereum" }, 3],
      ])
    ).toThrow(/the same row twice .*"chain":"base"/);
    // What the client passes on for a part sent twice with two values: one row, no value. The day's sum is
    // then unknown, and said so.
    const conflicted = settle([
      [{ chain: "base" }, null],
      [{ chain: "ethereum" }, 3],
    ]);
    expect(conflicted.pushed).toEqual([null]);
    expect(conflicted.notes[0]).toMatch(/split by chain with a part that has no value/);
  });

  it("keeps the member asked for as the dimension, not as a part", () => {
    expect(unaskedMembers({ chain: "base", version: "v3", productId: undefined }, "chain")).toEqual(
      { version: "v3" }
    );
    expect(unaskedMembers({ chain: "base" })).toEqual({ chain: "base" });
  });
});

describe("a day's value from its rows, case by case", () => {
  it("takes a lone total row as it is, with or without a value", () => {
    expect(settle([[{}, 42]])).toEqual({ pushed: [42], notes: [] });
    expect(settle([[{}, null]])).toEqual({ pushed: [null], notes: [] });
  });

  it("gives no value, and no note, for parts that are all empty and no total", () => {
    expect(
      settle([
        [{ chain: "base" }, null],
        [{ chain: "ethereum" }, null],
      ])
    ).toEqual({ pushed: [null], notes: [] });
  });

  it("adds up complete parts beside a total row without a value", () => {
    expect(
      settle([
        [{}, null],
        [{ chain: "base" }, 2.25],
        [{ chain: "ethereum" }, 3.5],
      ])
    ).toEqual({ pushed: [5.75], notes: [] });
  });

  it("refuses a total beside parts of which one is empty and another is not", () => {
    const out = settle([
      [{}, 5],
      [{ chain: "base" }, 5],
      [{ chain: "ethereum" }, null],
    ]);
    expect(out.pushed).toEqual([null]);
    expect(out.notes).toEqual([
      "aave fees on 2024-01-15: sent both as a total (5) and split by chain into parts that include one without a value: the total cannot be told from the parts; left empty",
    ]);
  });

  it("takes a total whose parts add up to it within floating point's noise, relative to the figure", () => {
    // A trillion: parts 1 apart from the total are within 1e-9 of it; 2,000 apart are not.
    expect(
      settle([
        [{}, 1e12],
        [{ chain: "base" }, 4e11],
        [{ chain: "ethereum" }, 6e11 + 1],
      ]).pushed
    ).toEqual([1e12]);
    expect(
      settle([
        [{}, 1e12],
        [{ chain: "base" }, 4e11],
        [{ chain: "ethereum" }, 6e11 + 2000],
      ]).pushed
    ).toEqual([null]);
    // Below 1, the tolerance is 1e-9 itself, not a share of the figure.
    expect(
      settle([
        [{}, 0.5],
        [{ chain: "base" }, 0.25],
        [{ chain: "ethereum" }, 0.2500001],
      ]).pushed
    ).toEqual([null]);
  });

  it("names the members the parts are split by, as the interface spells them", () => {
    const out = settle([
      [{}, 9],
      [{ productId: "v3-pool", businessLine: "lending" }, 2],
      [{ productId: "v2-pool", businessLine: "lending" }, 3],
    ]);
    expect(out.notes[0]).toMatch(
      /split by product_id and business_line into parts that add up to 5/
    );
  });

  it("lists no key for a member the row does not carry", () => {
    expect(Object.keys(unaskedMembers({ chain: "base", version: undefined }))).toEqual(["chain"]);
    expect(Object.keys(unaskedMembers({ chain: "base", version: "v3" }, "chain"))).toEqual([
      "version",
    ]);
  });

  it("notes each day that cannot be told apart, up to five per series, and pushes every day", () => {
    const d = new DayParts();
    for (let day = 1; day <= 7; day++) {
      d.add("aave", "", day, {}, 9);
      d.add("aave", "", day, { chain: "base" }, 1);
    }
    d.add("comp", "", 1, {}, 9);
    d.add("comp", "", 1, { chain: "base" }, 1);
    const pushed: Array<[string, number, number | null]> = [];
    const flagged: number[] = [];
    const notes = d.resolve(
      (id, _dim, day, value) => pushed.push([id, day, value]),
      (id, _dim, day) => `${id} day ${day}`,
      (_id, _dim, day) => flagged.push(day)
    );
    expect(pushed).toHaveLength(8);
    expect(pushed.every(([, , v]) => v === null)).toBe(true);
    expect(flagged).toEqual([1, 2, 3, 4, 5, 6, 7, 1]);
    expect(notes.get("aave")?.map((n) => n.split(":")[0])).toEqual([
      "aave day 1",
      "aave day 2",
      "aave day 3",
      "aave day 4",
      "aave day 5",
    ]);
    expect(notes.get("comp")).toHaveLength(1);
  });
});

describe("rows of an asked breakdown that do not say which product they are", () => {
  it("are no figure at all, with the reason, never one product's value as the whole", async () => {
    const row = (fees: number) => ({
      date: "2024-01-01",
      projectId: "aave",
      projectName: "Aave",
      values: { fees },
    });
    const client = {
      getProjectMetrics: () =>
        Promise.resolve({
          data: [row(1), row(2), row(3)],
          errors: [],
          meta: { requests: 1, simulated: true, redirects: [] },
        }),
    } as unknown as SeriesClient;
    const query = {
      projectId: "aave",
      metricId: "fees",
      start: 19723,
      end: 19723,
      variant: { ...DEFAULT_VARIANT, breakdown: "product_id" as const },
    };
    const { results } = await fetchGroup(
      client,
      {
        form: "project",
        projectId: "aave",
        productId: "",
        metricId: "",
        members: ["fees"],
        start: 19723,
        end: 19723,
        variant: query.variant,
        queries: [query],
      },
      new AbortController().signal
    );
    const result = results.get(seriesKey(query))!;
    expect(result.issue).toEqual({
      code: "unattributable",
      message:
        "the service broke aave down by product in 3 rows that do not say which product they are: no figure is shown rather than one product's as the whole",
    });
  });
});
