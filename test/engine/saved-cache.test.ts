/**
 * The engine over a saved cache: a new session (a new engine) reads what an earlier one fetched, under the
 * same freshness rules, and refuses whatever it cannot trust.
 */
import {
  CryptometricsError,
  type ClientResult,
  type Project,
  type ResultMeta,
} from "../../src/client";
import { dayNumber } from "../../src/client/data/days";
import { Engine, type EngineClient } from "../../src/engine/engine";
import { CACHE_FORMAT, CACHE_FORMAT_VERSION, PersistentCache } from "../../src/engine/persistence";
import { savedEngineCache } from "../../src/engine/saved-entries";
import {
  DEFAULT_VARIANT,
  type SeriesAnswer,
  type SeriesQuery,
} from "../../src/engine/series-types";
import { fakeClock, type FakeClock, MIDDAY_2026 } from "../support/clock";
import { MemoryBlobStore } from "../support/memory-blob-store";
import { FakeClient, fakeValue } from "./fake-client";

const HOUR = 3_600_000;
const META: ResultMeta = { requests: 1, simulated: true, redirects: [] };
const PROJECTS: Project[] = [
  { projectId: "aave", name: "Aave", isArchived: false, products: [] },
  { projectId: "uniswap", name: "Uniswap", isArchived: false, products: [] },
];

/** The series operations of the fake, a counted project list, and nothing else. */
function engineClient(fake: FakeClient, counter: { lists: number }): EngineClient {
  const unused = (): Promise<never> => Promise.reject(new Error("not used by these tests"));
  return {
    getMetric: (...args) => fake.getMetric(...args),
    getProjectMetrics: (...args) => fake.getProjectMetrics(...args),
    getProductMetrics: (...args) => fake.getProductMetrics(...args),
    listProjects: async (): Promise<ClientResult<Project[]>> => {
      counter.lists++;
      if (fake.failure) throw fake.failure;
      return { data: PROJECTS, errors: [], meta: META };
    },
    getProject: unused,
    getProjectMetricAggregations: unused,
    getFinancialStatement: unused,
    getProduct: unused,
    listMarketSectors: unused,
    getMarketSector: unused,
    listMetrics: unused,
    getMetricAggregations: unused,
    getMetricsBreakdown: unused,
  };
}

/** One session: an engine with its own memory over the shared saved store. */
function session(
  time: FakeClock,
  store: MemoryBlobStore,
  ns: { value: string | undefined } = { value: "https://metrics.example#abc" }
) {
  const fake = new FakeClient();
  const counter = { lists: 0 };
  const notes: string[] = [];
  const saved = savedEngineCache(
    new PersistentCache({
      store,
      namespace: async () => ns.value,
      timers: time.timers,
      now: time.now,
      onNote: (note) => notes.push(note),
    })
  );
  const engine = new Engine({
    client: engineClient(fake, counter),
    now: time.now,
    timers: time.timers,
    saved,
  });
  return { fake, counter, notes, saved, engine };
}

function q(projectId: string, metricId: string, start: string, end = start): SeriesQuery {
  return {
    projectId,
    metricId,
    start: dayNumber(start),
    end: dayNumber(end),
    variant: DEFAULT_VARIANT,
  };
}

/** Moves the manual clock until the promise settles (reads, the batching window, writes). */
async function settle<T>(time: FakeClock, promise: Promise<T>): Promise<T> {
  let done = false;
  const tracked = promise.finally(() => {
    done = true;
  });
  for (let i = 0; i < 1_000 && !done; i++) await time.advance(10);
  return tracked;
}

function values(answer: SeriesAnswer): Array<number | null> {
  return (answer.dims.get("") ?? []).map((p) => p.value);
}

async function firstSession(time: FakeClock, store: MemoryBlobStore) {
  const s = session(time, store);
  const answer = await settle(time, s.engine.series(q("aave", "fees", "2025-03-01", "2025-03-05")));
  // The batching window and the saved-cache look-up run on the manual clock: the answers came just now.
  const seriesAt = time.now();
  // The look-up's timer (0 ms) fires at this instant, and the list is fetched then.
  const listAt = time.now();
  await settle(time, s.engine.projects());
  await s.saved.flush();
  return { ...s, answer, seriesAt, listAt };
}

describe("engine over a saved cache", () => {
  it("answers a new session on the same day from the saved cache, with no request, flagged as saved", async () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    const store = new MemoryBlobStore();
    const first = await firstSession(time, store);
    expect(first.fake.calls).toHaveLength(1);
    expect(first.answer.restored).toBeUndefined();

    await time.advance(2 * HOUR);
    const second = session(time, store);
    const answer = await settle(
      time,
      second.engine.series(q("aave", "fees", "2025-03-02", "2025-03-04"))
    );
    const projects = await settle(time, second.engine.projects());
    expect(second.fake.calls).toHaveLength(0);
    expect(second.counter.lists).toBe(0);
    expect(values(answer)).toEqual(
      [1, 2, 3].map((i) => fakeValue("aave", "fees", dayNumber("2025-03-01") + i))
    );
    expect(answer.restored).toEqual({ fetchedAt: first.seriesAt });
    expect(answer.servedBy).toEqual(first.answer.servedBy);
    expect(projects).toMatchObject({
      value: PROJECTS,
      cached: true,
      restored: { fetchedAt: first.listAt },
    });
    expect(second.notes).toEqual([]);
  });

  it("asks the service again after the next daily update, and shows the saved values, flagged stale, when it cannot answer", async () => {
    const time = fakeClock(Date.UTC(2026, 10, 20, 22), { held: true });
    const store = new MemoryBlobStore();
    const first = await firstSession(time, store);

    await time.advance(3 * HOUR); // past 00:00 UTC: series are due, the catalogue (24 h) is not
    const second = session(time, store);
    second.fake.failure = new CryptometricsError("network", "the service cannot be reached", {
      operation: "getMetric",
    });
    const answer = await settle(
      time,
      second.engine.series(q("aave", "fees", "2025-03-01", "2025-03-05"))
    );
    expect(second.fake.calls).toHaveLength(1);
    expect(values(answer)).toEqual(values(first.answer));
    expect(answer.stale).toEqual({
      fetchedAt: first.seriesAt,
      reason: "the service cannot be reached",
    });
    const projects = await settle(time, second.engine.projects());
    expect(second.counter.lists).toBe(0);
    expect(projects.value).toEqual(PROJECTS);
  });

  it("does not take saved answers as fresh after a refresh in the new session", async () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    const store = new MemoryBlobStore();
    await firstSession(time, store);
    await time.advance(HOUR);
    const second = session(time, store);
    second.engine.refresh();
    await settle(time, second.engine.series(q("aave", "fees", "2025-03-01", "2025-03-05")));
    await settle(time, second.engine.projects());
    expect(second.fake.calls).toHaveLength(1);
    expect(second.counter.lists).toBe(1);
  });

  it("keeps one service and key apart from another", async () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    const store = new MemoryBlobStore();
    await firstSession(time, store);
    const other = session(time, store, { value: "https://metrics.example#def" });
    await settle(time, other.engine.series(q("aave", "fees", "2025-03-01", "2025-03-05")));
    expect(other.fake.calls).toHaveLength(1);
    expect(other.notes).toEqual([]);
  });

  it("drops a corrupt entry with a note and fetches afresh", async () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    const store = new MemoryBlobStore();
    await firstSession(time, store);
    const [key] = store.keysOf("series");
    store.texts.set(key, store.texts.get(key)!.slice(0, 40));
    const second = session(time, store);
    const answer = await settle(
      time,
      second.engine.series(q("aave", "fees", "2025-03-01", "2025-03-05"))
    );
    expect(second.fake.calls).toHaveLength(1);
    expect(answer.restored).toBeUndefined();
    expect(second.notes).toEqual([
      "Dropped 1 corrupt entry from the saved cache; it is fetched afresh.",
    ]);
    await second.saved.flush();
    expect(JSON.parse(store.texts.get(key)!)).toMatchObject({ format: CACHE_FORMAT });
  });

  it("refuses an entry whose values are not numbers, or that claims another key, or an older format", async () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    const store = new MemoryBlobStore();
    await firstSession(time, store);
    const [series] = store.keysOf("series");
    const [projects] = store.keysOf("entry");
    const tamper = (key: string, change: (envelope: Record<string, unknown>) => void) => {
      const envelope = JSON.parse(store.texts.get(key)!) as Record<string, unknown>;
      change(envelope);
      store.texts.set(key, JSON.stringify(envelope));
    };
    tamper(series, (e) => {
      const body = e.body as { current: { dims: unknown[][] } };
      (body.current.dims[0][2] as unknown[])[0] = "12";
    });
    tamper(projects, (e) => {
      e.version = CACHE_FORMAT_VERSION - 1;
    });
    const second = session(time, store);
    await settle(time, second.engine.series(q("aave", "fees", "2025-03-01", "2025-03-05")));
    await settle(time, second.engine.projects());
    expect(second.fake.calls).toHaveLength(1);
    expect(second.counter.lists).toBe(1);
    expect(second.notes.join(" ")).toMatch(/1 corrupt entry/);
    expect(second.notes.join(" ")).toMatch(/1 old format entry/);
    await second.saved.flush();

    tamper(series, (e) => {
      e.key = "project|uniswap||fees|b||||";
    });
    const third = session(time, store);
    await settle(time, third.engine.series(q("aave", "fees", "2025-03-01", "2025-03-05")));
    expect(third.fake.calls).toHaveLength(1);
    expect(third.notes).toEqual([
      "Dropped 1 foreign entry from the saved cache; it is fetched afresh.",
    ]);
  });

  it("refuses a catalogue whose items are not projects", async () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    const store = new MemoryBlobStore();
    await firstSession(time, store);
    const [projects] = store.keysOf("entry");
    const envelope = JSON.parse(store.texts.get(projects)!) as { body: { value: unknown } };
    envelope.body.value = [{ name: "no id" }];
    store.texts.set(projects, JSON.stringify(envelope));
    const second = session(time, store);
    expect((await settle(time, second.engine.projects())).value).toEqual(PROJECTS);
    expect(second.counter.lists).toBe(1);
  });

  it("goes to the service when the saved cache does not answer, and never fails a cell for it", async () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    const store = new MemoryBlobStore();
    await firstSession(time, store);
    store.failure = "hang";
    const second = session(time, store);
    const answer = await settle(
      time,
      second.engine.series(q("aave", "fees", "2025-03-01", "2025-03-05"))
    );
    expect(values(answer)).toHaveLength(5);
    expect(second.fake.calls).toHaveLength(1);
    expect(second.notes).toEqual([
      "The saved cache could not be read (no answer within 5 s); fetching from the service.",
    ]);

    store.failure = new Error("QuotaExceededError");
    await settle(time, second.engine.series(q("uniswap", "fees", "2025-03-01")));
    await second.saved.flush();
    expect(second.notes[second.notes.length - 1]).toBe(
      "Answers could not be saved on this computer (QuotaExceededError)."
    );
  });

  it("sends the cells the saved cache does not hold together, in no more requests than without it", async () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    const store = new MemoryBlobStore();
    await firstSession(time, store);
    const cells = ["aave", "uniswap"].flatMap((p) =>
      ["fees", "revenue", "tvl"].map((m) => q(p, m, "2025-03-01", "2025-03-05"))
    );
    const recalculate = (engine: Engine) =>
      settle(time, Promise.all(cells.map((c) => engine.series(c))));

    const second = session(time, store);
    // Every cell that needs the service waits for all the look-ups (one wait, shared), so the recalculation
    // reaches the batching window together and the saved answer is not asked for.
    const answers = await recalculate(second.engine);
    cells.forEach((c, i) =>
      expect(values(answers[i])).toEqual(
        Array.from({ length: 5 }, (_, d) => fakeValue(c.projectId, c.metricId, c.start + d))
      )
    );
    const unsaved = session(time, store).fake;
    await recalculate(
      new Engine({
        client: engineClient(unsaved, { lists: 0 }),
        now: time.now,
        timers: time.timers,
      })
    );
    // aave's fees came from the saved cache; the other five went out as the same recalculation does
    // without a saved cache.
    const asked = second.fake.calls.flatMap((c) =>
      c.op === "getMetric"
        ? c.members.map((p) => `${p}/${c.id}`)
        : c.members.map((m) => `${c.id}/${m}`)
    );
    expect(asked.sort()).toEqual([
      "aave/revenue",
      "aave/tvl",
      "uniswap/fees",
      "uniswap/revenue",
      "uniswap/tvl",
    ]);
    expect(second.fake.calls.length).toBeLessThanOrEqual(unsaved.calls.length);
    expect(second.fake.calls.length).toBeGreaterThan(0);
  });

  it("saves nothing and reads nothing without a key", async () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    const store = new MemoryBlobStore();
    const s = session(time, store, { value: undefined });
    await settle(time, s.engine.series(q("aave", "fees", "2025-03-01")));
    await s.saved.flush();
    expect(store.texts.size).toBe(0);
  });

  it("clears every saved entry, including answers not yet written", async () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    const store = new MemoryBlobStore();
    const first = await firstSession(time, store);
    await settle(time, first.engine.series(q("uniswap", "fees", "2025-03-01")));
    await first.saved.clear();
    await first.saved.flush();
    await time.advance(1_000);
    expect(store.texts.size).toBe(0);
  });
});

describe("answers that cannot be written as text", () => {
  it("skips an answer nested too deeply to save, with a note, and saves the rest of its batch", async () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    const store = new MemoryBlobStore();
    const notes: string[] = [];
    const saved = new PersistentCache({
      store,
      namespace: async () => "https://metrics.example#abc",
      timers: time.timers,
      now: time.now,
      onNote: (note) => notes.push(note),
    });
    // What a hostile service can send in an open member: JSON.parse reads it, JSON.stringify overflows.
    const depth = 20_000;
    const deep: unknown = JSON.parse(`${'{"by":'.repeat(depth)}"chain"${"}".repeat(depth)}`);
    saved.schedule("details", "deep", () => ({ detail: deep }));
    saved.schedule("details", "plain", () => ({ detail: { by: "chain" } }));
    await saved.flush();
    expect([...store.texts.keys()].map((k) => k.split("\u001f").pop())).toEqual(["plain"]);
    expect(notes).toEqual([
      "1 answer is nested too deeply or too large to save on this computer; kept for this session only.",
    ]);
  });
});
