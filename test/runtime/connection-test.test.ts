/**
 * "Test connection" in plain words: the real client against the simulator over loopback for a valid and a
 * rejected key, a scripted fetch (fixture body) for the statuses the simulator does not send, a closed port
 * for "unreachable". Virtual sleeps: the client's retries cost no real time.
 */
import { readFileSync } from "fs";
import { createServer } from "net";
import { join } from "path";
import { createClient, createSleep, CryptometricsError, type FetchLike } from "../../src/client";
import { DEMO_API_KEY, startSimulator, type RunningSimulator } from "../../src/simulator";
import {
  CONNECTION_TEST_LIMITS,
  describeFailure,
  testConnection,
  type ConnectionOutcome,
} from "../../src/runtime/connection-test";
import { fakeClock, type FakeClock, MIDDAY_2026 } from "../support/clock";

const noWait = async (): Promise<void> => undefined;
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, rateLimit: null });
});
afterAll(() => sim.close());

const client = (apiKey: string, baseUrl = sim.url, fetch?: FetchLike) =>
  createClient({ baseUrl, apiKey, sleep: noWait, fetch, retry: { maxAttempts: 2 } });

test("a valid key: connected, how many metrics, and that the simulator is demo data", async () => {
  const outcome = await testConnection(async () => client(DEMO_API_KEY));
  expect(outcome).toEqual({
    verdict: "valid",
    simulated: true,
    message: `Valid key: connected to ${sim.url}/ (27 metrics available). It is the local simulator: demo data, not real figures.`,
  });
});

test("a wrong key: rejected (401), and the key appears nowhere in the words", async () => {
  const wrong = "cm_wrong_key_123456789";
  const outcome = await testConnection(async () => client(wrong));
  expect(outcome.verdict).toBe("key-rejected");
  expect(outcome.message).toMatch(
    /^Key rejected: the service at http:\/\/127\.0\.0\.1:\d+\/ refused it \(401\)/
  );
  expect(outcome.message).not.toContain(wrong);
});

test("402 and 403: a subscription problem", async () => {
  const body = readFileSync(join(__dirname, "../fixtures/taskpane/subscription-402.json"), "utf8");
  for (const status of [402, 403]) {
    const fetch: FetchLike = async () =>
      new Response(body, { status, headers: { "content-type": "application/json" } });
    const outcome = await testConnection(async () =>
      client(DEMO_API_KEY, "https://metrics.example.com", fetch)
    );
    expect(outcome).toMatchObject({ verdict: "subscription" });
    expect(outcome.message).toContain(`(${status})`);
  }
});

test("nothing listening: unreachable, in words that point at the URL and the connection", async () => {
  const port = await new Promise<number>((done) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => done(free));
    });
  });
  const outcome = await testConnection(async () =>
    client(DEMO_API_KEY, `http://127.0.0.1:${port}`)
  );
  expect(outcome.verdict).toBe("unreachable");
  expect(outcome.message).toMatch(
    /^Unreachable: no answer from the service at http:\/\/127\.0\.0\.1:\d+\/ \(network error\)\. Check the service address/
  );
});

test("no runtime yet (no URL) and no key: 'not set up', saying what to do", async () => {
  const noUrl = await testConnection(async () => {
    throw new CryptometricsError(
      "invalid-input",
      "no service URL is set: open the Cryptometrics taskpane",
      {
        operation: "configure",
      }
    );
  });
  expect(noUrl).toEqual({
    verdict: "not-configured",
    message: "Not set up: enter the service address and save it first.",
  });
  const noKey = await testConnection(async () => client(""));
  expect(noKey.verdict).toBe("not-configured");
  expect(noKey.message).toMatch(
    /^No usable API key: no API key is set\. Paste your key above and save it\.$/
  );
});

test("every other kind is a plain 'service problem' sentence", () => {
  const e = (kind: "rate-limited" | "server" | "malformed-response") =>
    describeFailure(
      new CryptometricsError(kind, "listMetrics: boom", { operation: "listMetrics" }),
      "https://x.example"
    );
  expect(e("rate-limited").message).toMatch(/rate-limiting/);
  // Plain words: no client operation names, no raw message.
  expect(e("server").message).toBe(
    "The service at https://x.example had a problem. Try again later."
  );
  expect(e("malformed-response").message).toMatch(/not like the metrics service/);
  expect(describeFailure(new Error("weird"), "")).toMatchObject({ verdict: "service-problem" });
});

describe("the test's own policy: a verdict within 3 seconds", () => {
  /** A service that accepts the request and never answers (the fetch settles only when aborted). */
  const hanging: FetchLike = (_url, init) =>
    new Promise((_resolve, reject) => {
      init.signal?.addEventListener("abort", () => reject(new Error("aborted")));
    });
  const probe = (time: FakeClock, fetch: FetchLike) =>
    createClient({
      baseUrl: "https://metrics.example.com",
      apiKey: DEMO_API_KEY,
      fetch,
      now: time.now,
      timers: time.timers,
      sleep: createSleep(time.timers),
      ...CONNECTION_TEST_LIMITS,
    });

  test("a service that never answers is 'unreachable' at 2.8 s of the clock, not after the full retry budget", async () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    let outcome: ConnectionOutcome | undefined;
    void testConnection(async () => probe(time, hanging)).then((o) => (outcome = o));
    await time.advance(2_799);
    expect(outcome).toBeUndefined();
    await time.advance(1);
    expect(outcome).toMatchObject({ verdict: "unreachable" });
    expect(outcome?.message).toMatch(/no answer in time/);
  });

  test("a refused connection is 'unreachable' after one short retry", async () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    let calls = 0;
    const refused: FetchLike = async () => {
      calls++;
      throw new TypeError("fetch failed");
    };
    let outcome: ConnectionOutcome | undefined;
    void testConnection(async () => probe(time, refused)).then((o) => (outcome = o));
    await time.advance(200);
    expect(outcome).toMatchObject({ verdict: "unreachable" });
    expect(calls).toBe(2);
  });

  test("the policy is the client's ordinary options: two attempts, 2.5 s each, 2.8 s in all", () => {
    expect(CONNECTION_TEST_LIMITS).toMatchObject({
      retry: { maxAttempts: 2 },
      timeoutMs: 2_500,
      deadlineMs: 2_800,
    });
  });
});

test("an address that answers 404 for the catalogue, or unlike the service, is a wrong address, not 'try later'", () => {
  for (const kind of ["not-found", "malformed-response"] as const) {
    const outcome = describeFailure(
      new CryptometricsError(kind, "listMetrics(): boom", {
        operation: "listMetrics",
        status: 404,
      }),
      "https://x.example/v2"
    );
    expect(outcome.verdict).toBe("wrong-address");
    expect(outcome.message).toMatch(
      /^Wrong address: .* at https:\/\/x\.example\/v2.*address below/
    );
    expect(outcome.message).not.toMatch(/later/);
  }
});
