import { FairScheduler, type UserCap } from "../../src/gateway/fair-scheduler";
import { fakeClock, MIDDAY_2026 } from "../support/clock";

/** A job that ends when told to, recording when it started. */
function jobs(started: string[]) {
  const release = new Map<string, () => void>();
  return {
    job: (name: string) => () =>
      new Promise<string>((done) => {
        started.push(name);
        release.set(name, () => done(name));
      }),
    finish: (name: string) => release.get(name)?.(),
  };
}

describe("the fair scheduler", () => {
  it("starts users' requests in turn, so a single request waits behind at most one of a bulk", async () => {
    const started: string[] = [];
    const { job, finish } = jobs(started);
    const scheduler = new FairScheduler({ concurrency: 1 });
    const all = ["a1", "a2", "a3", "a4"].map((n) => scheduler.run("alice", job(n)));
    all.push(scheduler.run("bob", job("b1")));
    for (const name of ["a1", "b1", "a2", "a3", "a4"]) {
      await new Promise((r) => setImmediate(r));
      finish(name);
    }
    await Promise.all(all);
    expect(started).toEqual(["a1", "b1", "a2", "a3", "a4"]);
    expect(scheduler.queued).toBe(0);
  });

  it("lets others go first while a user is over their share, and that user's turn comes back", async () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    const started: string[] = [];
    const { job, finish } = jobs(started);
    let taken = 0;
    // Alice may start one request per 1,000 ms; Bob is never held.
    const cap: UserCap = {
      take: (user) => Promise.resolve(user === "alice" && taken++ > 0 ? 1_000 : 0),
    };
    const scheduler = new FairScheduler({
      concurrency: 4,
      cap,
      timers: time.timers,
      now: time.now,
    });
    const all = [
      scheduler.run("alice", job("a1")),
      scheduler.run("alice", job("a2")),
      scheduler.run("bob", job("b1")),
    ];
    await time.advance(0);
    expect(started).toEqual(["a1", "b1"]);
    taken = 0;
    await time.advance(1_000);
    expect(started).toEqual(["a1", "b1", "a2"]);
    for (const name of started) finish(name);
    await Promise.all(all);
  });

  it("passes a job's failure to its caller and goes on with the next", async () => {
    const scheduler = new FairScheduler({ concurrency: 1 });
    const failing = scheduler.run("alice", () => Promise.reject(new Error("503")));
    const next = scheduler.run("alice", () => Promise.resolve("ok"));
    await expect(failing).rejects.toThrow("503");
    await expect(next).resolves.toBe("ok");
  });
});
