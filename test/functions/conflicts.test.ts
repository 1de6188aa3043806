/**
 * A day the service sends twice with two different values is a conflict: nobody can vouch for either value.
 * It is #N/A, and so is every period or window holding it; no fill fills it or carries a value across it; its
 * message never recommends a fill. The service here is the simulator behind a proxy that sends aave's fees
 * of 2024-01-15 and TVL of 2022-01-14 a second time, × 1.1.
 */
import * as fns from "../../src/functions/functions";
import { conflictingFetch } from "../property/conflicting-fetch";
import { excelError, expectedDaily, inv, showTable, startHarness, type Harness } from "./harness";

const CONFLICTS = new Set(["aave|fees|2024-01-15", "aave|tvl|2022-01-14"]);

let h: Harness;
beforeAll(async () => {
  const fetch = conflictingFetch((p, m, date) => CONFLICTS.has(`${p}|${m}|${date}`));
  h = await startHarness({ fetch: fetch(globalThis.fetch.bind(globalThis)) });
});
afterAll(() => h.close());

const CONFLICT = "the service sent aave fees for 2024-01-15 twice with different values";

describe("a day sent twice with two different values", () => {
  it("is #N/A on its own, whatever the fill, and its message recommends no fill", async () => {
    for (const options of [null, "fill=zero"]) {
      const error = await excelError(fns.value_("aave", "fees", "2024-01-15", options, inv()));
      expect(error).toEqual({ code: "#N/A", message: `${CONFLICT}; no figure for that day` });
      expect(error.message).not.toMatch(/fill=/);
    }
    // The days around it are the service's.
    expect(await fns.value_("aave", "fees", "2024-01-16", null, inv())).toBeCloseTo(
      expectedDaily("aave", "fees", "2024-01-16", "2024-01-16")[0].value!,
      6
    );
  });

  it("makes every period and window holding it #N/A, partial=include too, never a smaller sum", async () => {
    for (const options of [
      "period=month",
      "period=month; partial=include",
      "period=month; fill=zero",
      "period=quarter",
      "window=30d",
      "window=ttm; partial=include",
    ]) {
      const error = await excelError(fns.value_("aave", "fees", "2024-01-31", options, inv()));
      expect({ options, error }).toEqual({
        options,
        error: { code: "#N/A", message: expect.stringContaining(CONFLICT) as unknown },
      });
      expect(error.message).not.toMatch(/fill=/);
    }
    // February, which does not hold it, is its whole sum.
    expect(await fns.value_("aave", "fees", "2024-02-29", "period=month", inv())).toBeCloseTo(
      expectedDaily("aave", "fees", "2024-02-01", "2024-02-29").reduce((s, p) => s + p.value!, 0),
      2
    );
  });

  it("is a #N/A cell of the tables holding it, by day and by period", async () => {
    const daily = showTable(
      (await fns.metric_(
        [["aave"]],
        [["fees"]],
        "2024-01-14",
        "2024-01-16",
        "fill=zero",
        inv()
      )) as unknown[][]
    );
    expect(daily.map((r) => r[0])).toEqual(["Date", "2024-01-14", "2024-01-15", "2024-01-16"]);
    expect(daily[2][1]).toBe(`#N/A: ${CONFLICT}; no figure for that day`);
    const monthly = showTable(
      (await fns.metric_(
        [["aave"]],
        [["fees"]],
        "2023-12-01",
        "2024-02-29",
        "period=month",
        inv()
      )) as unknown[][]
    );
    expect(monthly.map((r) => r[0])).toEqual([
      "Period end",
      "2023-12-31",
      "2024-01-31",
      "2024-02-29",
    ]);
    expect(monthly[2][1]).toBe(`#N/A: ${CONFLICT}; no figure for January 2024`);
    const growth = showTable(
      (await fns.metric_(
        [["aave"]],
        [["fees"]],
        "2024-02-01",
        "2024-02-29",
        "period=month; values=pop",
        inv()
      )) as unknown[][]
    );
    expect(growth[1][1]).toMatch(
      /^#N\/A: no pop change for aave fees February 2024: its base: .*twice/
    );
  });

  it("is no value fill=previous may carry: the day after it, without a value of its own, is #N/A", async () => {
    // aave's TVL has no value on 2022-01-15; the day before is the conflict.
    expect(expectedDaily("aave", "tvl", "2022-01-15", "2022-01-15")[0].value).toBeNull();
    const error = await excelError(fns.value_("aave", "tvl", "2022-01-15", "fill=previous", inv()));
    expect(error.message).toBe(
      "no aave tvl value on 2022-01-15: the last value before it, on 2022-01-14, was sent twice with different values; no fill carries it"
    );
    const series = showTable(
      (await fns.metric_(
        [["aave"]],
        [["tvl"]],
        "2022-01-13",
        "2022-01-16",
        "fill=previous",
        inv()
      )) as unknown[][]
    );
    expect(series.slice(1).map((r) => [r[0], typeof r[1] === "number" ? "value" : r[1]])).toEqual([
      ["2022-01-13", "value"],
      [
        "2022-01-14",
        expect.stringMatching(/^#N\/A: the service sent aave tvl for 2022-01-14 twice/),
      ],
      [
        "2022-01-15",
        expect.stringMatching(/^#N\/A: the service sent aave tvl for 2022-01-14 twice/),
      ],
      ["2022-01-16", "value"],
    ]);
  });

  it("says so in Diagnostics' words, not as an empty value", async () => {
    const table = (await fns.statement_(
      "aave",
      "month",
      "max",
      "layout=long",
      inv()
    )) as unknown[][];
    const january = showTable(table).find((r) => r[0] === "2024-01-31" && r[3] === "Fees")!;
    expect(january[4]).toMatch(
      /^#N\/A: the service sent aave fees for 2024-01-15 twice with different values/
    );
  });
});

describe("a conflict where the statement is the service's", () => {
  it("leaves the other months of the statement as the service sent them", async () => {
    const rows = showTable(
      (await fns.statement_("aave", "month", "max", "layout=long", inv())) as unknown[][]
    );
    const february = rows.find((r) => r[0] === "2024-02-29" && r[3] === "Fees")!;
    expect(typeof february[4]).toBe("number");
  });
});
