/**
 * Stale-if-error never covers a refused key or plan: after Refresh, a service answering 401, 402 or 403
 * turns every cell into the error saying the key or the plan was refused, whatever was fetched before; a
 * service that fails otherwise (503) still leaves the earlier values, marked stale. Over real HTTP against
 * the simulator, on virtual time; the refusal is made by the wire (the simulator itself stays healthy).
 */
import type { FetchLike } from "../../src/client";
import { openLab, type Lab } from "../harness/faults/lab";
import { HEALTHY } from "../harness/faults/scenarios";
import { evaluate, type Formula } from "../harness/faults/workbook";

let lab: Lab;
/** The status every request gets while set: a revoked key (401), a lapsed plan (402, 403), an outage (503). */
let refusal: number | undefined;

const refusing =
  (fetch: FetchLike): FetchLike =>
  (url, init) =>
    refusal === undefined
      ? fetch(url, init)
      : Promise.resolve(
          new Response(JSON.stringify({ message: `refused with ${refusal}` }), {
            status: refusal,
            headers: { "content-type": "application/json" },
          })
        );

beforeAll(async () => {
  lab = await openLab();
});
afterAll(() => lab.close());
beforeEach(() => {
  refusal = undefined;
  lab.setKnobs(HEALTHY);
  lab.reset({ wrapFetch: refusing });
});

const workbook: Formula[] = [
  { address: "R!A1", name: "VALUE", args: ["aave", "tvl"] },
  { address: "R!A2", name: "VALUE", args: ["uniswap", "revenue", "2025-06-30"] },
  {
    address: "R!A3",
    name: "METRIC",
    args: [[["aave"]], [["fees", "tvl"]], "2025-01-01", "2025-01-31"],
  },
  { address: "R!A4", name: "STATEMENT", args: ["aave"] },
  { address: "R!A5", name: "PROJECT", args: ["compound", "chains"] },
  { address: "R!A6", name: "AGGREGATION", args: ["aave", "fees", "sum_30d"] },
];

describe("after Refresh, with every value fetched before", () => {
  it.each([
    [401, /not authorised \(check the API key\) \(HTTP 401\)/],
    [402, /not covered by the subscription \(HTTP 402\).*your plan does not cover this call/],
    [403, /not covered by the subscription \(HTTP 403\).*your plan does not cover this call/],
  ])(
    "a %i makes every cell say the key or plan was refused, keeping no earlier figure",
    async (status, said) => {
      const before = await evaluate(lab, workbook);
      expect(before.every((c) => c.ok)).toBe(true);
      lab.time.jump(3_600_000);
      lab.runtime.engine.refresh();
      refusal = status;
      const after = await evaluate(lab, workbook);
      for (const cell of after) {
        expect([cell.address, cell.ok]).toEqual([cell.address, false]);
        if (!cell.ok) {
          expect(cell.code).toBe("#VALUE!");
          expect(cell.message).toMatch(said);
        }
        expect(lab.runtime.diagnostics.cell(cell.address)?.stale).toBeUndefined();
      }
      expect(lab.runtime.diagnostics.takeStale().size).toBe(0);
    }
  );

  it("a 503 still leaves the earlier values, each marked stale (and noted for a host that marks them)", async () => {
    const before = await evaluate(lab, workbook);
    lab.runtime.engine.refresh();
    lab.runtime.diagnostics.takeStale();
    refusal = 503;
    const after = await evaluate(lab, workbook);
    expect(after.map((c) => c.ok && c.value)).toEqual(before.map((c) => c.ok && c.value));
    const noted = lab.runtime.diagnostics.takeStale();
    expect([...noted.keys()].sort()).toEqual(workbook.map((f) => f.address).sort());
    for (const s of noted.values()) expect(s.reason).toMatch(/HTTP 503|not answered within 10 s/);
  });
});
