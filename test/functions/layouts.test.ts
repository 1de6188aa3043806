/** METRIC and PRODUCT_METRIC layouts that sum safely: dates=0, dir=h, dating=. Real HTTP, the simulator. */
import * as fns from "../../src/functions/functions";
import { excelError, expectedDaily, inv, showTable, startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const metric = async (options: string, start = "2024-03-01", end = "2024-03-05") =>
  showTable(await fns.metric_([["aave"]], [["fees,revenue"]], start, end, options, inv()));

describe("layouts that sum safely", () => {
  it("dates=0 leaves the Date column out, so SUM over the spill adds only values", async () => {
    const full = await metric("");
    const bare = await metric("dates=0");
    expect(bare).toEqual(full.map((r) => r.slice(1)));
    const body = (await metric("dates=0; headers=0")).flat() as number[];
    const expected = ["fees", "revenue"]
      .flatMap((m) => expectedDaily("aave", m, "2024-03-01", "2024-03-05"))
      .reduce((s, p) => s + (p.value ?? 0), 0);
    expect(body.reduce((s, v) => s + v, 0)).toBeCloseTo(expected, 4);
  });

  it("dir=h puts the dates across, one row per column", async () => {
    const down = await metric("");
    const across = await metric("dir=h");
    expect(across).toHaveLength(3);
    expect(across[0]).toEqual(down.map((r) => r[0]));
    expect(across[1]).toEqual(down.map((r) => r[1]));
    expect(across[0].slice(0, 3)).toEqual(["Date", "2024-03-01", "2024-03-02"]);
  });

  it("dates a period row by its last day (dating=start: its first), cut by the end date, and says which", async () => {
    const start = await metric("period=month; dating=start", "2024-01-01", "2024-03-31");
    const end = await metric("period=month", "2024-01-01", "2024-03-31");
    expect(start.map((r) => r[0])).toEqual([
      "Period start",
      "2024-01-01",
      "2024-02-01",
      "2024-03-01",
    ]);
    expect(end.map((r) => r[0])).toEqual(["Period end", "2024-01-31", "2024-02-29", "2024-03-31"]);
    expect(await metric("period=month; dating=end", "2024-01-01", "2024-03-31")).toEqual(end);
    expect(end.map((r) => r.slice(1))).toEqual(start.map((r) => r.slice(1)));
    const cut = await metric(
      "period=month; dating=end; partial=include",
      "2024-01-01",
      "2024-03-15"
    );
    expect(cut[cut.length - 1][0]).toBe("2024-03-15");
  });

  it("PRODUCT_METRIC takes the same layouts", async () => {
    const table = showTable(
      await fns.product_metric_(
        "aave",
        "aave-v3",
        [["fees"]],
        "2024-03-01",
        "2024-03-03",
        "dates=0; dir=h",
        inv()
      )
    );
    expect(table).toHaveLength(1);
    expect(table[0][0]).toBe("fees");
    expect(table[0].slice(1).every((v) => typeof v === "number")).toBe(true);
  });

  it("refuses values outside the options' sets, by name", async () => {
    const e = await excelError(
      fns.metric_([["aave"]], [["fees"]], "2024-03-01", "2024-03-05", "dir=x", inv())
    );
    expect(e.code).toBe("#VALUE!");
    expect(e.message).toMatch(/dir="x" is not allowed; use dir=v\|h/);
  });
});
