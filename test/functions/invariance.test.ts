/**
 * One answer per formula whatever the sheet: the cases found in real use, checked as a user meets them
 * (the property test in test/property/invariance.property.test.ts draws many more).
 */
import * as fns from "../../src/functions/functions";
import { currentRuntime } from "../../src/runtime/runtime";
import { DEMO_API_KEY } from "../../src/simulator";
import { dataset, inv, show, showTable, startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

function fresh(): void {
  currentRuntime().engine.clear();
  h.sim.clearLog();
}

async function metric(...args: unknown[]): Promise<unknown[][]> {
  const [project, metricIds, start, end, options] = args;
  return showTable(
    (await fns.metric_(
      project as never,
      metricIds as never,
      start,
      end,
      options,
      inv()
    )) as unknown[][]
  );
}

async function value(...args: unknown[]): Promise<unknown> {
  const [project, metricId, date, options] = args;
  try {
    return show(await fns.value_(project, metricId, date, options, inv()));
  } catch (error) {
    return show(error);
  }
}

describe("a metric a project lacks", () => {
  const lidoLoans = (): Promise<unknown[][]> =>
    metric([["aave", "lido-finance"]], [["active_loans"]], "2024-03-01", "2024-03-03", null);

  it("is #N/A with its reason alone and next to cells that make the planner ask the project's own metrics", async () => {
    fresh();
    const alone = await lidoLoans();
    expect(h.requests().some((p) => p === "/v2/metrics/active_loans")).toBe(true);

    fresh();
    // Two more lido-finance metrics in the same recalculation: one project request (§4.3) is cheapest.
    const [mixed] = await Promise.all([
      lidoLoans(),
      value("Lido Finance", "fees", "2024-02-15", null),
      value("Lido Finance", "revenue", "2024-02-15", null),
    ]);
    expect(h.requests()).toContain("/v2/projects/lido-finance/metrics");
    expect(mixed).toEqual(alone);
    expect(mixed.slice(1).map((r) => r[2])).toEqual(
      Array(3).fill('#N/A: metric "active_loans" is not available for project "lido-finance"')
    );
  });
});

describe("repeated rows", () => {
  // The simulator sends aave's rows of 2024-11-01 three times.
  const november = dataset
    .daily("aave", "revenue", { start: "2024-11-01", end: "2024-11-30" })
    .reduce((sum, p) => sum + (p.value ?? 0), 0);

  it("count once in a period: the first fetch and the cached read give the same sum", async () => {
    const raw = (await (
      await fetch(
        `${h.sim.url}/v2/metrics/revenue?project_ids=aave&start=2024-11-01&end=2024-11-01`,
        {
          headers: { Authorization: `Bearer ${DEMO_API_KEY}` },
        }
      )
    ).json()) as { data: unknown[] };
    expect(raw.data).toHaveLength(3);
    fresh();
    const first = await value("aave", "revenue", "2024-11-15", "period=month");
    const cached = await value("aave", "revenue", "2024-11-15", "period=month");
    expect(h.requests().filter((p) => p.includes("/revenue") || p.includes("/aave/"))).toHaveLength(
      1
    );
    expect(first).toBeCloseTo(november, 4);
    expect(cached).toBe(first);
  });
});
