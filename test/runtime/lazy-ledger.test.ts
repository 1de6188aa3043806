/**
 * The runtime's record of restatements, its code loaded on first use (src/runtime/lazy-ledger.ts): it keeps
 * every promise of the ledger it stands for.
 */
import { MemoryLedgerStore } from "../../src/engine/ledger/store";
import type { Change, SeriesRef } from "../../src/engine/ledger/types";
import { IN_MEMORY, LazyLedger } from "../../src/runtime/lazy-ledger";
import { MIDDAY_2026 } from "../support/clock";

const DAY_MS = 86_400_000;
const aaveFees: SeriesRef = { projectId: "aave", productId: "", metricId: "fees", filter: "" };

function change(day: number, before: number, after: number): Change {
  return {
    series: aaveFees,
    dim: "",
    day,
    before,
    after,
    beforeSeenAt: MIDDAY_2026 - 3 * DAY_MS,
    seenAt: MIDDAY_2026,
    request: "GET /v2/metrics/fees for 1 project",
  };
}

function setup() {
  const store = new MemoryLedgerStore();
  const ledger = new LazyLedger({
    store,
    namespace: async () => "svc|keyhash",
    now: () => MIDDAY_2026,
  });
  return { store, ledger };
}

describe("the runtime's record of restatements", () => {
  it("without a store keeps its record in process memory, and says so as MemoryLedgerStore does", async () => {
    const ledger = new LazyLedger({
      namespace: async () => "svc|keyhash",
      now: () => MIDDAY_2026,
    });
    expect(ledger.location).toBe(IN_MEMORY);
    expect(new MemoryLedgerStore().location).toBe(IN_MEMORY);
    await ledger.record([change(20_400, 10, 11)]);
    const view = await ledger.view();
    expect(view.since(0).map((c) => c.after)).toEqual([11]);
  });

  it("tells its listeners of each change as it is recorded, before anything is loaded or written", () => {
    const { ledger } = setup();
    const heard: Array<number | null> = [];
    ledger.subscribe((changes) => changes.forEach((c) => heard.push(c.after)));
    void ledger.record([change(20_400, 10, 11)]);
    expect(heard).toEqual([11]);
  });

  it("gives a view holding every change recorded before it was asked, written or not", async () => {
    const { ledger } = setup();
    void ledger.record([change(20_400, 10, 11)]);
    void ledger.record([change(20_401, 7, 9)]);
    const view = await ledger.view();
    expect(
      view
        .since(0)
        .map((c) => c.after)
        .sort()
    ).toEqual([11, 9].sort());
  });

  it("has written everything recorded once flush resolves, and clear empties the store", async () => {
    const { ledger, store } = setup();
    void ledger.record([change(20_400, 10, 11)]);
    await ledger.flush();
    expect((await store.segments("svc|keyhash")).length).toBeGreaterThan(0);
    await ledger.clear();
    expect(await store.segments("svc|keyhash")).toEqual([]);
    expect((await ledger.view()).since(-Infinity)).toEqual([]);
  });

  it("flushes at once when nothing was ever recorded, and gives empty views to merge into", async () => {
    const { ledger } = setup();
    await expect(ledger.flush()).resolves.toBeUndefined();
    const view = await ledger.emptyView(MIDDAY_2026);
    expect(view.keptSince).toBe(MIDDAY_2026);
    expect(view.since(-Infinity)).toEqual([]);
  });
});
