/**
 * What every LedgerStore promises (src/engine/ledger/store.ts), run against each adapter: the in-memory one, the
 * CLI's files, the add-in's IndexedDB, the gateway's Redis. `place` makes a new, empty place for one test and
 * returns how to open a handle on it: each call another handle over the same place (another process, or a later
 * session).
 */
import { RestatementLedger } from "../../../src/engine/ledger/ledger";
import { linesBytes, type LedgerStore } from "../../../src/engine/ledger/store";
import type { Change } from "../../../src/engine/ledger/types";

const NS = "https://metrics.example#3f2a"; // a namespace as the runtime makes them: origin and key hash
const OTHER = "https://metrics.example#9b7c";

type LedgerPlace = () => Promise<() => LedgerStore | Promise<LedgerStore>>;

export function ledgerStoreContract(name: string, place: LedgerPlace): void {
  describe(`${name}, as every ledger store`, () => {
    let make: () => LedgerStore | Promise<LedgerStore>;
    beforeEach(async () => {
      make = await place();
    });

    it("appends whole lines in order to the day's segment, and lists the days oldest first with their size", async () => {
      const store = await make();
      await store.append(NS, "2026-11-24", ["b 1", "b 2"]);
      await store.append(NS, "2026-11-20", ["a 1"]);
      await store.append(NS, "2026-11-24", ["b 3 — ünïcode"]);
      expect(await store.read(NS, "2026-11-24")).toEqual(["b 1", "b 2", "b 3 — ünïcode"]);
      expect(await store.segments(NS)).toEqual([
        { id: "2026-11-20", bytes: linesBytes(["a 1"]) },
        { id: "2026-11-24", bytes: linesBytes(["b 1", "b 2", "b 3 — ünïcode"]) },
      ]);
      expect(await store.read(NS, "2026-11-21")).toBeUndefined();
      // Another service or key sees nothing of it.
      expect(await store.segments(OTHER)).toEqual([]);
      expect(await (await make()).read(NS, "2026-11-20")).toEqual(["a 1"]);
    });

    it("keeps every line of appends made at once through two handles (two processes)", async () => {
      const [one, two] = [await make(), await make()];
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? one : two).append(NS, "2026-11-25", [`line ${i}`])
        )
      );
      const lines = (await one.read(NS, "2026-11-25")) ?? [];
      expect([...lines].sort()).toEqual(Array.from({ length: 20 }, (_, i) => `line ${i}`).sort());
    });

    it("removes days, trims a day to its newest lines, keeps a record of state, and clears", async () => {
      const store = await make();
      await store.append(NS, "2026-11-01", ["old"]);
      await store.append(NS, "2026-11-02", ["x".repeat(10), "y".repeat(10), "z".repeat(10)]);
      await store.append(OTHER, "2026-11-02", ["theirs"]);
      await store.remove(NS, ["2026-11-01"]);
      await store.keepNewest(NS, "2026-11-02", 23);
      expect(await store.read(NS, "2026-11-02")).toEqual(["y".repeat(10), "z".repeat(10)]);
      expect((await store.segments(NS)).map((s) => s.id)).toEqual(["2026-11-02"]);
      expect(await store.readMeta(NS)).toBeUndefined();
      await store.writeMeta(NS, 'seal {"v":1}');
      expect(await (await make()).readMeta(NS)).toBe('seal {"v":1}');
      await store.clear();
      expect(await store.segments(NS)).toEqual([]);
      expect(await store.segments(OTHER)).toEqual([]);
      expect(await store.readMeta(NS)).toBeUndefined();
    });

    it("carries a ledger from one session to the next", async () => {
      let now = Date.UTC(2026, 10, 24, 9);
      const change: Change = {
        series: { projectId: "aave", productId: "", metricId: "revenue", filter: "" },
        dim: "",
        day: 20_500,
        before: 232787544.26598746,
        after: 116393772.13299373,
        beforeSeenAt: now - 86_400_000,
        seenAt: now,
        request: "GET /v2/metrics/revenue for 3 projects, 2026-02-15 → 2026-02-15",
      };
      await new RestatementLedger({
        store: await make(),
        namespace: async () => NS,
        now: () => now,
      }).record([change]);
      now += 3_600_000;
      const view = await new RestatementLedger({
        store: await make(),
        namespace: async () => NS,
        now: () => now,
      }).view();
      expect(view.since(0)).toEqual([change]);
    });
  });
}
