/**
 * Freeze's lineage inside Excel: a frozen range traced through the diagnostics record of the cell its formula
 * was in, or, for a range this session did not compute, through its formula's text, against the simulator.
 */
import { officeLineage } from "../../src/excel/freeze-lineage";
import { value_ } from "../../src/functions/functions";
import { UNKNOWN_VINTAGE, vintageOf } from "../../src/functions/lineage";
import { readyRuntime } from "../../src/runtime/runtime";
import { inv, NOW, startHarness, type Harness } from "../functions/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe("the lineage of a frozen range", () => {
  it("comes from the record of the cell its formula was in: its arguments and when it was computed", async () => {
    await value_("aave", "fees", "2026-11-01", null, inv("'Model Q4'!C7"));
    const [row] = await officeLineage(readyRuntime)([
      {
        range: "'Model Q4'!C7",
        anchor: "'Model Q4'!C7",
        formula: '=CRYPTO.VALUE(B7,"fees","2026-11-01")',
      },
    ]);
    expect(row).toMatchObject({
      vintage: vintageOf(NOW),
      service: h.sim.url,
      via: "service",
      metrics: [{ projectId: "aave", metricId: "fees", definition: expect.any(String) }],
    });
    expect(row.note).toBeUndefined();
  });

  it("reads a range this session did not compute from its formula's text, and says its vintage is not known", async () => {
    const [row] = await officeLineage(readyRuntime)([
      {
        range: "Sheet9!A1:C40",
        anchor: "Sheet9!A1",
        formula: '=CRYPTO.METRIC({"aave","gmx"},"revenue",A1,"2026-11-10")',
      },
    ]);
    expect(row.vintage).toBe("");
    expect(row.note).toBe(UNKNOWN_VINTAGE);
    expect(row.metrics.map((m) => `${m.projectId} ${m.metricId}`)).toEqual([
      "aave revenue",
      "gmx revenue",
    ]);
    // A formula the reader does not take names nothing, and says so in the sheet.
    const [odd] = await officeLineage(readyRuntime)([
      { range: "Sheet9!E1", anchor: "Sheet9!E1", formula: "=CRYPTO.VALUE(" },
    ]);
    expect(odd.metrics).toEqual([]);
  });
});
