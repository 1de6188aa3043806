/**
 * What the engine keeps of an answer beyond its values: the days the service sent twice with different
 * values (from the client's note, into every series and dimension they belong to, through the cache and the
 * saved cache), and how long an answer that lacks today stays fresh.
 */
import type {
  ClientResult,
  MultiProjectMetricRow,
  ProjectMetricRow,
  RepeatNote,
} from "../../src/client";
import { dayNumber } from "../../src/client/data/days";
import { DEFAULT_CACHE_POLICY } from "../../src/cache/policy";
import { seriesCodec } from "../../src/engine/saved-entries";
import { fetchGroup, type GroupRequest, type SeriesClient } from "../../src/engine/series-fetch";
import { SeriesStore } from "../../src/engine/series-store";
import { DEFAULT_VARIANT, seriesKey, type SeriesQuery } from "../../src/engine/series-types";
import { fakeClock, MIDDAY_2026 } from "../support/clock";

const d = dayNumber;
const META = { requests: 1, simulated: true, redirects: [] };

function note(conflicted: RepeatNote["conflicted"]): RepeatNote {
  return { copies: conflicted.length, conflicts: conflicted.length, examples: [], conflicted };
}

function client(answer: {
  metric?: ClientResult<MultiProjectMetricRow[]>;
  project?: ClientResult<ProjectMetricRow[]>;
}): SeriesClient {
  return {
    getMetric: () => Promise.resolve(answer.metric!),
    getProjectMetrics: () => Promise.resolve(answer.project!),
    getProductMetrics: () => Promise.reject(new Error("not used")),
  };
}

const query = (projectId: string, metricId: string, breakdown?: "chain"): SeriesQuery => ({
  projectId,
  metricId,
  start: d("2024-01-01"),
  end: d("2024-01-03"),
  variant: breakdown ? { ...DEFAULT_VARIANT, breakdown } : DEFAULT_VARIANT,
});

describe("days sent twice with different values", () => {
  it("reach the series they belong to as conflicts, not as days without data", async () => {
    const rows: MultiProjectMetricRow[] = ["2024-01-01", "2024-01-02", "2024-01-03"].flatMap(
      (date) =>
        ["aave", "uniswap"].map((projectId) => ({
          date,
          projectId,
          projectName: projectId,
          metricId: "fees",
          value: date === "2024-01-02" && projectId === "aave" ? null : 1,
        }))
    );
    const queries = [query("aave", "fees"), query("uniswap", "fees")];
    const request: GroupRequest = {
      form: "metric",
      projectId: "",
      productId: "",
      metricId: "fees",
      members: ["aave", "uniswap"],
      start: d("2024-01-01"),
      end: d("2024-01-03"),
      variant: DEFAULT_VARIANT,
      queries,
    };
    const result = await fetchGroup(
      client({
        metric: {
          data: rows,
          errors: [],
          meta: {
            ...META,
            repeats: note([{ date: "2024-01-02", projectId: "aave", metricId: "fees" }]),
          },
        },
      }),
      request,
      new AbortController().signal
    );
    const aave = result.results.get(seriesKey(queries[0]))!.dims.get("")!;
    expect(aave.find((p) => p.day === d("2024-01-02"))).toEqual({
      day: d("2024-01-02"),
      value: null,
      conflict: true,
    });
    const uniswap = result.results.get(seriesKey(queries[1]))!.dims.get("")!;
    expect(uniswap.some((p) => p.conflict)).toBe(false);
    expect(result.results.get(seriesKey(queries[0]))!.warnings).toContain(
      "1 repeated row disagreed (); no figure for that day"
    );
  });

  it("land in their breakdown dimension, and in the whole day without a breakdown", async () => {
    const wide = (chain?: string): ProjectMetricRow => ({
      date: "2024-01-01",
      projectId: "aave",
      projectName: "Aave",
      ...(chain ? { chain } : {}),
      values: { fees: chain === "base" ? null : 1 },
    });
    const conflicted = note([
      { date: "2024-01-01", projectId: "aave", metricId: "fees", chain: "base" },
    ]);
    const ask = async (breakdown?: "chain") => {
      const q = query("aave", "fees", breakdown);
      const result = await fetchGroup(
        client({
          project: {
            data: breakdown ? [wide("ethereum"), wide("base")] : [wide()],
            errors: [],
            meta: { ...META, repeats: conflicted },
          },
        }),
        {
          form: "project",
          projectId: "aave",
          productId: "",
          metricId: "",
          members: ["fees"],
          start: q.start,
          end: q.end,
          variant: q.variant,
          queries: [q],
        },
        new AbortController().signal
      );
      return result.results.get(seriesKey(q))!.dims;
    };
    const byChain = await ask("chain");
    expect(byChain.get("base")![0].conflict).toBe(true);
    expect(byChain.get("ethereum")![0].conflict).toBeUndefined();
    expect((await ask()).get("")![0].conflict).toBe(true);
  });

  it("stay conflicts in the cache and in the saved cache", () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    const store = new SeriesStore(DEFAULT_CACHE_POLICY, time.now);
    const key = seriesKey(query("aave", "fees"));
    store.write(
      key,
      d("2024-01-01"),
      d("2024-01-03"),
      new Map([
        [
          "",
          [
            { day: d("2024-01-01"), value: 1 },
            { day: d("2024-01-02"), value: null, conflict: true as const },
            { day: d("2024-01-03"), value: null },
          ],
        ],
      ]),
      "test"
    );
    const read = (s: SeriesStore) =>
      s
        .read(s.fresh(key, d("2024-01-01"), d("2024-01-03"))!, d("2024-01-01"), d("2024-01-03"))
        .get("")!;
    expect(read(store).map((p) => p.conflict === true)).toEqual([false, true, false]);
    // Saved and read back by another session: still a conflict, and a plain null still a plain null.
    const saved = JSON.parse(
      JSON.stringify(seriesCodec.encode(store.exportEntry(key)!))
    ) as unknown;
    const restored = new SeriesStore(DEFAULT_CACHE_POLICY, time.now);
    restored.restore(key, seriesCodec.decode(saved)!);
    expect(read(restored)).toEqual(read(store));
    // A damaged conflict list is refused whole, as any damaged entry is.
    const damaged = JSON.parse(JSON.stringify(saved)) as { current: { conflicts: unknown } };
    damaged.current.conflicts = [["", ["x"]]];
    expect(seriesCodec.decode(damaged)).toBeUndefined();
  });
});

describe("a day whose rows split unasked cannot be told apart", () => {
  // aave's fees of 2024-01-02 sent as a total (10) and two chains nobody asked for (3 and 3).
  const rows: MultiProjectMetricRow[] = [
    { date: "2024-01-01", projectId: "aave", projectName: "aave", metricId: "fees", value: 9 },
    { date: "2024-01-02", projectId: "aave", projectName: "aave", metricId: "fees", value: 10 },
    ...["ethereum", "base"].map((chain) => ({
      date: "2024-01-02",
      projectId: "aave",
      projectName: "aave",
      metricId: "fees",
      chain,
      value: 3,
    })),
    { date: "2024-01-03", projectId: "aave", projectName: "aave", metricId: "fees", value: 11 },
  ];
  const q = query("aave", "fees");
  const fetched = () =>
    fetchGroup(
      client({ metric: { data: rows, errors: [], meta: META } }),
      {
        form: "metric",
        projectId: "",
        productId: "",
        metricId: "fees",
        members: ["aave"],
        start: q.start,
        end: q.end,
        variant: DEFAULT_VARIANT,
        queries: [q],
      },
      new AbortController().signal
    );

  it("is a conflict of its series (split, not sent twice), with a note saying why", async () => {
    const result = (await fetched()).results.get(seriesKey(q))!;
    expect(result.dims.get("")).toEqual([
      { day: d("2024-01-01"), value: 9 },
      { day: d("2024-01-02"), value: null, conflict: true, split: true },
      { day: d("2024-01-03"), value: 11 },
    ]);
    expect(result.warnings.join("\n")).toMatch(
      /aave fees on 2024-01-02: sent both as a total \(10\) and split by chain into parts that add up to 6/
    );
  });

  it("stays a split conflict in the cache and in the saved cache", async () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    const store = new SeriesStore(DEFAULT_CACHE_POLICY, time.now);
    const key = seriesKey(q);
    store.write(key, q.start, q.end, (await fetched()).results.get(key)!.dims, "test");
    const read = (s: SeriesStore) => s.read(s.fresh(key, q.start, q.end)!, q.start, q.end).get("")!;
    expect(read(store)[1]).toEqual({
      day: d("2024-01-02"),
      value: null,
      conflict: true,
      split: true,
    });
    const saved = JSON.parse(
      JSON.stringify(seriesCodec.encode(store.exportEntry(key)!))
    ) as unknown;
    const restored = new SeriesStore(DEFAULT_CACHE_POLICY, time.now);
    restored.restore(key, seriesCodec.decode(saved)!);
    expect(read(restored)).toEqual(read(store));
  });
});

describe("an answer that lacks today", () => {
  const policy = DEFAULT_CACHE_POLICY;
  const points = (last: string) =>
    new Map([
      [
        "",
        [
          { day: d("2026-11-18"), value: 1 },
          { day: d(last), value: 2 },
        ],
      ],
    ]);

  it("is fresh for a short while, not until the next daily update, when it reaches today", async () => {
    // 00:05 UTC: the service may not have published the day yet.
    const time = fakeClock(Date.UTC(2026, 10, 20, 0, 5), { held: true });
    const store = new SeriesStore(policy, time.now);
    store.write("k", d("2026-10-16"), Infinity, points("2026-11-19"), "test");
    expect(store.fresh("k", d("2026-11-20"), d("2026-11-20"))).toBeDefined();
    await time.advance(policy.unpublishedTtlMs - 1);
    expect(store.fresh("k", d("2026-11-20"), d("2026-11-20"))).toBeDefined();
    await time.advance(2);
    expect(store.fresh("k", d("2026-11-20"), d("2026-11-20"))).toBeUndefined();
    // The saved entry carries the short lifetime too.
    const saved = store.exportEntry("k")!;
    expect(saved.current.expiresAt).toBe(Date.UTC(2026, 10, 20, 0, 5) + policy.unpublishedTtlMs);
  });

  it("comes back from the saved cache with its short lifetime, not fresh until the daily update", async () => {
    const start = Date.UTC(2026, 10, 20, 0, 5);
    const time = fakeClock(start, { held: true });
    const store = new SeriesStore(policy, time.now);
    store.write("lacks", d("2026-10-16"), Infinity, points("2026-11-19"), "test");
    store.write("holds", d("2026-10-16"), Infinity, points("2026-11-20"), "test");
    const saved = (key: string) =>
      seriesCodec.decode(JSON.parse(JSON.stringify(seriesCodec.encode(store.exportEntry(key)!))))!;
    const lacks = saved("lacks");
    const holds = saved("holds");
    // A new session, 10 minutes later: both are fresh as they would have been.
    await time.advance(10 * 60_000);
    const next = new SeriesStore(policy, time.now);
    next.restore("lacks", lacks);
    next.restore("holds", holds);
    expect(next.fresh("lacks", d("2026-11-20"), d("2026-11-20"))).toBeDefined();
    // Past the short lifetime, the one that lacked today is asked again; the other stays until 00:00 UTC.
    await time.advance(policy.unpublishedTtlMs);
    expect(next.fresh("lacks", d("2026-11-20"), d("2026-11-20"))).toBeUndefined();
    expect(next.fresh("holds", d("2026-11-20"), d("2026-11-20"))).toBeDefined();
  });

  it("stays fresh until the daily update when it holds today, or when it ends before today", async () => {
    const time = fakeClock(Date.UTC(2026, 10, 20, 0, 5), { held: true });
    const store = new SeriesStore(policy, time.now);
    store.write("today", d("2026-10-16"), Infinity, points("2026-11-20"), "test");
    store.write("history", d("2024-01-01"), d("2024-03-31"), points("2024-03-31"), "test");
    await time.advance(policy.unpublishedTtlMs + 60_000);
    expect(store.fresh("today", d("2026-11-20"), d("2026-11-20"))).toBeDefined();
    expect(store.fresh("history", d("2024-01-01"), d("2024-03-31"))).toBeDefined();
  });
});
