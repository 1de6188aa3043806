/**
 * The two feeds of one reading: `run` waits for each need, `runNow` stops at the first it cannot answer
 * without waiting. The readings VALUE and ASOF make are compared feed against feed in cached-value.test.ts.
 */
import { NOT_CACHED } from "../../src/functions/context";
import { run, runNow, waitRead, type Read } from "../../src/functions/impl/reads";

function* twoWaits(log: string[]): Read<number> {
  log.push("start");
  const a = yield* waitRead(() => Promise.resolve(2));
  log.push(`got ${a}`);
  const b = yield* waitRead(() => Promise.resolve(3));
  log.push(`got ${b}`);
  return a * b;
}

describe("a reading", () => {
  it("fed by waiting, gets each answer where it asked and ends with its result", async () => {
    const log: string[] = [];
    await expect(run(twoWaits(log))).resolves.toBe(6);
    expect(log).toEqual(["start", "got 2", "got 3"]);
  });

  it("fed from what is held, stops at the first need that would wait and runs nothing after it", () => {
    const log: string[] = [];
    let asked = 0;
    function* reading(): Read<number> {
      log.push("start");
      const n = yield* waitRead(() => {
        asked++;
        return Promise.resolve(1);
      });
      log.push("after");
      return n;
    }
    expect(runNow(reading())).toBe(NOT_CACHED);
    expect(log).toEqual(["start"]);
    expect(asked).toBe(0);
  });

  it("that needs nothing is answered by either feed alike", async () => {
    // eslint-disable-next-line require-yield
    function* constant(): Read<string> {
      return "held";
    }
    expect(runNow(constant())).toBe("held");
    await expect(run(constant())).resolves.toBe("held");
  });

  it("meets a failed need as an error thrown where it asked, so it may catch it", async () => {
    function* recovering(): Read<string> {
      try {
        return yield* waitRead<string>(() => Promise.reject(new Error("service down")));
      } catch (error) {
        return `recovered from ${(error as Error).message}`;
      }
    }
    await expect(run(recovering())).resolves.toBe("recovered from service down");
  });

  it("thrown synchronously fails its promise under run and throws under runNow", async () => {
    // eslint-disable-next-line require-yield
    function* failing(): Read<number> {
      throw new RangeError("bad argument");
    }
    await expect(run(failing())).rejects.toThrow("bad argument");
    expect(() => runNow(failing())).toThrow("bad argument");
  });
});
