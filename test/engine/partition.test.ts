import { DayParts, unaskedMembers } from "../../src/engine/partition";
import { fetchGroup, type SeriesClient } from "../../src/engine/series-fetch";
import { DEFAULT_VARIANT, seriesKey } from "../../src/engine/series-types";

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
