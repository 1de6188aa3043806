/** The service's own faults (429 storms, its rate limit, 5xx) over a workbook; see fault-suite.ts. */
import { DEFAULT_CACHE_POLICY } from "../../src/engine/cache-policy";
import { busiestWindow } from "../harness/faults/lab";
import { formatTable } from "../harness/faults/report";
import { runScenario } from "../harness/faults/run";
import { SCENARIOS } from "../harness/faults/scenarios";
import { faultTable, isNetworkFault, scenario, useFaultWorld } from "./fault-suite";

const world = useFaultWorld();

describe("the fault table: the service's faults", () => {
  it("evaluates a workbook of over a hundred formulas", () => {
    expect(world.formulas.length).toBeGreaterThanOrEqual(100);
  });

  faultTable(
    world,
    SCENARIOS.filter((s) => !isNetworkFault(s))
  );
});

describe("the guarantee checks themselves", () => {
  it("report values lost when stale-if-error cannot serve them", async () => {
    const row = await runScenario(
      world.lab,
      { ...scenario("5xx outage"), engine: { cache: { ...DEFAULT_CACHE_POLICY, maxStaleMs: 0 } } },
      world.formulas,
      world.baseline
    );
    expect(row.valuesKept).toBe(0);
    expect(row.violations).toContainEqual(expect.stringMatching(/lost its value: now #N\/A/));
  });

  it("report errors of a kind the fault should not cause", async () => {
    const row = await runScenario(
      world.lab,
      // A damaged answer is never retried, so its kind does not depend on how the retries meet the deadline.
      { ...scenario("truncated JSON"), kinds: ["timeout"] },
      world.formulas,
      world.baseline
    );
    expect(row.violations).toContainEqual(
      expect.stringMatching(/unexpected kind malformed-response/)
    );
  });

  it("count the busiest minute of request starts, sliding over every start", () => {
    const at = (...ms: number[]) => ms.map((t) => ({ at: t, url: "/" }));
    expect(busiestWindow([], 60_000)).toBe(0);
    expect(busiestWindow(at(0, 59_999, 60_000, 119_999), 60_000)).toBe(2);
    expect(busiestWindow(at(5, 1, 60_002, 3, 60_004), 60_000)).toBe(3);
    expect(busiestWindow(at(59_999, 2, 0, 1), 60_000)).toBe(4);
  });

  it("print one table row per fault", async () => {
    const row = await runScenario(
      world.lab,
      scenario("none (control)"),
      world.formulas,
      world.baseline
    );
    const table = formatTable([row]).split("\n");
    expect(table[0]).toMatch(/^\| fault +\| formulas \| settled \| values kept \|/);
    expect(table[2]).toMatch(/^\| none \(control\) +\| +103 \| +103 \| +\d+\/\d+ \| +- \|/);
  });
});
