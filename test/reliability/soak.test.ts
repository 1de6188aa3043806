/**
 * The soak, once per run (CI runs no other; `npm run soak` is the same run as a command, with a report): 10,000
 * evaluations over five simulated days, with nights (cache expiry), Refresh clicks and new time windows that
 * force the series cache to evict. Caches stay within their bounds, nothing is left pending, every cell has a
 * value, the latest values follow the service day by day, and the heap (after a forced GC at the end of each
 * day) does not keep growing after the first day.
 */
import { heapViolations, runSoak, type RoundStats } from "../harness/soak/soak";
import { forcedGc } from "../support/gc";

describe("soak", () => {
  it("holds its bounds, leaves nothing pending and keeps a flat heap over five simulated days", async () => {
    const rounds: RoundStats[] = [];
    // The defaults are `npm run soak`'s: 10,000 evaluations, 5 days, 8 projects, a 40,000-point cache.
    const report = await runSoak({ gc: forcedGc(), onRound: (r) => rounds.push(r) });
    expect([...report.violations, ...heapViolations(report.heapByDay)]).toEqual([]);
    expect(report.evaluations).toBeGreaterThanOrEqual(10_000);
    expect(report.days).toBe(5);
    expect(report.errors).toBe(0);
    // The bound was under pressure (new windows every round), and held.
    expect(report.maxPointsSeen).toBeGreaterThan(0.9 * report.pointBound);
    expect(report.maxPointsSeen).toBeLessThanOrEqual(report.pointBound);
    // Refresh was clicked, and every simulated day brought a new latest value.
    expect(rounds.some((r) => r.refreshed)).toBe(true);
    expect(report.latestByDay.length).toBeGreaterThanOrEqual(5);
    expect(new Set(report.latestByDay).size).toBe(report.latestByDay.length);
    // The heap was read after a forced GC at the end of each day (the check above has readings to compare).
    expect(report.heapByDay.length).toBeGreaterThanOrEqual(4);
  }, 600_000);

  it("notices values that outlive the service's daily update", async () => {
    // Caches said fresh until noon instead of midnight, and no Refresh: the mornings show yesterday.
    const report = await runSoak({
      evaluations: 400,
      days: 2,
      projects: 4,
      refreshesPerDay: 0,
      cache: { dailyUpdateUtcHour: 12 },
    });
    expect(report.violations).toContainEqual(
      expect.stringMatching(/Model!A1 shows .*, the service's latest is /)
    );
  }, 60_000);

  it("calls a heap that grows more than 24 MB after the first day a broken guarantee", () => {
    const MB = 1024 * 1024;
    expect(heapViolations([13 * MB, 14 * MB, 36 * MB])).toEqual([]);
    expect(heapViolations([13 * MB, 20 * MB, 38 * MB])).toEqual([
      "heap grew 25.0 MB after the first day (13.0 MB, 20.0 MB, 38.0 MB)",
    ]);
    // One reading (or none, without forced GC) compares nothing.
    expect(heapViolations([90 * MB])).toEqual([]);
  });
});
