/**
 * A workbook's world on virtual time: the simulator over real HTTP on loopback, the shared runtime (client,
 * limiter, engine, diagnostics) configured as the Excel page configures it, and a record of what the client
 * did. Used by `npm run faults`, `npm run soak` and the reliability tests.
 */
import { createSleep, type ClientEvent, type FetchLike } from "../../../src/client";
import type { EngineOptions } from "../../../src/engine/engine";
import { configureRuntime, type Runtime } from "../../../src/runtime/runtime";
import { EXCEL_STAND_IN, installHost } from "../../../src/sheet/host";
import {
  DEMO_API_KEY,
  startSimulator,
  type RateLimitKnob,
  type RunningSimulator,
  type SimulatorKnobs,
} from "../../../src/simulator";
import { fakeClock, type FakeClock } from "../../support/clock";
import { drive, idle, type DriverLimits } from "./driver";
import { trackFetch, type TrackedFetch } from "./tracked-fetch";

/** 2026-11-20 12:00 UTC: midday, so hours of faults stay within one service day. */
export const LAB_START = Date.UTC(2026, 10, 20, 12);

/** What a runtime is configured with: the user's settings and the engine's options. */
export interface RuntimeOptions {
  /** Another service than the lab's simulator (a test's own loopback server). */
  baseUrl?: string;
  /** The client's limit (the taskpane's setting). Default 60, the service's documented limit. */
  rateLimitPerMinute?: number;
  engine?: Partial<EngineOptions>;
  apiKey?: string;
  /** Seed of the client's backoff jitter. Default 1. */
  seed?: number;
  /** Wraps the tracked fetch (tests observe what goes on the wire). */
  wrapFetch?: (fetch: FetchLike) => FetchLike;
}

interface LabOptions extends RuntimeOptions {
  start?: number;
  /** The service's own limit. Default none: scenarios turn it on. */
  serviceRateLimit?: RateLimitKnob | null;
  /** Keep the simulator's request log this short (long runs). */
  maxLogEntries?: number;
  /** Keys the simulator accepts. Default: the demo key, or `apiKey` when one is given. */
  serviceKeys?: string[];
}

export interface RequestStart {
  at: number;
  url: string;
}

export interface Lab {
  readonly sim: RunningSimulator;
  readonly time: FakeClock;
  readonly io: TrackedFetch;
  /** The shared runtime; replaced by reset(). */
  readonly runtime: Runtime;
  /** A fresh runtime (empty caches, new limiter) on the same simulator and clock; events cleared. */
  reset(options?: RuntimeOptions): Runtime;
  /** Client events since the last clearEvents() (request starts are also kept in `starts`). */
  readonly events: ClientEvent[];
  /** Every request start the client made, with its virtual time: the rate the limiter let through. */
  readonly starts: RequestStart[];
  clearEvents(): void;
  /** Simulator knobs, with hanging paths parked so they do not hold virtual time still. */
  setKnobs(knobs: Partial<SimulatorKnobs>): void;
  drive<T>(work: Promise<T>, limits?: DriverLimits): Promise<T>;
  /** Runs whatever is due now. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** Seeded jitter, so a scenario's backoff schedule is the same on every run. */
function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hangs(knob: SimulatorKnobs["hang"]): (url: string) => boolean {
  if (knob === true) return () => true;
  if (knob instanceof RegExp) {
    return (url) => {
      knob.lastIndex = 0;
      return knob.test(new URL(url).pathname);
    };
  }
  return () => false;
}

export async function openLab(options: LabOptions = {}): Promise<Lab> {
  installHost(EXCEL_STAND_IN);
  // Virtual time for whole-workbook runs over real HTTP: a clock and timers that move only when the driver
  // (driver.ts) says so. The client's per-attempt time-outs, its call deadline, backoff waits, the rate
  // limiter's windows, the engine's batching window and the simulator's own clock all read this one clock, so
  // a two-minute deadline or a one-minute rate-limit window costs no real time, and every duration measured in
  // it is what a user would have waited. It is the tests' held fake clock; sleeps are the client's own
  // createSleep over its timers, as in production, and unrecorded, so a soak's memory stays flat.
  const time = fakeClock(options.start ?? LAB_START, { held: true });
  const sleep = createSleep(time.timers);
  const sim = await startSimulator({
    port: 0,
    now: time.now,
    rateLimit: options.serviceRateLimit ?? null,
    seed: options.seed ?? 1,
    apiKeys: options.serviceKeys ?? [options.apiKey ?? DEMO_API_KEY],
    ...(options.maxLogEntries === undefined ? {} : { maxLogEntries: options.maxLogEntries }),
  });
  const io = trackFetch(globalThis.fetch.bind(globalThis));
  const events: ClientEvent[] = [];
  const starts: RequestStart[] = [];
  const configure = (o: RuntimeOptions): Runtime => {
    events.length = 0;
    starts.length = 0;
    const runtime = configureRuntime({
      baseUrl: o.baseUrl ?? sim.url,
      apiKey: o.apiKey ?? DEMO_API_KEY,
      fetch: o.wrapFetch ? o.wrapFetch(io.fetch) : io.fetch,
      now: time.now,
      timers: time.timers,
      sleep,
      rateLimitPerMinute: o.rateLimitPerMinute ?? 60,
      client: { random: seededRandom(o.seed ?? 1) },
      engine: o.engine,
    });
    runtime.client.subscribe((event) => {
      events.push(event);
      if (event.type === "request") starts.push({ at: event.at, url: event.url });
    });
    return runtime;
  };
  let runtime = configure(options);
  let knobs: Partial<SimulatorKnobs> = {};
  const env = { time, io };
  return {
    sim,
    time,
    io,
    get runtime() {
      return runtime;
    },
    reset: (o = {}) => (runtime = configure(o)),
    events,
    starts,
    clearEvents: () => {
      events.length = 0;
    },
    setKnobs: (update) => {
      knobs = { ...knobs, ...update };
      io.park(hangs(knobs.hang));
      sim.setKnobs(update);
    },
    drive: (work, limits) => drive(env, work, limits),
    idle: () => idle(env),
    close: async () => {
      runtime.dispose();
      await sim.close();
    },
  };
}

/** The most request starts found in any window of `windowMs` (sliding over every start). */
export function busiestWindow(starts: readonly RequestStart[], windowMs: number): number {
  const times = starts.map((s) => s.at).sort((a, b) => a - b);
  let best = 0;
  let from = 0;
  for (let to = 0; to < times.length; to++) {
    while (times[to] - times[from] >= windowMs) from++;
    best = Math.max(best, to - from + 1);
  }
  return best;
}
