/**
 * The ground the reliability suites stand on: virtual time that moves only when nothing real is pending,
 * and a driver that reports work nothing can ever settle (a cell stuck on #BUSY!).
 */
import { drive, StuckError } from "../harness/faults/driver";
import { openLab, type Lab } from "../harness/faults/lab";
import { trackFetch } from "../harness/faults/tracked-fetch";
import { VirtualTime } from "../harness/faults/virtual-time";

describe("virtual time", () => {
  it("fires timers in due order, moving the clock to each", () => {
    const time = new VirtualTime(1_000);
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
    const time = new VirtualTime(0);
    const fired: number[] = [];
    time.timers.setTimeout(() => fired.push(time.now()), 10);
    time.jump(86_400_000);
    time.fireNext();
    expect(fired).toEqual([86_400_000]);
    expect(() => time.jump(-1)).toThrow(RangeError);
  });
});

describe("the driver", () => {
  const idleIo = trackFetch(async () => {
    throw new Error("no network in this test");
  });

  it("settles work that waits on a chain of timers, in virtual time only", async () => {
    const time = new VirtualTime(0);
    const realStart = Date.now();
    const work = (async () => {
      await time.sleep(60_000);
      await time.sleep(60_000);
      return time.now();
    })();
    await expect(drive({ time, io: idleIo }, work)).resolves.toBe(120_000);
    expect(Date.now() - realStart).toBeLessThan(1_000);
  });

  it("reports work that nothing pending can ever settle", async () => {
    const time = new VirtualTime(0);
    const never = new Promise<void>(() => undefined);
    await expect(drive({ time, io: idleIo }, never)).rejects.toThrow(StuckError);
  });

  it("gives up on work still pending after its virtual limit", async () => {
    const time = new VirtualTime(0);
    const slow = time.sleep(7_200_000);
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
