import { getEventListeners } from "node:events";
import { CryptometricsError } from "../../src/client";
import { DEFAULT_CACHE_POLICY } from "../../src/cache/policy";
import { dayNumber } from "../../src/client/data/days";
import { SeriesBatcher, type FetchGroup } from "../../src/engine/series-batcher";
import { fetchGroup } from "../../src/engine/series-fetch";
import { SeriesStore } from "../../src/engine/series-store";
import { DEFAULT_VARIANT, seriesKey, type SeriesQuery } from "../../src/engine/series-types";
import { fakeClock, MIDDAY_2026 } from "../support/clock";
import { FakeClient, fakeValue } from "./fake-client";

const WINDOW = 50;
const DEADLINE = 130_000;
const STALE_AFTER = 10_000;

function setup(fetch?: FetchGroup) {
  const time = fakeClock(MIDDAY_2026, { held: true });
  const client = new FakeClient();
  const store = new SeriesStore(DEFAULT_CACHE_POLICY, time.now);
  const batcher = new SeriesBatcher(
    client,
    store,
    time.timers,
    {
      windowMs: WINDOW,
      deadlineMs: DEADLINE,
      maxIdsPerRequest: 50,
      staleAfterMs: STALE_AFTER,
    },
    undefined,
    fetch
  );
  return { time, client, store, batcher };
}

function q(
  projectId: string,
  metricId: string,
  start: string,
  end = start,
  extra: Partial<SeriesQuery> = {}
): SeriesQuery {
  return {
    projectId,
    metricId,
    start: dayNumber(start),
    end: dayNumber(end),
    variant: DEFAULT_VARIANT,
    ...extra,
  };
}

function values(answer: {
  dims: Map<string, Array<{ value: number | null }>>;
}): Array<number | null> {
  return (answer.dims.get("") ?? []).map((p) => p.value);
}

describe("series batcher", () => {
  it("answers a window of cells for many projects and metrics with one request per metric", async () => {
    const { time, client, batcher } = setup();
    const projects = ["aave", "uniswap", "lido-finance", "curve"];
    const calls = projects.flatMap((p) =>
      ["fees", "revenue"].map((m) => batcher.get(q(p, m, "2025-03-01")))
    );
    await time.advance(WINDOW);
    const answers = await Promise.all(calls);
    expect(client.calls.map((c) => [c.op, c.id, c.members.length])).toEqual([
      ["getMetric", "fees", 4],
      ["getMetric", "revenue", 4],
    ]);
    expect(values(answers[0])).toEqual([fakeValue("aave", "fees", dayNumber("2025-03-01"))]);
  });

  it("coalesces identical cells and overlapping ranges of one series into one request for the span", async () => {
    const { time, client, batcher } = setup();
    const a = batcher.get(q("aave", "fees", "2025-01-01", "2025-01-31"));
    const b = batcher.get(q("aave", "fees", "2025-01-15", "2025-02-15"));
    const c = batcher.get(q("aave", "fees", "2025-01-01", "2025-01-31"));
    await time.advance(WINDOW);
    const [ra, rb, rc] = await Promise.all([a, b, c]);
    expect(client.calls).toEqual([
      expect.objectContaining({ start: "2025-01-01", end: "2025-02-15" }),
    ]);
    expect(values(ra)).toHaveLength(31);
    expect(values(rb)).toHaveLength(32);
    expect(values(rc)).toEqual(values(ra));
  });

  it("serves a repeated window from the cache without any request", async () => {
    const { time, client, batcher } = setup();
    const first = batcher.get(q("aave", "fees", "2025-01-01", "2025-03-31"));
    await time.advance(WINDOW);
    await first;
    const again = await batcher.get(q("aave", "fees", "2025-02-01", "2025-02-28"));
    expect(values(again)).toHaveLength(28);
    expect(client.calls).toHaveLength(1);
  });

  it("lets a cell join a request already in flight that covers its range", async () => {
    const { time, client, batcher } = setup();
    client.hang = false;
    const first = batcher.get(q("aave", "fees", "2025-01-01", "2025-12-31"));
    batcher.flush();
    const second = batcher.get(q("aave", "fees", "2025-06-01", "2025-06-30"));
    await time.advance(WINDOW);
    await Promise.all([first, second]);
    expect(client.calls).toHaveLength(1);
  });

  it("rejects every cell of a failed batch with the error, and does not cache the failure", async () => {
    const { time, client, batcher } = setup();
    client.failure = new CryptometricsError("server", "getMetric: service error (503)", {
      operation: "getMetric",
    });
    const calls = [
      batcher.get(q("aave", "fees", "2025-01-01")),
      batcher.get(q("curve", "fees", "2025-01-01")),
    ];
    await time.advance(WINDOW);
    for (const call of calls) await expect(call).rejects.toMatchObject({ kind: "server" });
    client.failure = undefined;
    const retry = batcher.get(q("aave", "fees", "2025-01-01"));
    await time.advance(WINDOW);
    expect(values(await retry)).toHaveLength(1);
    expect(client.calls).toHaveLength(2);
    expect(batcher.waiting).toBe(0);
  });

  it("keeps the previous value when a refresh fails (stale-if-error) and says why", async () => {
    const { time, client, store, batcher } = setup();
    const first = batcher.get(q("aave", "fees", "2025-01-01"));
    await time.advance(WINDOW);
    const before = await first;
    store.refresh();
    client.failure = new CryptometricsError("network", "getMetric: network error", {
      operation: "getMetric",
    });
    const after = batcher.get(q("aave", "fees", "2025-01-01"));
    await time.advance(WINDOW);
    const answer = await after;
    expect(values(answer)).toEqual(values(before));
    expect(answer.stale).toEqual({
      fetchedAt: expect.any(Number),
      reason: "getMetric: network error",
    });
  });

  it("shows the previous values of a refreshed cell whose request is slow, and lets the request refresh the cache", async () => {
    const { time, client, store, batcher } = setup();
    const first = batcher.get(q("aave", "fees", "2025-01-01"));
    await time.advance(WINDOW);
    const before = await first;
    store.refresh();
    client.hang = true;
    const slow = batcher.get(q("aave", "fees", "2025-01-01"));
    const settled = jest.fn();
    slow.then(settled, settled);
    await time.advance(STALE_AFTER - 1);
    expect(settled).not.toHaveBeenCalled();
    await time.advance(1);
    const answer = await slow;
    expect(values(answer)).toEqual(values(before));
    expect(answer.stale?.reason).toBe(
      "the service has not answered within 10 s; showing the previous values while it is asked again"
    );
    expect(client.calls).toHaveLength(2); // the refresh request went out and is still under way
    expect(batcher.waiting).toBe(1);
  });

  it("waits for a first answer however slow, as there is nothing earlier to show", async () => {
    const { time, client, batcher } = setup();
    client.hang = true;
    const call = batcher.get(q("aave", "fees", "2025-01-01"));
    const settled = jest.fn();
    call.then(settled, settled);
    await time.advance(STALE_AFTER * 3);
    expect(settled).not.toHaveBeenCalled();
    await time.advance(DEADLINE);
    await expect(call).rejects.toMatchObject({ kind: "timeout" });
  });

  it("rejects at once a cell whose series the answer lacks, instead of leaving it to its deadline", async () => {
    const lacking = q("uniswap", "fees", "2025-01-01");
    // An answer that holds every series of its request but one (the batcher cannot rule it out).
    const { time, client, batcher } = setup(async (c, request, signal) => {
      const result = await fetchGroup(c, request, signal);
      result.results.delete(seriesKey(lacking));
      return result;
    });
    const answered = batcher.get(q("aave", "fees", "2025-01-01"));
    const unanswered = batcher.get(lacking);
    const settled = jest.fn();
    unanswered.then(settled, settled);
    await time.advance(WINDOW);
    expect(client.calls).toHaveLength(1);
    expect(settled).toHaveBeenCalled();
    await expect(unanswered).rejects.toMatchObject({
      kind: "malformed-response",
      message: expect.stringContaining("fees of uniswap: the answer to"),
    });
    expect(values(await answered)).toEqual([fakeValue("aave", "fees", dayNumber("2025-01-01"))]);
    expect(batcher.waiting).toBe(0);
    expect(time.timersPending).toBe(0);
  });

  it("settles a cell whose request hangs at its deadline, with a timeout error", async () => {
    const { time, client, batcher } = setup();
    client.hang = true;
    const call = batcher.get(q("aave", "fees", "2025-01-01"));
    const settled = jest.fn();
    call.then(settled, settled);
    await time.advance(DEADLINE - 1);
    expect(settled).not.toHaveBeenCalled();
    await time.advance(1);
    await expect(call).rejects.toMatchObject({
      kind: "timeout",
      message: expect.stringContaining("no answer within 130 s"),
    });
    expect(batcher.waiting).toBe(0);
    expect(time.timersPending).toBe(0);
  });

  it("drops a cancelled cell from the pending batch so no request is sent for it", async () => {
    const { time, client, batcher } = setup();
    const controller = new AbortController();
    const call = batcher.get(q("aave", "fees", "2025-01-01"), { signal: controller.signal });
    const other = batcher.get(q("curve", "revenue", "2025-01-01"));
    controller.abort();
    await expect(call).rejects.toMatchObject({ kind: "cancelled" });
    await time.advance(WINDOW);
    await other;
    expect(client.calls.map((c) => c.id)).toEqual(["revenue"]);
  });

  it("aborts a request in flight once every cell waiting for it is cancelled", async () => {
    const { time, client, batcher } = setup();
    client.hang = true;
    const controller = new AbortController();
    const call = batcher.get(q("aave", "fees", "2025-01-01"), { signal: controller.signal });
    await time.advance(WINDOW);
    expect(client.calls).toHaveLength(1);
    controller.abort();
    await expect(call).rejects.toMatchObject({ kind: "cancelled" });
    expect(batcher.waiting).toBe(0);
    expect(time.timersPending).toBe(0);
  });

  it("puts one abort listener on a cell's signal however many series the cell needs", async () => {
    const { time, batcher } = setup();
    const controller = new AbortController();
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(w.name);
    process.on("warning", onWarning);
    try {
      const projects = Array.from({ length: 50 }, (_, i) => `project-${i}`);
      const calls = projects.map((p) =>
        batcher.get(q(p, "fees", "2025-01-01"), { signal: controller.signal })
      );
      expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
      controller.abort();
      const outcomes = await Promise.allSettled(calls);
      expect(outcomes.every((o) => o.status === "rejected")).toBe(true);
      expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
      await time.advance(WINDOW);
      // Node reports listener leaks asynchronously: give it the turn it needs.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain("MaxListenersExceededWarning");
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("removes the cell's listener once all its series are answered", async () => {
    const { time, batcher } = setup();
    const controller = new AbortController();
    const calls = ["aave", "curve", "uniswap"].map((p) =>
      batcher.get(q(p, "fees", "2025-01-01"), { signal: controller.signal })
    );
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    await time.advance(WINDOW);
    await Promise.all(calls);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("turns partial-success errors into per-series issues while valid series keep their data", async () => {
    const { time, batcher } = setup();
    const ok = batcher.get(q("aave", "tvl", "2025-01-01"));
    const unavailable = batcher.get(q("gmx", "tvl", "2025-01-01"));
    const unknown = batcher.get(q("nope", "tvl", "2025-01-01"));
    await time.advance(WINDOW);
    expect(values(await ok)).toHaveLength(1);
    expect((await unavailable).issue).toEqual({
      code: "metric-not-available",
      message: 'metric "tvl" is not available for project "gmx"',
    });
    expect((await unknown).issue).toMatchObject({ code: "unknown-project" });
  });

  it("groups cells by options: different chains never share a request", async () => {
    const { time, client, batcher } = setup();
    const a = batcher.get(q("aave", "fees", "2025-01-01"));
    const b = batcher.get(
      q("aave", "fees", "2025-01-01", "2025-01-01", {
        variant: { ...DEFAULT_VARIANT, chains: ["base"] },
      })
    );
    await time.advance(WINDOW);
    await Promise.all([a, b]);
    expect(client.calls).toHaveLength(2);
  });

  it("fetches breakdowns per dimension through the project form", async () => {
    const { time, client, batcher } = setup();
    const call = batcher.get(
      q("aave", "fees", "2025-01-01", "2025-01-02", {
        variant: { ...DEFAULT_VARIANT, breakdown: "chain" },
      })
    );
    await time.advance(WINDOW);
    const answer = await call;
    expect(client.calls[0]).toMatchObject({ op: "getProjectMetrics", id: "aave" });
    expect([...answer.dims.keys()]).toEqual(["ethereum", "arbitrum"]);
    expect(answer.dims.get("ethereum")).toHaveLength(2);
  });

  it("batches a product's metrics into one product request", async () => {
    const { time, client, batcher } = setup();
    const calls = ["fees", "revenue"].map((m) =>
      batcher.get(q("aave", m, "2025-01-01", "2025-01-05", { productId: "aave-v3" }))
    );
    await time.advance(WINDOW);
    const answers = await Promise.all(calls);
    expect(client.calls).toEqual([
      expect.objectContaining({
        op: "getProductMetrics",
        id: "aave/aave-v3",
        members: ["fees", "revenue"],
      }),
    ]);
    expect(values(answers[1])).toHaveLength(5);
  });
});

describe("canonical requests: the same model plans the same requests whatever the timing", () => {
  /** A small model: 5 projects × 3 metrics on one day, a year of one series, and an open-ended history. */
  const model = (): SeriesQuery[] => [
    ...["aave", "uniswap", "lido-finance", "gmx", "curve"].flatMap((p) =>
      ["fees", "revenue", "tvl"].map((m) => q(p, m, "2025-03-31"))
    ),
    q("aave", "fees", "2024-04-01", "2025-03-31"),
    { ...q("curve", "user_dau", "2025-01-01"), end: Infinity },
  ];

  /** The requests one recalculation sends when its cells arrive in `order`, `gapMs` apart. */
  async function requestsFor(order: readonly SeriesQuery[], gapMs: number) {
    const { time, client, batcher } = setup();
    const calls: Promise<unknown>[] = [];
    for (const query of order) {
      calls.push(batcher.get(query));
      if (gapMs > 0) await time.advance(gapMs);
    }
    await time.advance(WINDOW * 10);
    await Promise.all(calls);
    return client.calls;
  }

  it("sends the same requests for cells arriving at once, reversed, or paced below the window", async () => {
    const cells = model();
    const atOnce = await requestsFor(cells, 0);
    expect(atOnce.length).toBeGreaterThan(1);
    for (const call of atOnce) expect(call.members).toEqual([...call.members].sort());
    expect(await requestsFor([...cells].reverse(), 0)).toEqual(atOnce);
    // Cells 40 ms apart: a window closing 50 ms after its first cell would have split them into several plans.
    const interleaved = cells.filter((_, i) => i % 2 === 0).concat(cells.filter((_, i) => i % 2));
    expect(await requestsFor(interleaved, 8)).toEqual(atOnce);
  });

  it("closes a window at its cap even while cells keep arriving", async () => {
    const { time, client, batcher } = setup();
    const calls: Promise<unknown>[] = [];
    // A cell every 40 ms for 400 ms: the quiet gap never comes; the cap (five windows, 250 ms) closes the
    // window with the cells of its first 250 ms, the rest form the next one.
    for (let i = 0; i < 10; i++) {
      calls.push(batcher.get(q("aave", "fees", `2025-01-${String(i + 1).padStart(2, "0")}`)));
      await time.advance(40);
    }
    await time.advance(WINDOW * 10);
    await Promise.all(calls);
    expect(client.calls).toEqual([
      expect.objectContaining({ start: "2025-01-01", end: "2025-01-07" }),
      expect.objectContaining({ start: "2025-01-08", end: "2025-01-10" }),
    ]);
  });
});
