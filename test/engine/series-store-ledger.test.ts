/**
 * The series cache tells the ledger what each answer changes of what it held, and keeps when each value it
 * holds was first seen, through a refresh and through the saved cache (another session).
 */
import { dayNumber } from "../../src/client/data/days";
import { DEFAULT_CACHE_POLICY } from "../../src/cache/policy";
import { listRuns, type Change, type SeriesRef } from "../../src/engine/ledger";
import { seriesCodec } from "../../src/engine/saved-entries";
import type { DayPoint } from "../../src/engine/figures/series-ops";
import { SeriesStore } from "../../src/engine/series-store";
import { MIDDAY_2026 } from "../support/clock";

const d = dayNumber;
const HOUR = 3_600_000;
const series: SeriesRef = { projectId: "aave", productId: "", metricId: "fees", filter: "" };
const KEY = "project|aave||fees|b||||";
const answer = (values: Array<[string, number | null]>) =>
  new Map<string, DayPoint[]>([["", values.map(([day, value]) => ({ day: d(day), value }))]]);

function setup() {
  let now = MIDDAY_2026;
  const changes: Change[] = [];
  const make = () =>
    new SeriesStore(
      DEFAULT_CACHE_POLICY,
      () => now,
      undefined,
      (c) => {
        for (const x of c) changes.push(x);
      }
    );
  return { store: make(), make, changes, at: (t: number) => (now = t) };
}

describe("the series cache and the ledger", () => {
  it("records a day sent again with another value, and one no longer sent, with when each was first seen", () => {
    const { store, changes, at } = setup();
    const [from, to] = [d("2024-01-01"), d("2024-01-03")];
    store.write(
      KEY,
      from,
      to,
      answer([
        ["2024-01-01", 1],
        ["2024-01-02", 2],
        ["2024-01-03", 3],
      ]),
      "first",
      [],
      series
    );
    expect(changes).toEqual([]);
    at(MIDDAY_2026 + 2 * HOUR);
    store.refresh();
    store.write(
      KEY,
      from,
      to,
      answer([
        ["2024-01-01", 1],
        ["2024-01-02", 2.5],
      ]),
      "second",
      [],
      series
    );
    expect(
      changes.map((c) => [c.day, c.before, c.after, c.beforeSeenAt, c.seenAt, c.request])
    ).toEqual([
      [d("2024-01-02"), 2, 2.5, MIDDAY_2026, MIDDAY_2026 + 2 * HOUR, "second"],
      [d("2024-01-03"), 3, null, MIDDAY_2026, MIDDAY_2026 + 2 * HOUR, "second"],
    ]);
    // The unchanged day keeps its first sighting; the changed one is first seen at the refresh.
    const held = store.fresh(KEY, from, to)!;
    expect(listRuns(held.seen!.get("")!)).toEqual([
      { from: d("2024-01-01"), to: d("2024-01-01"), at: MIDDAY_2026 },
      { from: d("2024-01-02"), to: d("2024-01-02"), at: MIDDAY_2026 + 2 * HOUR },
    ]);
  });

  it("keeps the first sightings in the saved cache, so a later session compares against them", () => {
    const { store, make, changes, at } = setup();
    const day = d("2024-01-01");
    store.write(KEY, day, day, answer([["2024-01-01", 1]]), "first", [], series);
    const saved = JSON.parse(
      JSON.stringify(seriesCodec.encode(store.exportEntry(KEY)!))
    ) as unknown;
    const later = make();
    later.restore(KEY, seriesCodec.decode(saved)!);
    at(MIDDAY_2026 + 30 * HOUR);
    later.write(KEY, day, day, answer([["2024-01-01", 4]]), "later", [], series);
    expect(changes.map((c) => [c.before, c.after, c.beforeSeenAt])).toEqual([[1, 4, MIDDAY_2026]]);
    // A damaged list of sightings is refused with the entry, as any damaged entry is.
    const damaged = JSON.parse(JSON.stringify(saved)) as { current: { seen: unknown } };
    damaged.current.seen = [["", [5, 1, 0]]];
    expect(seriesCodec.decode(damaged)).toBeUndefined();
  });

  it("compares nothing and keeps no sighting without a ledger", () => {
    const store = new SeriesStore(DEFAULT_CACHE_POLICY, () => MIDDAY_2026);
    const day = d("2024-01-01");
    store.write(KEY, day, day, answer([["2024-01-01", 1]]), "first", [], series);
    expect(store.fresh(KEY, day, day)!.seen).toBeUndefined();
  });
});
