/**
 * A short soak in `npm test` (`npm run soak` runs 10,000 evaluations over five days): recalculations over
 * three simulated days, with nights (cache expiry), Refresh clicks and new time windows that force the
 * series cache to evict. Caches stay within their bounds, nothing is left pending, every cell has a value,
 * and the latest values follow the service day by day.
 */
import { runSoak, type RoundStats } from "../harness/soak/soak";

describe("soak", () => {
  it("holds its bounds and leaves nothing pending over three simulated days", async () => {
    const rounds: RoundStats[] = [];
    const report = await runSoak({
      evaluations: 1_000,
      days: 3,
      projects: 4,
      maxPoints: 25_000,
      onRound: (r) => rounds.push(r),
    });
    expect(report.violations).toEqual([]);
    expect(report.evaluations).toBeGreaterThanOrEqual(1_000);
    expect(report.errors).toBe(0);
    // The bound was under pressure (new windows every round), and held.
    expect(report.maxPointsSeen).toBeGreaterThan(0.9 * report.pointBound);
    expect(report.maxPointsSeen).toBeLessThanOrEqual(report.pointBound);
    // Refresh was clicked, and every simulated day brought a new latest value.
    expect(rounds.some((r) => r.refreshed)).toBe(true);
    expect(report.latestByDay.length).toBeGreaterThanOrEqual(3);
    expect(new Set(report.latestByDay).size).toBe(report.latestByDay.length);
  }, 90_000);

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
});
