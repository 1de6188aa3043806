/** Test doubles for the client: a scripted fetch, fixtures, and a client on a fake clock. */
import { readFileSync } from "fs";
import { join } from "path";
import {
  createClient,
  type ClientConfig,
  type ClientEvent,
  type FetchInitLike,
  type FetchLike,
  type FetchResponseLike,
} from "../../src/client";
import { capturedTimers, fakeClock } from "../support/clock";

export const API_KEY = "sk_live_TEST_9f8e7d6c5b4a";

interface RecordedRequest {
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

/** A client on a fake clock (instant sleeps) with a generous limiter: nothing in a unit test waits for real. */
export function testClient(fetch: FetchLike, overrides: Partial<ClientConfig> = {}) {
  const clock = fakeClock();
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
