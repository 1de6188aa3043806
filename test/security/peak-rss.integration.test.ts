/**
 * The memory figure of the hostile table's CLI rows (peak-rss.cjs): the measured program's own peak, whatever
 * the memory of the process that started it. A test runner holding hundreds of MB once made every CLI row
 * report the runner's size.
 */
import { spawn } from "node:child_process";
import { collectRun } from "../harness/hostile/cli-run";
import { PRELOADS } from "../harness/hostile/cli-command";

const MB = 1_048_576;

function measured(script: string): Promise<number | undefined> {
  const child = spawn(process.execPath, ["--require", PRELOADS.peakRss, "-e", script], {
    stdio: ["ignore", "pipe", "pipe", "pipe"],
  });
  return collectRun(child, 60_000).then((run) => run.peakRssBytes);
}

describe("the peak memory a measured process reports", () => {
  it("is its own, not that of the larger process that started it", async () => {
    // The starter holds 400 MB, touched, while it starts the child.
    const held = Buffer.alloc(400 * MB, 1);
    const small = await measured("");
    expect(held.length).toBe(400 * MB);
    expect(small).toBeDefined();
    expect(small!).toBeLessThan(150 * MB);
  }, 60_000);

  it("still sees the program's own peak, however short", async () => {
    const peak = await measured("{ const b = Buffer.alloc(300 * 1048576, 1); b[0] = 2; }");
    expect(peak!).toBeGreaterThan(300 * MB);
  }, 60_000);
});
