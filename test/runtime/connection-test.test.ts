/**
 * "Test connection" in plain words: the real client against the simulator over loopback for a valid and a
 * rejected key, a scripted fetch (fixture body) for the statuses the simulator does not send, a closed port
 * for "unreachable". Virtual sleeps: the client's retries cost no real time.
 */
import { readFileSync } from "fs";
import { createServer } from "net";
import { join } from "path";
import { createClient, CryptometricsError, type FetchLike } from "../../src/client";
import { DEMO_API_KEY, startSimulator, type RunningSimulator } from "../../src/simulator";
import { describeFailure, testConnection } from "../../src/runtime/connection-test";

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
    message: `Valid key: connected to ${sim.url}/ (25 metrics available). It is the local simulator: demo data, not real figures.`,
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
    /^Unreachable: no answer from the service at http:\/\/127\.0\.0\.1:\d+\/ \(network error\)/
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
    message: "Not set up: no service URL is set: open the Cryptometrics taskpane.",
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
  expect(e("server").message).toBe(
    "The service at https://x.example had a problem (listMetrics: boom). Try again later."
  );
  expect(e("malformed-response").message).toMatch(/not like the metrics service/);
  expect(describeFailure(new Error("weird"), "")).toMatchObject({ verdict: "service-problem" });
});
