/** The service's own faults (429 storms, its rate limit, 5xx) over a workbook; see fault-suite.ts. */
import { DEFAULT_CACHE_POLICY } from "../../src/cache/policy";
import { busiestWindow } from "../harness/faults/lab";
import { formatTable } from "../harness/faults/report";
import { runScenario } from "../harness/faults/run";
import { SCENARIOS } from "../harness/faults/scenarios";
import { faultTable, isNetworkFault, scenario, useFaultWorld } from "./fault-suite";

const world = useFaultWorld();

describe("the fault table: the service's faults", () => {
  it("evaluates the table's workbook: every project of the demo dataset, over 300 formulas", () => {
    expect(world.formulas.length).toBeGreaterThanOrEqual(300);
  });

  faultTable(
    world,
    SCENARIOS.filter((s) => !isNetworkFault(s))
  );
});

describe("the guarantee checks themselves", () => {
  // What these check is the table's own reading of a row; a workbook of eight projects (103 formulas) shows it.
  const small = useFaultWorld(8);

  it("report values lost when stale-if-error cannot serve them", async () => {
    const row = await runScenario(
      small.lab,
      { ...scenario("5xx outage"), engine: { cache: { ...DEFAULT_CACHE_POLICY, maxStaleMs: 0 } } },
      small.formulas,
      small.baseline
    );
    expect(row.valuesKept).toBe(0);
    expect(row.violations).toContainEqual(expect.stringMatching(/lost its value: now #N\/A/));
  }, 120_000);

  it("report errors of a kind the fault should not cause", async () => {
    const row = await runScenario(
      small.lab,
      // A damaged answer is never retried, so its kind does not depend on how the retries meet the deadline.
      { ...scenario("truncated JSON"), kinds: ["timeout"] },
      small.formulas,
      small.baseline
    );
    expect(row.violations).toContainEqual(
      expect.stringMatching(/unexpected kind malformed-response/)
    );
  }, 120_000);

  it("count the busiest minute of request starts, sliding over every start", () => {
    const at = (...ms: number[]) => ms.map((t) => ({ at: t, url: "/" }));
    expect(busiestWindow([], 60_000)).toBe(0);
    expect(busiestWindow(at(0, 59_999, 60_000, 119_999), 60_000)).toBe(2);
    expect(busiestWindow(at(5, 1, 60_002, 3, 60_004), 60_000)).toBe(3);
    expect(busiestWindow(at(59_999, 2, 0, 1), 60_000)).toBe(4);
  });

  it("print one table row per fault", async () => {
    const row = await runScenario(
      small.lab,
      scenario("none (control)"),
      small.formulas,
      small.baseline
    );
    const table = formatTable([row]).split("\n");
    expect(table[0]).toMatch(/^\| fault +\| formulas \| settled \| values kept \|/);
    const n = small.formulas.length;
    expect(table[2]).toMatch(
      new RegExp(`^\\| none \\(control\\) +\\| +${n} \\| +${n} \\| +\\d+/\\d+ \\| +- \\|`)
    );
  }, 120_000);
});
