import { RestatementLedger, type LedgerOptions } from "../../../src/engine/ledger/ledger";
import { MemoryLedgerStore } from "../../../src/engine/ledger/store";
import type { Change, SeriesRef } from "../../../src/engine/ledger/types";
import { MIDDAY_2026 } from "../../support/clock";

const DAY_MS = 86_400_000;
const aaveFees: SeriesRef = { projectId: "aave", productId: "", metricId: "fees", filter: "" };
const gmxRevenue: SeriesRef = { projectId: "gmx", productId: "", metricId: "revenue", filter: "" };

function change(
  series: SeriesRef,
  day: number,
  before: number,
  after: number,
  seenAt: number
): Change {
  return {
    series,
    dim: "",
    day,
    before,
    after,
    beforeSeenAt: seenAt - 3 * DAY_MS,
    seenAt,
    request: `GET /v2/metrics/${series.metricId} for 1 project`,
  };
}

function setup(extra: Partial<LedgerOptions> = {}) {
  let now = MIDDAY_2026;
  const notes: string[] = [];
  const store = new MemoryLedgerStore();
  const make = (more: Partial<LedgerOptions> = {}) =>
    new RestatementLedger({
      store,
      namespace: async () => "svc|keyhash",
      now: () => now,
      onNote: (n) => notes.push(n),
      ...extra,
      ...more,
    });
  return {
    store,
    notes,
    ledger: make(),
    make,
    setNow: (t: number) => (now = t),
  };
}

describe("the restatement ledger", () => {
  it("gives a view holding every change recorded before it was asked, even one still being written", async () => {
    const { ledger } = setup();
    // Recorded without waiting, then the view asked at once (a vintage= right after the refresh that found
    // the change): the view must neither miss it nor wait for a write that waits for the view.
    void ledger.record([change(aaveFees, 20_400, 10, 11, MIDDAY_2026)]);
    const first = await ledger.view();
    expect(first.since(0).map((c) => c.after)).toEqual([11]);
    void ledger.record([change(aaveFees, 20_401, 7, 9, MIDDAY_2026)]);
    const again = await ledger.view();
    expect(again.since(0).map((c) => c.after)).toEqual([11, 9]);
  });

  it("lists the changes since a date newest first, for the projects and metrics asked", async () => {
    const { ledger, make } = setup();
    await ledger.record([
      change(aaveFees, 20_400, 10, 11, MIDDAY_2026 - 2 * DAY_MS),
      change(gmxRevenue, 20_401, 5, 4, MIDDAY_2026 - DAY_MS),
      change(aaveFees, 20_402, 7, 9, MIDDAY_2026),
    ]);
    // A later session reads what this one wrote.
    const view = await make().view();
    expect(view.since(0).map((c) => [c.series.projectId, c.day])).toEqual([
      ["aave", 20_402],
      ["gmx", 20_401],
      ["aave", 20_400],
    ]);
    expect(view.since(MIDDAY_2026 - DAY_MS, { projects: new Set(["aave"]) })).toHaveLength(1);
    expect(view.since(0, { metrics: new Set(["revenue"]) }).map((c) => c.day)).toEqual([20_401]);
    expect(view.changesOf({ series: aaveFees, dim: "", day: 20_400 })).toEqual([
      expect.objectContaining({ before: 10, after: 11 }),
    ]);
  });

  it("counts once a change that two processes saw, at its first sighting", async () => {
    const { ledger, make } = setup();
    const other = make();
    const first = change(aaveFees, 20_400, 10, 11, MIDDAY_2026);
    await ledger.record([{ ...first, seenAt: MIDDAY_2026 + 5_000, request: "second" }]);
    await other.record([{ ...first, beforeSeenAt: first.beforeSeenAt }]);
    const view = await make().view();
    expect(view.since(0)).toEqual([
      expect.objectContaining({ seenAt: MIDDAY_2026, before: 10, after: 11 }),
    ]);
  });

  it("joins the changes it records to a view already loaded, and tells its listeners", async () => {
    const { ledger } = setup();
    const heard: number[] = [];
    ledger.subscribe((changes) => heard.push(changes.length));
    const view = await ledger.view();
    await ledger.record([change(aaveFees, 20_400, 1, 2, MIDDAY_2026)]);
    expect(view.size).toBe(1);
    expect(heard).toEqual([1]);
  });

  it("keeps each service and key apart, and keeps nothing without a key", async () => {
    const { ledger, make, store } = setup();
    await ledger.record([change(aaveFees, 20_400, 1, 2, MIDDAY_2026)]);
    expect((await make({ namespace: async () => "svc|otherkey" }).view()).size).toBe(0);
    const keyless = make({ namespace: async () => undefined });
    await keyless.record([change(aaveFees, 20_401, 1, 2, MIDDAY_2026)]);
    expect([...store.data.keys()]).toEqual(["svc|keyhash"]);
  });

  it("drops the oldest days of changes past its bound, and says since when it holds", async () => {
    const { ledger, make, notes, store, setNow } = setup({ maxBytes: 8_000 });
    // Forty days of restatements, a day's changes each day (about 400 bytes a day).
    for (let d = 0; d < 40; d++) {
      const at = MIDDAY_2026 - (40 - d) * DAY_MS;
      setNow(at);
      await ledger.record(
        Array.from({ length: 10 }, (_, i) => change(aaveFees, 20_000 + d * 10 + i, d, d + 0.25, at))
      );
    }
    setNow(MIDDAY_2026);
    const segments = await store.segments("svc|keyhash");
    const total = segments.reduce((n, s) => n + s.bytes, 0);
    expect(total).toBeLessThanOrEqual(8_000);
    expect(segments.length).toBeLessThan(40);
    // The newest day is always kept; what is gone is the oldest.
    expect(segments[segments.length - 1].id).toBe("2026-11-19");
    const view = await make().view();
    const oldestKept = view.since(0).reduce((m, c) => Math.min(m, c.seenAt), Infinity);
    expect(view.keptSince).toBeLessThanOrEqual(oldestKept);
    expect(view.keptSince).toBeGreaterThan(MIDDAY_2026 - 40 * DAY_MS);
    expect(notes).toContain(
      `The record of restatements reached its bound (8 kB): changes seen before ${new Date(view.keptSince).toISOString().slice(0, 10)} were dropped.`
    );
    // A figure whose early history was dropped is said to be no longer kept, not never seen.
    const dropped = { series: aaveFees, dim: "", day: 20_000 };
    expect(view.known(dropped, undefined, MIDDAY_2026 - 39 * DAY_MS)).toEqual({
      known: false,
      keptSince: view.keptSince,
    });
  });

  it("trims the oldest lines of a single day that alone passes the bound", async () => {
    const { ledger, make, store } = setup({ maxBytes: 5_000 });
    for (let k = 0; k < 40; k++)
      await ledger.record([
        change(
          { ...aaveFees, filter: `chains=c${k}` },
          20_000 + k,
          k,
          k + 1,
          MIDDAY_2026 + k * 1000
        ),
      ]);
    const [segment] = await store.segments("svc|keyhash");
    expect(segment.bytes).toBeLessThanOrEqual(5_000);
    const view = await make().view();
    const days = view.since(0).map((c) => c.day);
    expect(days[0]).toBe(20_039);
    expect(days.length).toBeLessThan(40);
    expect(view.keptSince).toBe(view.since(0).reduce((m, c) => Math.min(m, c.seenAt), Infinity));
  });

  it("drops a damaged day of the ledger whole, with a note, and trusts the others", async () => {
    const { ledger, make, notes, store } = setup();
    await ledger.record([
      change(aaveFees, 20_400, 10, 11, MIDDAY_2026 - 2 * DAY_MS),
      change(aaveFees, 20_401, 10, 12, MIDDAY_2026 - 2 * DAY_MS + 1000),
      change(gmxRevenue, 20_401, 5, 4, MIDDAY_2026),
    ]);
    const ns = store.data.get("svc|keyhash")!;
    const damagedDay = "2026-11-18";
    const lines = ns.get(damagedDay)!;
    expect(lines).toHaveLength(2);
    // One digit of one value changed: the line still parses, its seal no longer matches.
    ns.set(damagedDay, [lines[0], lines[1].replace(/,12,/, ",13,")]);
    const view = await make().view();
    expect(view.since(0).map((c) => c.series.projectId)).toEqual(["gmx"]);
    expect(notes.join("\n")).toMatch(
      /Dropped 1 damaged day of the record of restatements \(1 with a line whose seal does not match: 2026-11-18\)/
    );
    expect(ns.has(damagedDay)).toBe(false);
    // What that day held is no longer known: asked before its end, the record says so.
    expect(view.keptSince).toBe(Date.UTC(2026, 10, 19));
  });

  it("reads a damaged record of what was dropped as dropped from the oldest day kept", async () => {
    const { ledger, make, store } = setup();
    await ledger.record([change(aaveFees, 20_400, 10, 11, MIDDAY_2026)]);
    await store.writeMeta("svc|keyhash", '0000 {"v":1,"keptSince":0}');
    expect((await make().view()).keptSince).toBe(Date.UTC(2026, 10, 20));
  });

  it("never rejects when its store fails: the cell goes on, a note says what was lost", async () => {
    const { notes, make } = setup();
    const broken = new MemoryLedgerStore();
    broken.append = () => Promise.reject(new Error("disk full"));
    broken.segments = () => Promise.reject(new Error("disk gone"));
    const ledger = make({ store: broken });
    await expect(
      ledger.record([change(aaveFees, 20_400, 1, 2, MIDDAY_2026)])
    ).resolves.toBeUndefined();
    const view = await ledger.view();
    expect(view.size).toBe(0);
    expect(notes).toEqual([
      "Restatements could not be recorded (disk full).",
      "The record of restatements could not be read (disk gone).",
    ]);
    // Not kept: asked again, the store is read again.
    broken.segments = () => Promise.resolve([]);
    expect(await ledger.view()).not.toBe(view);
  });

  it("writes a request's description on one line, bounded, whatever it holds", async () => {
    const { ledger, store } = setup();
    await ledger.record([
      {
        ...change(aaveFees, 20_400, 1, 2, MIDDAY_2026),
        request: `GET /x\n\u2028${"y".repeat(1000)}`,
      },
    ]);
    const [line] = store.data.get("svc|keyhash")!.get("2026-11-20")!;
    expect(line).not.toMatch(/\n|\u2028/);
    expect(line.length).toBeLessThan(600);
  });
});
