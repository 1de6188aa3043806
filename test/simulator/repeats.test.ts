/**
 * Repeated rows: by default the simulator sends some days' time-series rows more than once, as aggregating
 * services do (the interface does not rule it out). The copies are identical; knob duplicateRows sets the
 * share of (project, day) pairs concerned, 0 turning it off.
 */
import type { RunningSimulator } from "../../src/simulator";
import { date, getList, start, type Row } from "./helpers";

const running: RunningSimulator[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.close()));
});
async function sim(options: Parameters<typeof start>[0] = {}): Promise<RunningSimulator> {
  const s = await start(options);
  running.push(s);
  return s;
}

/** Rows sent more than once, by their JSON text, with their number of copies. */
function repeated(rows: readonly Row[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(JSON.stringify(r), (counts.get(JSON.stringify(r)) ?? 0) + 1);
  return new Map([...counts].filter(([, n]) => n > 1));
}

const RANGE = "start=2024-01-01&end=2024-12-31";

describe("repeated rows", () => {
  it("repeats about 1 % of a project's days by default, with identical copies", async () => {
    const s = await sim();
    const { data } = await getList(s, `/v2/projects/aave/metrics?metric_ids=fees,tvl&${RANGE}`);
    const days = new Set(data.map(date));
    expect(days.size).toBe(366);
    const copies = repeated(data);
    expect(copies.size).toBeGreaterThan(0);
    expect(copies.size).toBeLessThan(15);
    // Nothing but exact copies: one distinct row per day.
    expect(data.length - [...copies.values()].reduce((n, c) => n + c - 1, 0)).toBe(366);
  });

  it("repeats the same project days in project metrics and metric-by-id answers", async () => {
    const s = await sim();
    const wide = (await getList(s, `/v2/projects/aave/metrics?metric_ids=fees&${RANGE}`)).data;
    const long = (await getList(s, `/v2/metrics/fees?project_ids=aave,uniswap&${RANGE}`)).data;
    const repeatedDays = (rows: readonly Row[]) =>
      new Set([...repeated(rows).keys()].map((k) => date(JSON.parse(k) as Row)));
    expect(repeatedDays(long.filter((r) => r.project_id === "aave"))).toEqual(repeatedDays(wide));
  });

  it("repeats product rows too", async () => {
    const s = await sim({ duplicateRows: 0.2 });
    const { data } = await getList(
      s,
      `/v2/projects/aave/products/aave-v3/metrics?metric_ids=fees&${RANGE}`
    );
    expect(repeated(data).size).toBeGreaterThan(20);
  });

  it("sends every row once with duplicateRows 0", async () => {
    const s = await sim({ duplicateRows: 0 });
    const { data } = await getList(s, `/v2/projects/aave/metrics?metric_ids=fees,tvl&${RANGE}`);
    expect(data).toHaveLength(366);
    expect(repeated(data).size).toBe(0);
  });

  it("refuses a share outside 0..1", async () => {
    await expect(start({ duplicateRows: 2 })).rejects.toThrow(RangeError);
  });
});
