/**
 * A day whose rows come split by a member nobody asked for (here, two chains beside the day's total, which
 * they do not add up to) cannot be told apart: like a day sent twice with two values, it is a conflict. It
 * is #N/A with that reason, and so is every period or window holding it; no fill fills it; the message
 * recommends no fill. The service here is the simulator behind a proxy that splits aave's fees of 2024-02-15
 * and TVL of 2022-03-14 that way, in answers of one metric across projects (§4.11) and of one project's
 * metrics (§4.3) alike.
 */
import * as fns from "../../src/functions/functions";
import { conflictingFetch } from "../property/conflicting-fetch";
import { excelError, expectedDaily, inv, showTable, startHarness, type Harness } from "./harness";

const SPLIT = new Set(["aave|fees|2024-02-15", "aave|tvl|2022-03-14"]);

let h: Harness;
beforeAll(async () => {
  const fetch = conflictingFetch((p, m, date) => SPLIT.has(`${p}|${m}|${date}`), "split");
  h = await startHarness({ fetch: fetch(globalThis.fetch.bind(globalThis)) });
});
afterAll(() => h.close());

const REASON =
  "the service sent aave fees for 2024-02-15 in rows split by a member nobody asked for that cannot be told apart";

describe("a day whose rows split unasked cannot be told apart", () => {
  it("is #N/A with that reason, whatever the fill, and recommends no fill", async () => {
    for (const options of [null, "fill=zero"]) {
      const error = await excelError(fns.value_("aave", "fees", "2024-02-15", options, inv()));
      expect({ options, error }).toEqual({
        options,
        error: { code: "#N/A", message: `${REASON}; no figure for that day` },
      });
      expect(error.message).not.toMatch(/fill=|twice/);
    }
    // The days around it are the service's.
    expect(await fns.value_("aave", "fees", "2024-02-16", null, inv())).toBeCloseTo(
      expectedDaily("aave", "fees", "2024-02-16", "2024-02-16")[0].value!,
      6
    );
  });

  it("makes every period and window holding it #N/A, partial=include too", async () => {
    for (const options of [
      "period=month",
      "period=month; partial=include",
      "period=month; fill=zero",
      "period=quarter",
      "window=30d",
    ]) {
      const error = await excelError(fns.value_("aave", "fees", "2024-02-29", options, inv()));
      expect({ options, error }).toEqual({
        options,
        error: { code: "#N/A", message: expect.stringContaining(REASON) as unknown },
      });
      expect(error.message).not.toMatch(/fill=/);
    }
  });

  it("is a #N/A cell of a table with fill=zero, never a 0", async () => {
    const daily = showTable(
      (await fns.metric_(
        [["aave"]],
        [["fees"]],
        "2024-02-14",
        "2024-02-16",
        "fill=zero",
        inv()
      )) as unknown[][]
    );
    expect(daily.map((r) => r[0])).toEqual(["Date", "2024-02-14", "2024-02-15", "2024-02-16"]);
    expect(daily[2][1]).toBe(`#N/A: ${REASON}; no figure for that day`);
    expect(typeof daily[1][1]).toBe("number");
    // Two metrics of aave (one §4.3 request for both): the same #N/A for the split day.
    const wide = showTable(
      (await fns.metric_(
        [["aave"]],
        [["fees", "revenue"]],
        "2024-02-15",
        "2024-02-15",
        "fill=zero",
        inv()
      )) as unknown[][]
    );
    expect(wide[1][1]).toBe(`#N/A: ${REASON}; no figure for that day`);
    expect(typeof wide[1][2]).toBe("number");
  });

  it("is no value fill=previous stands in for: a level's split day is #N/A with that reason", async () => {
    const error = await excelError(fns.value_("aave", "tvl", "2022-03-14", "fill=previous", inv()));
    expect(error.message).toBe(
      "the service sent aave tvl for 2022-03-14 in rows split by a member nobody asked for that cannot be told apart; no figure for that day"
    );
  });
});
