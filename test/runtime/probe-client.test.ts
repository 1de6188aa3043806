/**
 * The connection test's client: same service, same rate limiter and diagnostics as the runtime's own client,
 * its own short policy, and a key that is only being tried (never stored by the runtime).
 */
import type { FetchLike } from "../../src/client";
import { Runtime } from "../../src/runtime/runtime";
import { Diagnostics } from "../../src/runtime/diagnostics";
import { CONNECTION_TEST_LIMITS } from "../../src/runtime/connection-test";

test("a probe sends the key being tried, counts against the shared budget, and reaches the diagnostics", async () => {
  const sent: { url: string; auth: string }[] = [];
  const fetch: FetchLike = async (url, init) => {
    sent.push({ url, auth: init.headers.authorization ?? init.headers.Authorization ?? "" });
    return new Response(JSON.stringify({ data: [] }), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  };
  const diagnostics = new Diagnostics(Date.now, 60);
  const runtime = new Runtime(
    { baseUrl: "https://metrics.example.com", apiKey: "stored_key_1", fetch },
    diagnostics
  );
  const probe = runtime.probeClient(CONNECTION_TEST_LIMITS, "candidate_key_2");
  await probe.listMetrics();
  expect(sent).toEqual([
    { url: "https://metrics.example.com/v2/metrics", auth: "Bearer candidate_key_2" },
  ]);
  expect(runtime.client.limiter).toBe(probe.limiter);
  expect(runtime.client.limiter.stats().used).toBe(1);
  expect(diagnostics.usage().requestsTotal).toBe(1);

  await runtime.probeClient(CONNECTION_TEST_LIMITS).listMetrics();
  expect(sent[1].auth).toBe("Bearer stored_key_1");
  runtime.dispose();
});
