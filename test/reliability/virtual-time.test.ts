/**
 * The ground the reliability suites stand on: virtual time that moves only when nothing real is pending,
 * and a driver that reports work nothing can ever settle (a cell stuck on #BUSY!). The clock itself (a held
 * fake clock, test/support/clock.ts) is tested with the other fake clocks in test/support/clock.test.ts.
 */
import { createSleep } from "../../src/client";
import { drive, StuckError } from "../harness/faults/driver";
import { openLab, type Lab } from "../harness/faults/lab";
import { trackFetch } from "../harness/faults/tracked-fetch";
import { fakeClock } from "../support/clock";

/** A held clock with the client's own sleep over its timers, as the lab sets them up. */
function virtualTime(start: number) {
  const time = fakeClock(start, { held: true });
  return { time, sleep: createSleep(time.timers) };
}

describe("the driver", () => {
  const idleIo = trackFetch(async () => {
    throw new Error("no network in this test");
  });

  it("settles work that waits on a chain of timers, in virtual time only", async () => {
    const { time, sleep } = virtualTime(0);
    const realStart = Date.now();
    const work = (async () => {
      await sleep(60_000);
      await sleep(60_000);
      return time.now();
    })();
    await expect(drive({ time, io: idleIo }, work)).resolves.toBe(120_000);
    expect(Date.now() - realStart).toBeLessThan(1_000);
  });

  it("reports work that nothing pending can ever settle", async () => {
    const { time } = virtualTime(0);
    const never = new Promise<void>(() => undefined);
    await expect(drive({ time, io: idleIo }, never)).rejects.toThrow(StuckError);
  });

  it("gives up on work still pending after its virtual limit", async () => {
    const { time, sleep } = virtualTime(0);
    const slow = sleep(7_200_000);
    await expect(drive({ time, io: idleIo }, slow, { virtualMs: 3_600_000 })).rejects.toThrow(
      /did not settle within 3600000 ms/
    );
  });
});

describe("a lab over real HTTP", () => {
  let lab: Lab;
  beforeEach(async () => {
    lab = await openLab();
  });
  afterEach(() => lab.close());

  it("keeps the clock still while an answer is on its way, however long it takes for real", async () => {
    lab.setKnobs({ latencyMs: 150 });
    const startedAt = lab.time.now();
    const projects = await lab.drive(lab.runtime.client.listProjects());
    expect(projects.data.length).toBeGreaterThan(40);
    // 150 real ms of latency, yet no virtual time passed: no time-out could have fired meanwhile.
    expect(lab.time.now()).toBe(startedAt);
  });

  it("lets time run past a request the service never answers, so its time-out fires", async () => {
    lab.setKnobs({ hang: true });
    const startedAt = lab.time.now();
    const error = await lab.drive(lab.runtime.client.listProjects()).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "timeout" });
    // The call's two-minute deadline, spent in virtual time.
    expect(lab.time.now() - startedAt).toBe(120_000);
    expect(lab.time.timersPending).toBe(0);
  });
});
