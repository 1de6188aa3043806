/**
 * New settings end the old runtime's work: what was in flight for the old service address or key is
 * cancelled (its requests aborted, no retry), and nothing more is sent there. The engine's catalogue load
 * and a retrying call alike, with real timers and a fetch that never answers (a silent service).
 */
import type { FetchLike } from "../../src/client";
import { ClientLifetime, CryptometricsError } from "../../src/client";
import { Diagnostics } from "../../src/runtime/diagnostics";
import { Runtime } from "../../src/runtime/runtime";
import { testClient, hangingFetch, json } from "../client/helpers";

/** A fetch that records each request and answers 503 (the client retries those). */
function failingFetch(): { fetch: FetchLike; sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    fetch: async (url) => {
      sent.push(url);
      return json({ message: "unavailable" }, 503);
    },
  };
}

test("a client's lifetime, once over, cancels its calls in flight and refuses new ones before sending", async () => {
  const { fetch, requests } = hangingFetch();
  const lifetime = new ClientLifetime();
  const { client } = testClient(fetch, { lifetime });
  const pending = client.listProjects();
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(requests).toHaveLength(1);
  lifetime.end();
  await expect(pending).rejects.toMatchObject({ kind: "cancelled" });
  expect(requests[0].init.signal.aborted).toBe(true);
  await expect(client.listMetrics()).rejects.toBeInstanceOf(CryptometricsError);
  expect(requests).toHaveLength(1);
});

test("disposing a runtime (new settings) stops its retries: no request reaches the old service after it", async () => {
  const { fetch, sent } = failingFetch();
  const runtime = new Runtime(
    {
      baseUrl: "https://old.example.com",
      apiKey: "old_key",
      fetch,
      client: { retry: { baseDelayMs: 20, maxDelayMs: 20 } },
    },
    new Diagnostics(Date.now, 60)
  );
  const load = runtime.engine.projects();
  // Let it fail and retry a few times.
  while (sent.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
  runtime.dispose();
  const stoppedAt = sent.length;
  await expect(load).rejects.toMatchObject({ kind: "cancelled" });
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(sent.length).toBe(stoppedAt);
});
