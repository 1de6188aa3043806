/**
 * The gateway's series cache feeding the team's record of restatements (src/gateway/series/team-record.ts,
 * entries.ts): each change once whatever the number of processes, with before, after and both sightings; the
 * figures named as the add-in names them.
 */
import type { Change } from "../../src/engine/ledger";
import { filterText } from "../../src/engine/series-ledger";
import type { SeriesVariant } from "../../src/engine/series-types";
import { Entries } from "../../src/gateway/entries";
import { Integrity } from "../../src/gateway/integrity";
import { OPEN_END, type Fetched } from "../../src/gateway/series/entry";
import { filterOf, type SeriesAbout } from "../../src/gateway/series/team-record";
import { MemoryStore } from "../../src/gateway/store/memory-store";
import type { Store } from "../../src/gateway/store/store";

const DAY = 86_400_000;
const D = 19_768; // 2024-02-15
const T1 = Date.parse("2026-11-19T10:00:00Z");
const T2 = Date.parse("2026-11-20T10:00:00Z");
const KEY = JSON.stringify(["project", "aave", "", "fees", ""]);
const ABOUT: SeriesAbout = {
  series: { projectId: "aave", productId: "", metricId: "fees", filter: "" },
  request: "GET /v2/metrics/fees for 1 project, 2024-02-14 → latest, through the team gateway",
};

function answer(values: Record<number, number | string | null>, extra: object = {}): Fetched {
  return {
    form: "metric",
    start: D - 1,
    end: OPEN_END,
    records: Object.entries(values).map(([d, v]) => ({
      d: Number(d),
      row: {
        timestamp: `${new Date(Number(d) * DAY).toISOString()}`,
        project_id: "aave",
        ...extra,
      },
      v,
    })),
    issues: [],
    simulated: true,
  };
}

/** A store shared by processes whose first reads all happen before any of them writes (a race, every time). */
function racing(store: Store, processes: number): Store {
  let waiting = processes;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  return new Proxy(store, {
    get(target, name, receiver) {
      if (name !== "read") return Reflect.get(target, name, receiver) as unknown;
      return async (keys: readonly string[]) => {
        const read = await target.read(keys);
        if (waiting > 0) {
          if (--waiting === 0) open();
          await gate;
        }
        return read;
      };
    },
  });
}

function process(store: Store, now: () => number, recorded: Change[]): Entries {
  return new Entries({
    store,
    integrity: new Integrity("team-key"),
    now,
    restatements: {
      async record(changes) {
        for (const c of changes) recorded.push(c);
      },
    },
  });
}

describe("the gateway's record of restatements", () => {
  it("records a restated day once when two processes refetch it at once", async () => {
    let now = T1;
    const shared = new MemoryStore({ now: () => now });
    const recorded: Change[] = [];
    const first = process(shared, () => now, recorded);
    await first.mergeSeries(
      [{ key: KEY, got: answer({ [D - 1]: 90, [D]: 100 }), about: ABOUT }],
      true
    );
    expect(recorded).toEqual([]);

    now = T2;
    const store = racing(shared, 2);
    const a = process(store, () => now, recorded);
    const b = process(store, () => now, recorded);
    const restated = answer({ [D - 1]: 90, [D]: 125 });
    await Promise.all([
      a.mergeSeries([{ key: KEY, got: restated, about: ABOUT }], true),
      b.mergeSeries([{ key: KEY, got: restated, about: ABOUT }], true),
    ]);
    expect(recorded).toEqual([
      {
        series: ABOUT.series,
        dim: "",
        day: D,
        before: 100,
        after: 125,
        beforeSeenAt: T1,
        seenAt: T2,
        request: ABOUT.request,
      },
    ]);

    // A third fetch of the same values finds nothing new, and keeps when the day was first seen.
    now = T2 + 3_600_000;
    await process(shared, () => now, recorded).mergeSeries(
      [{ key: KEY, got: restated, about: ABOUT }],
      true
    );
    expect(recorded).toHaveLength(1);
  });

  it("dates a value kept across the daily update by its first sighting, not the snapshot's", async () => {
    let now = T1;
    const store = new MemoryStore({ now: () => now });
    const recorded: Change[] = [];
    const gw = process(store, () => now, recorded);
    await gw.mergeSeries(
      [{ key: KEY, got: answer({ [D - 1]: 90, [D]: 100 }), about: ABOUT }],
      true
    );
    // The next day the value is sent again (a new snapshot), and the day after, restated.
    now = T2;
    await gw.mergeSeries(
      [{ key: KEY, got: answer({ [D - 1]: 90, [D]: 100 }), about: ABOUT }],
      true
    );
    now = T2 + DAY;
    await gw.mergeSeries([{ key: KEY, got: answer({ [D - 1]: 90, [D]: 80 }), about: ABOUT }], true);
    expect(recorded.map((c) => [c.before, c.after, c.beforeSeenAt, c.seenAt])).toEqual([
      [100, 80, T1, T2 + DAY],
    ]);
  });

  it("compares nothing it cannot read as the add-in's figure, nor an answer it does not keep", async () => {
    let now = T1;
    const store = new MemoryStore({ now: () => now });
    const recorded: Change[] = [];
    const gw = process(store, () => now, recorded);
    await gw.mergeSeries([{ key: KEY, got: answer({ [D]: 100 }), about: ABOUT }], true);
    now = T2;
    // Past the user's allowance: served, not kept, not compared.
    await gw.mergeSeries([{ key: KEY, got: answer({ [D]: 125 }), about: ABOUT }], false);
    // Rows split by a member nobody asked for: no figure to compare.
    await gw.mergeSeries(
      [{ key: KEY, got: answer({ [D]: 7 }, { chain: "base" }), about: ABOUT }],
      true
    );
    // An empty answer (a §4.3 metric left out) is not every day dropped.
    await gw.mergeSeries([{ key: KEY, got: answer({}), about: ABOUT }], true);
    expect(recorded).toEqual([]);
    // A numeric string is the number it says: the same figure, no change.
    await gw.mergeSeries([{ key: KEY, got: answer({ [D]: "100" }), about: ABOUT }], true);
    await gw.mergeSeries([{ key: KEY, got: answer({ [D]: 100 }), about: ABOUT }], true);
    expect(recorded).toEqual([]);
  });

  it("names a series' options as the add-in does", () => {
    const variants: Array<[SeriesVariant, Array<[string, string | string[]]>]> = [
      [{ bridged: true, chains: [], products: [], sectors: [] }, []],
      [
        { bridged: false, chains: ["ethereum", "base"], products: ["v3"], sectors: [] },
        [
          ["chain_ids", ["ethereum", "base"]],
          ["product_ids", ["v3"]],
          ["assets_bridged", "false"],
        ],
      ],
      [
        { bridged: true, chains: [], products: [], sectors: ["lending"], breakdown: "chain" },
        [
          ["market_sector_ids", ["lending"]],
          ["assets_bridged", "true"],
          ["aggregate_by", "chain"],
        ],
      ],
    ];
    for (const [variant, params] of variants)
      expect(filterOf(params).filter).toBe(filterText(variant));
  });
});
