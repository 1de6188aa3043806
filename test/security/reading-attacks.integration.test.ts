/**
 * Odd answers that must never become a wrong figure (test/harness/hostile/reading-attacks.ts), each asserting
 * its bound: rows split by a member nobody asked for are added up whatever the batching plan, a timestamp's
 * day is the date it writes, rows dated after any possible day are ignored and noted, and a corrupt gzip body
 * is an answer that could not be read, not retried. `npm run faults` prints the same attacks.
 */
import { join } from "path";
import { READING_ATTACKS } from "../harness/hostile/reading-attacks";
import { openHostileLab, type HostileLab } from "../harness/hostile/lab";
import { PRELOADS } from "../harness/hostile/cli-command";
import { EXCEL_STAND_IN, installHost } from "../../src/sheet/host";
import { ensureNodeBuild } from "../support/node-build";

installHost(EXCEL_STAND_IN);

let lab: HostileLab;
beforeAll(async () => {
  const build = await ensureNodeBuild();
  lab = await openHostileLab({
    cliPath: join(build, "cli", "main.js"),
    peakRssPath: PRELOADS.peakRss,
  });
}, 360_000);
afterAll(() => lab?.close());

describe("odd answers, the same figures", () => {
  it.each(READING_ATTACKS.map((a) => [a.name, a]))(
    "%s",
    async (_name, attack) => {
      const result = await attack.run(lab);
      expect(result.violations).toEqual([]);
      expect(result.keyRun).toBeLessThan(8);
    },
    120_000
  );
});
