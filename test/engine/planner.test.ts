import fc from "fast-check";
import { planRequests, requestCount, type PairNeed } from "../../src/engine/planner";

const ids = (prefix: string, n: number): string[] =>
  Array.from({ length: n }, (_, i) => `${prefix}${i}`);

function grid(projects: string[], metrics: string[], start = 100, end = 100): PairNeed[] {
  return projects.flatMap((projectId) =>
    metrics.map((metricId) => ({ projectId, metricId, start, end }))
  );
}

/** The true optimum by trying every subset of projects to serve by project (small cases only). */
function bruteForceMinimum(needs: PairNeed[], chunk: number): number {
  const projects = [...new Set(needs.map((n) => n.projectId))];
  const pairs = [...new Map(needs.map((n) => [`${n.projectId}/${n.metricId}`, n])).values()];
  let best = Infinity;
  for (let mask = 0; mask < 1 << projects.length; mask++) {
    const byProject = new Set(projects.filter((_, i) => mask & (1 << i)));
    const projectCost = [...byProject].reduce((sum, p) => {
      const n = pairs.filter((x) => x.projectId === p).length;
      return sum + (n > 0 ? Math.ceil(n / chunk) : 0);
    }, 0);
    const rest = pairs.filter((x) => !byProject.has(x.projectId));
    const metricLists = new Map<string, number>();
    for (const x of rest) metricLists.set(x.metricId, (metricLists.get(x.metricId) ?? 0) + 1);
    const metricCost = [...metricLists.values()].reduce((s, n) => s + Math.ceil(n / chunk), 0);
    best = Math.min(best, projectCost + metricCost);
  }
  return best;
}

describe("request planner", () => {
  it("serves a 50-project × 20-metric model with one request per metric", () => {
    const plan = planRequests(grid(ids("p", 50), ids("m", 20)), 50);
    expect(plan).toHaveLength(20);
    expect(plan.every((r) => r.form === "metric" && r.members.length === 50)).toBe(true);
  });

  it("serves many metrics of one project with one project request", () => {
    const plan = planRequests(grid(["aave"], ids("m", 12)), 50);
    expect(plan).toEqual([
      expect.objectContaining({ form: "project", id: "aave", members: ids("m", 12) }),
    ]);
  });

  it("mixes forms when that is cheaper: a wide project plus a long metric", () => {
    const needs = [...grid(["aave"], ids("m", 10)), ...grid(ids("p", 30), ["fees"])];
    const plan = planRequests(needs, 50);
    expect(requestCount(plan, 50)).toBe(2);
  });

  it("counts chunked id lists: 120 projects of one metric cost three requests of 50", () => {
    const plan = planRequests(grid(ids("p", 120), ["fees"]), 50);
    expect(requestCount(plan, 50)).toBe(3);
  });

  it("spans overlapping ranges asked of one series in a single request", () => {
    const needs = [
      { projectId: "aave", metricId: "fees", start: 10, end: 20 },
      { projectId: "aave", metricId: "fees", start: 15, end: 40 },
      { projectId: "aave", metricId: "fees", start: 5, end: 12 },
    ];
    const plan = planRequests(needs, 50);
    expect(plan).toHaveLength(1);
    expect(plan[0]).toMatchObject({ start: 5, end: 40, members: [expect.any(String)] });
    expect(plan[0].pairs).toHaveLength(3);
  });

  it("keeps open bounds open (the service's from-launch / to-latest defaults)", () => {
    const plan = planRequests(
      [{ projectId: "a", metricId: "m", start: -Infinity, end: Infinity }],
      50
    );
    expect(plan[0]).toMatchObject({ start: -Infinity, end: Infinity });
  });

  it("assigns every need to exactly one request and matches the brute-force optimum", () => {
    const need = fc.record({
      projectId: fc.constantFrom("a", "b", "c", "d", "e", "f"),
      metricId: fc.constantFrom("m1", "m2", "m3", "m4", "m5"),
      start: fc.integer({ min: 0, max: 50 }),
      end: fc.integer({ min: 50, max: 100 }),
    });
    fc.assert(
      fc.property(
        fc.array(need, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 4 }),
        (needs, chunk) => {
          const plan = planRequests(needs, chunk);
          const served = plan.flatMap((r) => r.pairs);
          expect(served).toHaveLength(needs.length);
          for (const r of plan) {
            for (const p of r.pairs) {
              expect(r.form === "metric" ? p.metricId : p.projectId).toBe(r.id);
              expect(r.members).toContain(r.form === "metric" ? p.projectId : p.metricId);
              expect(r.start).toBeLessThanOrEqual(p.start);
              expect(r.end).toBeGreaterThanOrEqual(p.end);
            }
          }
          expect(requestCount(plan, chunk)).toBe(bruteForceMinimum(needs, chunk));
        }
      ),
      { numRuns: 300 }
    );
  });

  it("never does worse than one form alone on large workbooks", () => {
    const need = fc.record({
      projectId: fc.integer({ min: 0, max: 39 }).map((i) => `p${i}`),
      metricId: fc.integer({ min: 0, max: 7 }).map((i) => `m${i}`),
      start: fc.constant(1),
      end: fc.constant(2),
    });
    fc.assert(
      fc.property(
        fc.array(need, { minLength: 60, maxLength: 200 }),
        fc.integer({ min: 1, max: 20 }),
        (needs, chunk) => {
          const pairs = [
            ...new Map(needs.map((n) => [`${n.projectId}/${n.metricId}`, n])).values(),
          ];
          const count = (key: (n: PairNeed) => string): number => {
            const lists = new Map<string, number>();
            for (const n of pairs) lists.set(key(n), (lists.get(key(n)) ?? 0) + 1);
            return [...lists.values()].reduce((s, n) => s + Math.ceil(n / chunk), 0);
          };
          const planned = requestCount(planRequests(needs, chunk), chunk);
          expect(planned).toBeLessThanOrEqual(count((n) => n.metricId));
          expect(planned).toBeLessThanOrEqual(count((n) => n.projectId));
        }
      ),
      { numRuns: 100 }
    );
  });
});
