/** The diagnostics record of a long session: what it keeps does not grow with the number of requests. */
import { Diagnostics } from "../../src/runtime/diagnostics";

describe("diagnostics over a long session", () => {
  it("keeps only the last minute of request times, even when nobody reads the usage meter", () => {
    let now = Date.UTC(2026, 10, 20);
    const diagnostics = new Diagnostics(() => now, 60);
    const request = {
      type: "request" as const,
      operation: "getMetric",
      method: "GET" as const,
      url: "/v2/metrics/fees",
      attempt: 1,
      at: 0,
    };
    // A million requests, one every 100 ms (more than a month at the documented limit's pace).
    for (let i = 0; i < 1_000_000; i++) {
      now += 100;
      diagnostics.onClientEvent(request);
    }
    // What is held, counted (heap readings without a forced GC are noise): a minute's worth of times.
    expect(diagnostics.retained().requestTimes).toBeLessThanOrEqual(600);
    expect(diagnostics.usage()).toMatchObject({
      requestsLastMinute: 600,
      requestsTotal: 1_000_000,
    });
  });
});
