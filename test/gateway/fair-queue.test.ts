import { FairQueue } from "../../src/gateway/fair-queue";
import { fakeClock, MIDDAY_2026 } from "../support/clock";

const take = (queue: FairQueue<string>): string[] => {
  const batch = queue.next();
  return batch ? batch.map((d) => d.payload) : [];
};

describe("the fetch queue's turns", () => {
  it("serves users in turn, a user who was not waiting next in line: an idle user's first need goes first", () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    const queue = new FairQueue<string>({ now: time.now });
    for (const n of ["a1", "a2", "a3", "a4"]) queue.join("alice", n, n, 1, () => n);
    expect(take(queue)).toEqual(["a1"]);
    queue.join("bob", "b1", "b1", 1, () => "b1");
    // Bob was idle: his first need is next, before Alice's three others.
    expect([take(queue), take(queue), take(queue), take(queue)]).toEqual([
      ["b1"],
      ["a2"],
      ["a3"],
      ["a4"],
    ]);
    expect(queue.queued).toBe(0);
  });

  it("gives each greedy user a turn and a newcomer the next one, whatever the others queued", () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    const queue = new FairQueue<string>({ now: time.now });
    for (let i = 0; i < 60; i++) {
      queue.join("alice", `a${i}`, `a${i}`, 1, () => `a${i}`);
      queue.join("bob", `b${i}`, `b${i}`, 1, () => `b${i}`);
    }
    const first = [take(queue), take(queue), take(queue), take(queue)].flat();
    expect(first.filter((n) => n.startsWith("a"))).toHaveLength(2);
    expect(first.filter((n) => n.startsWith("b"))).toHaveLength(2);
    queue.join("carol", "c1", "c1", 1, () => "c1");
    expect(take(queue)).toEqual(["c1"]);
  });

  it("refuses a user past their bound with 429 and Retry-After, queueing nothing of it", () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    const queue = new FairQueue<string>({ now: time.now, maxNeedsPerUser: 5 });
    queue.join("alice", "k1", "g", 4, () => "k1");
    expect(() => queue.join("alice", "k2", "g", 2, () => "k2")).toThrow(
      expect.objectContaining({ status: 429, retryAfterSeconds: expect.any(Number) })
    );
    expect(queue.needsOf("alice")).toBe(4);
    // Others are not bound by Alice's queue.
    queue.join("bob", "k1", "g", 5, () => "b");
    expect(queue.queued).toBe(2);
  });

  it("joins the same request of the same user instead of queueing it twice", () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    const queue = new FairQueue<string>({ now: time.now });
    const a = queue.join("alice", "same", "g", 3, () => "first");
    const b = queue.join("alice", "same", "g", 3, () => "second");
    expect(b.demand).toBe(a.demand);
    expect(a.demand.waiters).toBe(2);
    expect(queue.needsOf("alice")).toBe(3);
  });

  it("drops a demand at once when its callers hang up, and one nobody came back for after its time", async () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    const queue = new FairQueue<string>({ now: time.now, unwaitedTtlMs: 60_000 });
    const gone = queue.join("alice", "gone", "g", 1, () => "gone");
    gone.leave(true);
    await expect(gone.demand.settled).resolves.toEqual({ fetched: false });
    expect(queue.queued).toBe(0);

    const held = queue.join("alice", "held", "g", 1, () => "held");
    held.leave(false); // answered "try again": it stays for the caller's retry
    expect(queue.queued).toBe(1);
    const again = queue.join("alice", "held", "g", 1, () => "held");
    expect(again.demand).toBe(held.demand);
    again.leave(false);
    time.jump(60_001);
    expect(queue.next()).toBeUndefined();
    await expect(held.demand.settled).resolves.toEqual({ fetched: false });
  });

  it("sends other users' demands of the same group in the same request, as far as it holds them", () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    const queue = new FairQueue<string>({ now: time.now });
    queue.join("alice", "a", "fees/day", 1, () => "a");
    queue.join("bob", "b", "fees/day", 1, () => "b");
    queue.join("carol", "c", "fees/day", 1, () => "c");
    queue.join("dave", "d", "tvl/day", 1, () => "d");
    const batch = queue.next((taken) => taken.length < 2);
    expect(batch?.map((d) => d.payload)).toEqual(["a", "b"]);
    expect(queue.queued).toBe(2);
  });
});
