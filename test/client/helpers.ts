/** Test doubles for the client: a virtual clock, captured timers, and a scripted fetch. */
import { readFileSync } from "fs";
import { join } from "path";
import {
  createClient,
  type ClientConfig,
  type ClientEvent,
  type FetchInitLike,
  type FetchLike,
  type FetchResponseLike,
  type Sleep,
  type Timers,
} from "../../src/client";

export const API_KEY = "sk_live_TEST_9f8e7d6c5b4a";

/** Virtual time: sleeping advances the clock at once, and records how long it was asked to sleep. */
export function virtualClock(start = Date.UTC(2024, 5, 1, 12)) {
  let t = start;
  const sleeps: number[] = [];
  const sleep: Sleep = async (ms, signal) => {
    if (signal?.aborted) throw signal.reason;
    sleeps.push(ms);
    // Let everything already due run at the current time before time moves on.
    await new Promise((resolve) => setImmediate(resolve));
    t += ms;
    if (signal?.aborted) throw signal.reason;
  };
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
    sleep,
    sleeps,
  };
}

/** Timers that never fire by themselves: tests fire them, so nothing waits for real. */
export function capturedTimers() {
  let next = 1;
  const pending = new Map<number, { fn: () => void; ms: number }>();
  const timers: Timers = {
    setTimeout: (fn, ms) => {
      const id = next++;
      pending.set(id, { fn, ms });
      return id;
    },
    clearTimeout: (handle) => {
      pending.delete(handle as number);
    },
  };
  return {
    timers,
    pending: () => [...pending.values()].map((p) => p.ms),
    /** Wait (a few event-loop turns at most) until a timer of `ms` is set, then fire it. */
    async fireWhenSet(ms: number): Promise<void> {
      for (let i = 0; i < 50; i++) {
        if ([...pending.values()].some((p) => p.ms === ms)) break;
        await tick();
      }
      if (this.fire(ms) === 0) throw new Error(`no timer of ${ms} ms was set`);
    },
    /** Fire every pending timer set for exactly `ms`. */
    fire(ms: number): number {
      let fired = 0;
      for (const [id, p] of [...pending]) {
        if (p.ms !== ms) continue;
        pending.delete(id);
        p.fn();
        fired++;
      }
      return fired;
    },
  };
}

export interface RecordedRequest {
  url: string;
  init: FetchInitLike;
}

type Reply = FetchResponseLike | Error | ((req: RecordedRequest) => Promise<FetchResponseLike>);

/**
 * A fetch answering from a script, one reply per request (the last reply repeats). Records every
 * request it receives.
 */
export function scriptedFetch(...replies: Reply[]) {
  const requests: RecordedRequest[] = [];
  const fetch: FetchLike = async (url, init) => {
    const req = { url, init: { ...init, headers: { ...init.headers } } };
    requests.push(req);
    const reply = replies.length > 1 ? replies.shift() : replies[0];
    if (reply === undefined) throw new Error("scriptedFetch: no reply scripted");
    if (reply instanceof Error) throw reply;
    if (typeof reply === "function") return reply(req);
    // A repeated reply is served as a fresh copy: a body can be read once only.
    return reply instanceof Response ? reply.clone() : reply;
  };
  return { fetch, requests };
}

/** A fetch that never answers until its signal aborts (a hung server). */
export function hangingFetch() {
  const requests: RecordedRequest[] = [];
  const fetch: FetchLike = (url, init) => {
    requests.push({ url, init });
    return new Promise((_resolve, reject) => {
      init.signal.addEventListener("abort", () => reject(new Error("The operation was aborted")));
    });
  };
  return { fetch, requests };
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

export function text(body: string, status: number, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers });
}

export function redirect(status: number, location: string): Response {
  return new Response(null, { status, headers: { location } });
}

export function fixture(name: string): unknown {
  const path = join(__dirname, "..", "fixtures", "client", name);
  return JSON.parse(readFileSync(path, "utf8")) as unknown;
}

export function fixtureText(name: string): string {
  return readFileSync(join(__dirname, "..", "fixtures", "client", name), "utf8");
}

/** Resolves on the next macrotask: lets pending promise chains run. */
export function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A client on a virtual clock with a generous limiter: nothing in a unit test waits for real. */
export function testClient(fetch: FetchLike, overrides: Partial<ClientConfig> = {}) {
  const clock = virtualClock();
  const timers = capturedTimers();
  const events: ClientEvent[] = [];
  const client = createClient({
    baseUrl: "https://api.example.test",
    apiKey: API_KEY,
    fetch,
    now: clock.now,
    sleep: clock.sleep,
    timers: timers.timers,
    random: () => 0,
    rateLimit: { limit: 1000, windowMs: 60_000 },
    listeners: [(e) => events.push(e)],
    ...overrides,
  });
  return { client, clock, timers, events };
}
