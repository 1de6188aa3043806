/** From a run at a scaled rate limit to the real limit: the projection formula and the throttle meter. */
import type { Sleep } from "../../src/client";
import { simulatorWindow } from "../../src/tools/bench/environment";
import { projectToRealLimit, ThrottleMeter } from "../../src/tools/bench/projection";

describe("projection to the real limit of 60 requests per minute", () => {
  it("charges each request a second of the minute's quota when that outweighs the run", () => {
    const p = projectToRealLimit(20, 300, 0, 100);
    expect(p.quotaMs).toBe(20_000);
    expect(p.stretchedMs).toBe(300);
    expect(p.projectedMs).toBe(20_000);
  });

  it("stretches the time spent waiting on the limiter or backing off by the scale, and nothing else", () => {
    // 120 requests whose 429 backoffs held them 1.5 s of a 2 s run.
    const p = projectToRealLimit(120, 2_000, 1_500, 100);
    expect(p.stretchedMs).toBe(2_000 + 1_500 * 99);
    expect(p.projectedMs).toBe(p.stretchedMs);
  });

  it("projects 1,000 one-request cells to over 16 minutes, whichever view is larger", () => {
    // At 60 per 600 ms, about 9.6 s of a 9.7 s run waits on the limiter.
    const p = projectToRealLimit(1_000, 9_700, 9_600, 100);
    expect(p.quotaMs).toBe(1_000_000);
    expect(p.stretchedMs).toBe(960_100);
    expect(p.projectedMs).toBe(1_000_000);
  });

  it("leaves a run without requests at its wall time", () => {
    expect(projectToRealLimit(0, 42, 0, 100).projectedMs).toBe(42);
  });

  it("refuses a scale below 1", () => {
    expect(() => projectToRealLimit(1, 1, 0, 0.5)).toThrow(RangeError);
  });
});

describe("the throttle meter", () => {
  let clock = 0;
  const wakers: Array<() => void> = [];
  const manualSleep: Sleep = () => new Promise<void>((resolve) => wakers.push(resolve));

  beforeEach(() => {
    clock = 0;
    wakers.length = 0;
  });

  it("counts overlapping sleeps once, as the time during which any call was held", async () => {
    const meter = new ThrottleMeter(manualSleep, () => clock);
    const a = meter.sleep(100);
    clock = 40;
    const b = meter.sleep(100);
    clock = 100;
    wakers[0]();
    await a;
    clock = 140;
    wakers[1]();
    await b;
    expect(meter.throttledMs()).toBe(140);
  });

  it("counts a sleep still pending up to now, and starts again from zero after a reset", async () => {
    const meter = new ThrottleMeter(manualSleep, () => clock);
    const a = meter.sleep(50);
    clock = 30;
    expect(meter.throttledMs()).toBe(30);
    meter.reset();
    clock = 50;
    wakers[0]();
    await a;
    expect(meter.throttledMs()).toBe(20);
  });

  it("passes a rejected sleep on, and stops counting it", async () => {
    const failing: Sleep = () => Promise.reject(new Error("aborted"));
    const meter = new ThrottleMeter(failing, () => clock);
    await expect(meter.sleep(10)).rejects.toThrow("aborted");
    clock = 500;
    expect(meter.throttledMs()).toBe(0);
  });
});

describe("the simulator's window", () => {
  it("is half the client's, so a client keeping its limit passes and one sending twice it does not", () => {
    expect(simulatorWindow(600)).toBe(300);
  });

  it("is the client's own when strict", () => {
    expect(simulatorWindow(600, true)).toBe(600);
  });
});
