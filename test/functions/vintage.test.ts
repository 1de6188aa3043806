/**
 * vintage= through the real functions, against the simulator restating a day after it first served it: the
 * figure as this computer knew it at the end of a day (or at an instant), #N/A "not known on …: first seen …"
 * before it was ever seen, and periods, windows, spills and comps summed from the values known then. The oracle
 * is the simulator's own dataset (the values as generated) and the restatement's factor.
 */
import * as fns from "../../src/functions/functions";
import { currentRuntime } from "../../src/runtime/runtime";
import { excelError, expectedDaily, inv, show, startHarness, TODAY, type Harness } from "./harness";

const DAY = "2024-02-15";
const FACTOR = 1.25;
/** The first run: the 20th, 10:00 UTC. The refresh that finds the restatement: the 22nd, 09:00 UTC. */
const FIRST = Date.UTC(2026, 10, 20, 10);
const REFRESH = Date.UTC(2026, 10, 22, 9);

let now = FIRST;
let h: Harness;
beforeAll(async () => {
  h = await startHarness(
    { now: () => now },
    {
      now: () => now,
      today: TODAY,
      restatements: {
        mode: "served",
        days: [{ projectId: "aave", metricId: "fees", day: DAY, factor: FACTOR }],
      },
    }
  );
});
afterAll(() => h.close());

const generated = expectedDaily("aave", "fees", DAY, DAY)[0].value!;
const february = expectedDaily("aave", "fees", "2024-02-01", "2024-02-29").reduce(
  (sum, p) => sum + p.value!,
  0
);

async function refresh(at: number): Promise<void> {
  now = at;
  currentRuntime().engine.refresh();
}

describe("vintage= on the data functions", () => {
  beforeAll(async () => {
    // The first run sees the day as generated (one answer holds the month); the refresh two days later
    // sees it restated.
    expect(await fns.value_("aave", "fees", "2024-02-29", "period=month", inv())).toBeCloseTo(
      february,
      4
    );
    expect(await fns.value_("aave", "fees", DAY, null, inv())).toBeCloseTo(generated, 6);
    await refresh(REFRESH);
    expect(await fns.value_("aave", "fees", DAY, null, inv())).toBeCloseTo(generated * FACTOR, 6);
  });

  it("gives a day's figure as known at the end of a day, or at an instant", async () => {
    const at = (vintage: string) => fns.value_("aave", "fees", DAY, `vintage=${vintage}`, inv());
    expect(await at("2026-11-20")).toBeCloseTo(generated, 6);
    expect(await at("2026-11-21")).toBeCloseTo(generated, 6);
    expect(await at("2026-11-22")).toBeCloseTo(generated * FACTOR, 6);
    expect(await at("2026-11-22T08:59:59Z")).toBeCloseTo(generated, 6);
    expect(await at("2026-11-22T09:00:00Z")).toBeCloseTo(generated * FACTOR, 6);
    // An offset is the same instant written elsewhere.
    expect(await at("2026-11-22T10:00:00+01:00")).toBeCloseTo(generated * FACTOR, 6);
  });

  it("is #N/A, saying when it was first seen, before the figure was ever seen", async () => {
    expect(await excelError(fns.value_("aave", "fees", DAY, "vintage=2026-11-19", inv()))).toEqual({
      code: "#N/A",
      message: `not known on 2026-11-19: first seen 2026-11-20 (aave fees, ${DAY})`,
    });
    // A series first read at the refresh: not known the day before.
    await fns.value_("aave", "revenue", DAY, null, inv());
    expect(
      (await excelError(fns.value_("aave", "revenue", DAY, "vintage=2026-11-21", inv()))).message
    ).toBe(`not known on 2026-11-21: first seen 2026-11-22 (aave revenue, ${DAY})`);
    expect(
      (await excelError(fns.value_("aave", "revenue", DAY, "vintage=2026-11-22T08:00:00Z", inv())))
        .message
    ).toBe(
      `not known at 2026-11-22T08:00:00Z: first seen 2026-11-22T09:00:00Z (aave revenue, ${DAY})`
    );
  });

  it("sums periods and windows from the values known then", async () => {
    const month = (vintage: string) =>
      fns.value_("aave", "fees", "2024-02-29", `period=month; vintage=${vintage}`, inv());
    expect(await month("2026-11-20")).toBeCloseTo(february, 4);
    expect(await month("2026-11-22")).toBeCloseTo(february + generated * (FACTOR - 1), 4);
    expect(await fns.value_("aave", "fees", "2024-02-29", "period=month", inv())).toBeCloseTo(
      february + generated * (FACTOR - 1),
      4
    );
    // A period with a day not known then is #N/A naming it, never a smaller sum.
    const error = await excelError(month("2026-11-19"));
    expect(error.code).toBe("#N/A");
    expect(error.message).toMatch(
      /^not known on 2026-11-19: first seen 2026-11-20 \(aave fees, 2024-02-01 and 28 more days\); no figure for /
    );
    // A trailing window ending on the day: its January days were first read now, at the refresh, so it was
    // not known the day before; as known at the end of the refresh's day, it holds the restated day.
    const window = expectedDaily("aave", "fees", "2024-01-17", DAY).reduce(
      (s, p) => s + p.value!,
      0
    );
    await fns.value_("aave", "fees", DAY, "window=30d", inv());
    expect(
      (await excelError(fns.value_("aave", "fees", DAY, "window=30d; vintage=2026-11-21", inv())))
        .message
    ).toBe(
      "not known on 2026-11-21: first seen 2026-11-22 (aave fees, 2024-01-17 and 14 more days); no figure for 30d to 2024-02-15 (2024-01-17..2024-02-15)"
    );
    expect(
      await fns.value_("aave", "fees", DAY, "window=30d; vintage=2026-11-22", inv())
    ).toBeCloseTo(window + generated * (FACTOR - 1), 4);
  });

  it("spills METRIC and COMPS as known then", async () => {
    const spill = async (vintage: string) => {
      const table = (await fns.metric_(
        [["aave"]],
        [["fees"]],
        "2024-02-14",
        "2024-02-16",
        `vintage=${vintage}`,
        inv()
      )) as unknown[][];
      return table.slice(1).map((row) => row.map(show));
    };
    const [d14, d16] = [
      expectedDaily("aave", "fees", "2024-02-14", "2024-02-14")[0].value!,
      expectedDaily("aave", "fees", "2024-02-16", "2024-02-16")[0].value!,
    ];
    const before = await spill("2026-11-21");
    expect(before.map((r) => r[0])).toEqual(["2024-02-14", DAY, "2024-02-16"]);
    expect(before[0][1]).toBeCloseTo(d14, 6);
    expect(before[1][1]).toBeCloseTo(generated, 6);
    expect(before[2][1]).toBeCloseTo(d16, 6);
    expect((await spill("2026-11-22"))[1][1]).toBeCloseTo(generated * FACTOR, 6);

    const comps = (await fns.comps_(
      [["aave"]],
      [["fees"]],
      DAY,
      "headers=0; vintage=2026-11-21",
      inv()
    )) as unknown[][];
    expect(comps[0][comps[0].length - 1]).toBeCloseTo(generated, 6);
  });

  it("is refused in words: not a date, no time zone, after now, or where it does not apply", async () => {
    const refused = async (call: unknown) => excelError(call);
    expect(await refused(fns.value_("aave", "fees", DAY, "vintage=last week", inv()))).toEqual({
      code: "#VALUE!",
      message: expect.stringContaining('vintage="last week" is not a date') as unknown,
    });
    expect(
      (await refused(fns.value_("aave", "fees", DAY, "vintage=2026-11-20T09:30", inv()))).message
    ).toContain("has no time zone");
    expect(
      (await refused(fns.value_("aave", "fees", DAY, "vintage=2026-11-23", inv()))).message
    ).toContain("is after today");
    // The catalogues are not figures of a day: they have no vintage.
    expect((await refused(fns.projects_("vintage=2026-11-20", inv()))).message).toContain(
      'option "vintage" does not apply to PROJECTS'
    );
  });
});

describe("CHANGES", () => {
  it("lists the restated day with before, after and when it was seen, newest first", async () => {
    const table = (await fns.changes_(
      [["aave"]],
      [["fees"], ["revenue"]],
      null,
      inv()
    )) as unknown[][];
    expect(table[0]).toEqual(["Project", "Metric", "Day", "Before", "After", "Seen"]);
    expect(table.slice(1).map((row) => row.map(show))).toEqual([
      ["aave", "fees", DAY, generated, generated * FACTOR, "2026-11-22T09:00:00Z"],
    ]);
    // The Seen text is what vintage= takes: the figure as it was right then.
    expect(
      await fns.value_("aave", "fees", DAY, `vintage=${String(table[1][5])}`, inv())
    ).toBeCloseTo(generated * FACTOR, 6);
  });

  it("shows the headers alone where nothing was restated, and from the day asked", async () => {
    const headersOnly = [["Project", "Metric", "Day", "Before", "After", "Seen"]];
    expect(await fns.changes_([["gmx"]], [["fees"]], null, inv())).toEqual(headersOnly);
    expect(await fns.changes_([["aave"]], [["tvl"]], null, inv())).toEqual(headersOnly);
    // Seen on the 22nd: from the 22nd it is listed, from the 23rd (after today) nothing can be.
    expect(
      ((await fns.changes_([["aave"]], [["fees"]], "2026-11-22", inv())) as unknown[][]).length
    ).toBe(2);
    expect(
      (await excelError(fns.changes_([["aave"]], [["fees"]], "2026-11-23", inv()))).message
    ).toBe("since 2026-11-23 is after today; no change can be seen yet");
  });

  it("asks for what it lists, and says which project or metric it does not know", async () => {
    expect(
      (await excelError(fns.changes_([["nosuchproject"]], [["fees"]], null, inv()))).code
    ).toBe("#N/A");
    expect((await excelError(fns.changes_([["aave"]], [["nosuchmetric"]], null, inv()))).code).toBe(
      "#N/A"
    );
    expect((await excelError(fns.changes_([[null]], [["fees"]], null, inv()))).message).toBe(
      "projects is missing"
    );
  });
});
