/** The fake clock's edges that the client's tests do not reach on their own. */
import { fakeClock } from "./clock";

describe("fake clock", () => {
  it("passes an instant sleep at once, moving the clock by its length, and records it", async () => {
    const clock = fakeClock(1000);
    await clock.sleep(250);
    clock.jump(50);
    expect([clock.now(), clock.sleeps]).toEqual([1300, [250]]);
    await expect(clock.sleep(10, AbortSignal.abort(new Error("gone")))).rejects.toThrow("gone");
    expect(clock.sleeps).toEqual([250]);
  });

  it("holds a sleep until it is woken, then moves the clock to its due time, never back", async () => {
    const clock = fakeClock(0, { held: true });
    let woke = false;
    const sleeping = clock.sleep(500).then(() => (woke = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect([woke, clock.now()]).toEqual([false, 0]);
    clock.jump(800);
    clock.lastHeld().wake();
    await sleeping;
    expect(clock.now()).toBe(800);
  });

  it("rejects a held sleep with its signal's reason, at once if already aborted, and leaves it to no waker", async () => {
    const clock = fakeClock(0, { held: true });
    await expect(clock.sleep(10, AbortSignal.abort(new Error("before")))).rejects.toThrow("before");
    expect(clock.held).toHaveLength(0);
    const controller = new AbortController();
    const sleeping = clock.sleep(100, controller.signal);
    controller.abort(new Error("during"));
    await expect(sleeping).rejects.toThrow("during");
    clock.lastHeld().wake();
    expect(clock.now()).toBe(0);
    // drive() has nobody left to wake: work that needs no sleep settles.
    await expect(clock.drive(Promise.resolve("done"))).resolves.toBe("done");
  });

  it("drives held sleeps in time order, the first begun first among equals", async () => {
    const clock = fakeClock(0, { held: true });
    const order: string[] = [];
    const nap = (name: string, ms: number) =>
      clock.sleep(ms).then(() => void order.push(`${name}@${clock.now()}`));
    await clock.drive(Promise.all([nap("c", 300), nap("a", 100), nap("b", 100), nap("d", 0)]));
    expect(order).toEqual(["d@0", "a@100", "b@100", "c@300"]);
  });

  it("fires a timer when the clock passes it, and never one that was cleared", async () => {
    const clock = fakeClock(0, { held: true });
    const fired: number[] = [];
    clock.timers.setTimeout(() => fired.push(200), 200);
    const cleared = clock.timers.setTimeout(() => fired.push(100), 100);
    clock.timers.clearTimeout(cleared);
    await clock.drive(clock.sleep(300));
    expect([fired, clock.now()]).toEqual([[200], 300]);
  });

  it("fires held timers in due order, moving the clock to each, and never one that was cleared", () => {
    const time = fakeClock(1_000, { held: true });
    const fired: Array<[string, number]> = [];
    time.timers.setTimeout(() => fired.push(["b", time.now()]), 200);
    time.timers.setTimeout(() => fired.push(["a", time.now()]), 100);
    const cleared = time.timers.setTimeout(() => fired.push(["never", time.now()]), 150);
    time.timers.clearTimeout(cleared);
    while (time.fireNext());
    expect(fired).toEqual([
      ["a", 1_100],
      ["b", 1_200],
    ]);
    expect(time.timersPending).toBe(0);
  });

  it("runs timers that a jump made due, late but in order, and never moves backwards", () => {
    const time = fakeClock(0, { held: true });
    const fired: number[] = [];
    time.timers.setTimeout(() => fired.push(time.now()), 10);
    time.jump(86_400_000);
    time.fireNext();
    expect(fired).toEqual([86_400_000]);
    expect(() => time.jump(-1)).toThrow(RangeError);
  });

  it("advances through due timers and sleeps in time order, firing one set on the way, none past the end", async () => {
    const clock = fakeClock(0, { held: true });
    const fired: string[] = [];
    const at = (name: string) => () => void fired.push(`${name}@${clock.now()}`);
    clock.timers.setTimeout(() => {
      at("b")();
      // Set while time passes, due before the end: it fires within the same advance.
      clock.timers.setTimeout(at("c"), 50);
    }, 200);
    clock.timers.setTimeout(at("a"), 100);
    clock.timers.setTimeout(at("late"), 1_000);
    void clock.sleep(Number.NaN).then(at("nan"));
    await clock.advance(300);
    expect([fired, clock.now(), clock.nextDue(), clock.timersPending]).toEqual([
      ["nan@0", "a@100", "b@200", "c@250"],
      300,
      1_000,
      1,
    ]);
  });
});
