/**
 * The hostile lab's CLI rows as jest tests, for the files that run them (security-attacks, security-limits:
 * two files, so that jest's two workers share them): one lab per file (the hostile service in front of the
 * simulator, the built CLI), each attack run as `npm run faults` runs it, and its bound kept. The figures each
 * row reports are asserted beside it where they are the point.
 */
import { join } from "path";
import type { AttackResult, HostileAttack } from "../harness/hostile/attacks";
import { openHostileLab, type HostileLab } from "../harness/hostile/lab";
import { PRELOADS } from "../harness/hostile/cli-command";
import { EXCEL_STAND_IN, installHost } from "../../src/sheet/host";
import { ensureNodeBuild } from "../support/node-build";

// Giving a directory to another user and mounting a small disk need root; elsewhere those rows are reported as
// not run by `npm run faults`, and skipped here rather than passed.
const ROOT_ONLY = /another user's|full 64 KB disk/;
const isRoot = process.getuid?.() === 0;

export function describeAttacks(groups: ReadonlyArray<[string, readonly HostileAttack[]]>): void {
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

  async function attack(found: HostileAttack): Promise<AttackResult> {
    const result = await found.run(lab);
    expect(result.violations).toEqual([]);
    expect(result.keyRun).toBeLessThan(8);
    return result;
  }

  describe.each(groups)("%s", (_, attacks) => {
    const run = attacks.filter((a) => isRoot || !ROOT_ONLY.test(a.name));
    it.each(run.map((a) => [a.name, a] as const))(
      "%s",
      async (_name, a) => {
        const r = await attack(a);
        if (/^a run stopped by/.test(a.name)) expect(r.ms).toBeLessThan(20_000);
        if (a.name === "100,000 VALUE lines") expect(r.peakRssBytes).toBeLessThan(300 * 1_048_576);
      },
      600_000
    );
  });
}
