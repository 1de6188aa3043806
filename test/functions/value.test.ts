import * as fns from "../../src/functions/functions";
import { DEMO_API_KEY } from "../../src/simulator";
import { configureRuntime } from "../../src/runtime/runtime";
import {
  dataset,
  excelError,
  expectedDaily,
  inv,
  NOW,
  serial,
  startHarness,
  type Harness,
} from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const sum = (points: Array<{ value: number | null }>) =>
  points.reduce((s, p) => s + (p.value ?? 0), 0);

describe("CRYPTO.VALUE", () => {
  it("returns a project's metric on a date, given as text or as an Excel date serial", async () => {
    const [expected] = expectedDaily("aave", "revenue", "2024-03-31", "2024-03-31");
    const fromText = await fns.value_("aave", "revenue", "2024-03-31", null, inv());
    const fromSerial = await fns.value_("aave", "revenue", serial("2024-03-31"), null, inv());
    expect(fromText).toBeCloseTo(expected.value!, 6);
    expect(fromSerial).toBe(fromText);
  });

  it("resolves a project by token symbol or by name, case-insensitively", async () => {
    const byId = await fns.value_("aave", "fees", "2025-01-15", null, inv());
    expect(await fns.value_("AAVE", "fees", "2025-01-15", null, inv())).toBe(byId);
    expect(await fns.value_("aave", "FEES", "2025-01-15", null, inv())).toBe(byId);
    expect(await fns.value_("Aave", "fees", "2025-01-15", null, inv())).toBe(byId);
  });

  it("returns the latest available value when the date is omitted", async () => {
    const points = expectedDaily("uniswap", "tvl", "2026-10-01", "2026-11-20").filter(
      (p) => p.value !== null
    );
    expect(await fns.value_("uniswap", "tvl", null, null, inv())).toBeCloseTo(
      points[points.length - 1].value!,
      4
    );
  });

  it("gives no latest value for an archived project, naming the archive; its history reads with a date", async () => {
    const info = dataset.project("anchor-protocol")!;
    const points = expectedDaily("anchor-protocol", "fees", "2020-01-01", info.lastDate).filter(
      (p) => p.value !== null
    );
    const last = points[points.length - 1];
    expect(await excelError(fns.value_("anchor-protocol", "fees", "", null, inv()))).toEqual({
      code: "#N/A",
      // The service's reason is quoted up to 80 characters, so the advice fits Excel's message.
      message: `anchor-protocol is archived since ${last.date} (${info.archivedReason!.slice(0, 79)}…); give a date to read its history`,
    });
    expect(await fns.value_("anchor-protocol", "fees", last.date, null, inv())).toBeCloseTo(
      last.value!,
      4
    );
  });

  it("rolls up the period holding the date: flows sum, levels take the last value", async () => {
    const q1 = expectedDaily("aave", "revenue", "2024-01-01", "2024-03-31");
    expect(await fns.value_("aave", "revenue", "2024-02-10", "period=quarter", inv())).toBeCloseTo(
      sum(q1),
      2
    );
    const tvl = expectedDaily("aave", "tvl", "2024-01-01", "2024-03-31");
    expect(await fns.value_("aave", "tvl", "2024-02-10", "period=quarter", inv())).toBeCloseTo(
      tvl[tvl.length - 1].value!,
      4
    );
    expect(
      await fns.value_("aave", "revenue", "2024-02-10", "period=quarter; agg=max", inv())
    ).toBeCloseTo(
      q1.reduce((a, p) => Math.max(a, p.value ?? -Infinity), -Infinity),
      4
    );
  });

  it("says #N/A on a day without a value, unless a fill the metric admits says otherwise", async () => {
    // tick-and-tock's data has an outage (null values) from 2023-03-01 to 2023-03-14.
    const before = expectedDaily("tick-and-tock", "tvl", "2023-02-28", "2023-02-28")[0].value!;
    const gap = await excelError(fns.value_("tick-and-tock", "tvl", "2023-03-05", null, inv()));
    expect(gap).toEqual({ code: "#N/A", message: "no tick-and-tock tvl value on 2023-03-05" });
    // A level carries its last value forward; a flow's missing day counts 0.
    expect(
      await fns.value_("tick-and-tock", "tvl", "2023-03-05", "fill=previous", inv())
    ).toBeCloseTo(before, 6);
    expect(await fns.value_("tick-and-tock", "fees", "2023-03-05", "fill=zero", inv())).toBe(0);
    // A window holding the gap, after data, names its days and the fill that would count them.
    const month = await excelError(
      fns.value_("tick-and-tock", "fees", "2023-03-20", "window=30d", inv())
    );
    expect(month.message).toContain("no value on 14 days from 2023-03-01");
    expect(month.message).toContain("fill=zero");
  });

  it("changes asset metrics when bridged assets are excluded", async () => {
    const all = await fns.value_("arbitrum", "tvl", "2025-06-30", null, inv());
    const native = await fns.value_("arbitrum", "tvl", "2025-06-30", "bridged=false", inv());
    expect(native).toBeLessThan(all as number);
  });

  it.each([
    [
      "an unknown project, with a suggestion",
      ["aavee", "revenue", null, null],
      "#N/A",
      'unknown project "aavee"; did you mean "aave"?',
    ],
    [
      "an unknown metric, with a suggestion",
      ["aave", "revenu", null, null],
      "#N/A",
      'unknown metric "revenu"; did you mean "revenue"?',
    ],
    [
      "a date that is not a date",
      ["aave", "revenue", "31/03/2024", null],
      "#VALUE!",
      'date "31/03/2024" is not a date',
    ],
    [
      "an impossible date serial",
      ["aave", "revenue", -5, null],
      "#VALUE!",
      "date -5 is not a date Excel can show",
    ],
    // An empty project cell of a lifted range is a position with nothing to show, like an unknown id.
    ["a missing project", [null, "revenue", null, null], "#N/A", "no project given"],
    [
      "an unknown option",
      ["aave", "revenue", null, "colour=red"],
      "#VALUE!",
      'unknown option "colour"',
    ],
    [
      "an option that does not apply",
      ["aave", "revenue", null, "order=desc"],
      "#VALUE!",
      'option "order" does not apply to VALUE',
    ],
    [
      "a value outside its set",
      ["aave", "revenue", null, "period=decade"],
      "#VALUE!",
      'option period="decade" is not allowed; use period=day|week|month|quarter|year',
    ],
    [
      "a day before launch",
      ["aave", "revenue", "2019-01-01", null],
      "#N/A",
      "no aave revenue value on 2019-01-01",
    ],
  ])("refuses %s", async (_label, args, code, message) => {
    const [project, metric, date, options] = args;
    const error = await excelError(fns.value_(project, metric, date, options, inv()));
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });

  it("sends no request for input that is invalid on its face", async () => {
    h.sim.clearLog();
    await excelError(fns.value_("aave", "revenue", "not a date", null, inv()));
    await excelError(fns.value_("aave", "revenue", null, "bogus", inv()));
    expect(h.requests()).toEqual([]);
  });

  it("tells the user to set the key when there is none, or when it is rejected", async () => {
    configureRuntime({ baseUrl: h.sim.url, apiKey: () => undefined, now: () => NOW });
    const missing = await excelError(fns.value_("aave", "revenue", "2024-01-01", null, inv()));
    expect(missing.code).toBe("#VALUE!");
    expect(missing.message).toMatch(
      /no API key is set: (pass --api-key|set your API key in the Cryptometrics taskpane)/
    );
    configureRuntime({ baseUrl: h.sim.url, apiKey: "wrong-key", now: () => NOW });
    const rejected = await excelError(fns.value_("aave", "revenue", "2024-01-01", null, inv()));
    expect(rejected.code).toBe("#VALUE!");
    expect(rejected.message).toMatch(/HTTP 401.*(--api-key|taskpane)/);
    expect(rejected.message).not.toContain("wrong-key");
    configureRuntime({
      baseUrl: h.sim.url,
      apiKey: DEMO_API_KEY,
      now: () => NOW,
      engine: { windowMs: 5 },
    });
  });
});
