/**
 * `npm run soak`: 10,000 evaluations over five simulated days (see soak.ts). Prints one line per simulated
 * day and a summary, writes test-results/soak.json, exits 1 when a guarantee is broken: a cache over its
 * bound, anything left pending, an error in a cell, or a heap that keeps growing after the first day.
 *
 *   npm run soak -- --evaluations 20000 --days 10
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { setLogSink } from "../../../src/client";
import { heapViolations, mb, runSoak, type RoundStats } from "./soak";

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      evaluations: { type: "string" },
      days: { type: "string" },
      out: { type: "string" },
    },
  });
  const evaluations = Number(values.evaluations ?? 10_000);
  const days = Number(values.days ?? 5);
  if (!(evaluations >= 1 && days > 0)) {
    process.stderr.write("usage: npm run soak -- [--evaluations N] [--days D] [--out FILE]\n");
    return 2;
  }
  setLogSink(() => undefined);
  const gc = (globalThis as { gc?: () => void }).gc;
  let lastDay = -1;
  const startedAt = Date.now();
  const report = await runSoak({
    evaluations,
    days,
    gc,
    onRound: (r: RoundStats) => {
      if (r.day === lastDay) return;
      lastDay = r.day;
      process.stdout.write(
        `  day ${r.day + 1}: ${r.at} cells ${r.cells}, requests ${r.requests}, points ${r.points}, entries ${r.entries}\n`
      );
    },
  });
  const violations = [...report.violations, ...heapViolations(report.heapByDay)];
  process.stdout.write(
    [
      `Evaluations: ${report.evaluations} in ${report.recalculations} recalculations over ${report.days} days (${Date.now() - startedAt} ms real)`,
      `Requests: ${report.requests}; cells with errors: ${report.errors}`,
      `Series cache: at most ${report.maxPointsSeen} points (bound ${report.pointBound}); entries: at most ${report.maxEntriesSeen} (bound ${report.entryBound})`,
      `Heap after GC, end of each day: ${gc ? report.heapByDay.map(mb).join(", ") : "(run with --expose-gc)"}`,
      violations.length === 0
        ? "Every guarantee held."
        : `Broken guarantees:\n${violations
            .slice(0, 20)
            .map((v) => `  - ${v}`)
            .join("\n")}`,
    ].join("\n") + "\n"
  );
  const out = resolve(values.out ?? "test-results/soak.json");
  mkdirSync(resolve(out, ".."), { recursive: true });
  writeFileSync(out, `${JSON.stringify({ ...report, violations }, null, 2)}\n`);
  return violations.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `soak: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`
    );
    process.exit(1);
  }
);
