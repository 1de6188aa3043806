/**
 * At most maxInFlight exchanges at once (6 by default): the others wait their turn in order, and an
 * attempt's time-out starts only once it holds a slot, so a queue of big answers cannot time out together.
 */
import { createClient, DEFAULT_LIMITS, type FetchLike } from "../../src/client";
import { InFlightLimit } from "../../src/client/http/in-flight";
import { json, testClient, tick } from "./helpers";

/** A fetch whose answers the test releases one by one; counts how many are open at once. */
function gatedFetch() {
  const gates: Array<() => void> = [];
  let open = 0;
  let most = 0;
  const fetch: FetchLike = () =>
    new Promise((resolve) => {
      open++;
      most = Math.max(most, open);
      gates.push(() => {
        open--;
        resolve(json({ data: [] }));
      });
    });
  return {
    fetch,
    waiting: () => gates.length,
    most: () => most,
    releaseOne: () => gates.shift()?.(),
  };
}

describe("exchanges in flight", () => {
  it("runs at most 6 at once by default, the rest in order as slots free", async () => {
    expect(DEFAULT_LIMITS.maxInFlight).toBe(6);
    const gate = gatedFetch();
    const { client, events } = testClient(gate.fetch);
    const calls = Array.from({ length: 20 }, (_, i) =>
      client.getProjectMetricAggregations(`p${i}`)
    );
    for (let i = 0; i < 5; i++) await tick();
    expect(gate.waiting()).toBe(6);
    const started = () =>
      events.filter((e) => e.type === "request").map((e) => (e as { url: string }).url);
    expect(started()).toHaveLength(6);
    while (gate.waiting() > 0) {
      gate.releaseOne();
      for (let i = 0; i < 5; i++) await tick();
    }
    await Promise.all(calls);
    expect(gate.most()).toBe(6);
    // First come, first served: p0…p19 started in the order they were asked.
    expect(started().map((u) => /projects\/(p\d+)/.exec(u)?.[1])).toEqual(
      Array.from({ length: 20 }, (_, i) => `p${i}`)
    );
  });

  it("starts an attempt's time-out only once it holds a slot", async () => {
    const gate = gatedFetch();
    const { client, timers } = testClient(gate.fetch, { maxInFlight: 1, timeoutMs: 5_000 });
    const first = client.getProjectMetricAggregations("a");
    const second = client.getProjectMetricAggregations("b");
    for (let i = 0; i < 5; i++) await tick();
    // One exchange runs with its time-out; the second waits without one.
    expect(timers.pending().filter((ms) => ms === 5_000)).toHaveLength(1);
    gate.releaseOne();
    await first;
    for (let i = 0; i < 5; i++) await tick();
    expect(timers.pending().filter((ms) => ms === 5_000)).toHaveLength(1);
    gate.releaseOne();
    await second;
  });

  it("lets a call cancelled while it waits for a slot go, without taking one", async () => {
    const gate = gatedFetch();
    const { client } = testClient(gate.fetch, { maxInFlight: 1 });
    const first = client.getProjectMetricAggregations("a");
    const controller = new AbortController();
    const second = client.getProjectMetricAggregations("b", { signal: controller.signal });
    const third = client.getProjectMetricAggregations("c");
    for (let i = 0; i < 5; i++) await tick();
    controller.abort();
    await expect(second).rejects.toMatchObject({ kind: "cancelled" });
    gate.releaseOne();
    await first;
    for (let i = 0; i < 5; i++) await tick();
    expect(gate.waiting()).toBe(1); // "c" took the slot, not the cancelled "b"
    gate.releaseOne();
    await third;
  });

  it("refuses a limit that is not a positive whole number, before any request", () => {
    expect(() =>
      createClient({ baseUrl: "https://api.example.test", apiKey: "k", maxInFlight: 0 })
    ).toThrow(/maxInFlight/);
    expect(() => new InFlightLimit(2.5)).toThrow(RangeError);
  });

  it("releases a slot once, however often its holder says so", async () => {
    const limit = new InFlightLimit(1);
    const release = await limit.acquire();
    const waiting = limit.acquire();
    release();
    release();
    const next = await waiting;
    expect(limit.state).toEqual({ active: 1, waiting: 0 });
    next();
    expect(limit.state).toEqual({ active: 0, waiting: 0 });
  });
});
