/**
 * A statement's figures checked against the line's daily series, cell by cell (statement-figures.ts): built
 * from rows and days written here, so that each rule is stated with exactly known numbers — the service's
 * rounding, the reasons a cell is #N/A, and when a change is shown.
 */
import type { FinancialStatementRow } from "../../src/client";
import { dayNumber, formatDay } from "../../src/client/data/days";
import type { PeriodWindow } from "../../src/engine/figures/completeness";
import type { DayPoint } from "../../src/engine/figures/series-ops";
import { CallTrace, type FnContext } from "../../src/functions/context";
import {
  agrees,
  changeCell,
  checkedFigure,
  lineFigure,
  lineJudged,
  readLineDays,
  rowIndex,
  valueCell,
  type LineDays,
  type StatementContext,
} from "../../src/functions/impl/statement-figures";
import { lineKey, type StatementLine } from "../../src/functions/impl/statement-lines";
import { currentRuntime } from "../../src/runtime/runtime";
import { excelError, startHarness, type Harness } from "./harness";

const d = (iso: string): number => dayNumber(iso);
const TODAY = d("2024-12-31");
const ctx = { today: TODAY } as FnContext;

const month = (iso: string): PeriodWindow => {
  const start = d(`${iso}-01`);
  const next = new Date(Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)), 1));
  const end = Math.round(next.getTime() / 86_400_000) - 1;
  return { period: "month", start, end, from: start, to: end };
};
const JAN = month("2024-01");
const FEB = month("2024-02");
const REVENUE: StatementLine = { section: "Income Statement", metricId: "revenue" };

/** Each day of [from, to] with `value(day index)`. */
function points(from: string, to: string, value: (i: number) => number | null): DayPoint[] {
  const out: DayPoint[] = [];
  for (let day = d(from), i = 0; day <= d(to); day++, i++) out.push({ day, value: value(i) });
  return out;
}
function daysOf(line: StatementLine, pts: DayPoint[]): LineDays {
  const horizon = pts.length ? pts[pts.length - 1].day : -Infinity;
  return new Map([[lineKey(line), { points: pts, horizon }]]);
}
function row(
  line: StatementLine,
  w: PeriodWindow,
  value: number | null,
  more: Partial<FinancialStatementRow> = {}
): FinancialStatementRow {
  return {
    date: formatDay(w.start),
    heading: line.section,
    subheading: "",
    granularity: w.period,
    projectName: "Stmt",
    section: line.section,
    metricId: line.metricId,
    value,
    popChange: null,
    definition: "",
    ...more,
  };
}
const statement = (days: LineDays, include = false): StatementContext => ({
  ctx,
  projectId: "stmt",
  granularity: "month",
  days,
  include,
});

// January and February 2024 of revenue: 100 a day (3,100 and 2,900).
const WHOLE = daysOf(
  REVENUE,
  points("2024-01-01", "2024-02-29", () => 100)
);

describe("the service's rounding", () => {
  it("takes a whole figure for anything within half a unit of it", () => {
    expect(agrees(96080, 96080.5)).toBe(true);
    expect(agrees(96080, 96079.5)).toBe(true);
    expect(agrees(96080, 96080.51)).toBe(false);
    expect(agrees(96080, 96079.49)).toBe(false);
  });

  it("takes a figure with decimals for anything within half a unit of its last decimal", () => {
    expect(agrees(1.25, 1.254)).toBe(true);
    expect(agrees(1.25, 1.246)).toBe(true);
    expect(agrees(1.25, 1.256)).toBe(false);
    expect(agrees(1.25, 1.244)).toBe(false);
  });

  it("takes a large figure within a billionth of it, the same days added in another order", () => {
    expect(agrees(123_456_789_012, 123_456_789_012 + 100)).toBe(true);
    expect(agrees(123_456_789_012, 123_456_789_012 + 200)).toBe(false);
  });
});

describe("a line's figure for a period", () => {
  it("is the service's where its days give it", () => {
    expect(checkedFigure(statement(WHOLE), row(REVENUE, JAN, 3100), REVENUE, JAN, false)).toEqual({
      value: 3100,
    });
    expect(valueCell(statement(WHOLE), row(REVENUE, JAN, 3100), REVENUE, JAN)).toBe(3100);
  });

  it("is #N/A naming both figures where its days give another", () => {
    expect(valueCell(statement(WHOLE), row(REVENUE, JAN, 999), REVENUE, JAN)).toEqual({
      error: "na",
      message:
        "the service's stmt revenue for January 2024 is 999, but its daily series give 3,100 (2024-01-01..2024-01-31): no figure rather than either",
    });
  });

  it("names the two figures to two decimals at most", () => {
    // 100.125 a day: 3,103.875 in January.
    const days = daysOf(
      REVENUE,
      points("2024-01-01", "2024-01-31", () => 100.125)
    );
    expect(valueCell(statement(days), row(REVENUE, JAN, 3000.5), REVENUE, JAN)).toEqual({
      error: "na",
      message:
        "the service's stmt revenue for January 2024 is 3,000.5, but its daily series give 3,103.88 (2024-01-01..2024-01-31): no figure rather than either",
    });
  });

  it("is #N/A naming the days there are where the period is not whole, or the figure with partial=include", () => {
    const half = daysOf(
      REVENUE,
      points("2024-01-01", "2024-01-15", () => 100)
    );
    expect(valueCell(statement(half), row(REVENUE, JAN, 1500), REVENUE, JAN)).toEqual({
      error: "na",
      message:
        "January 2024 is not complete for stmt revenue: 15 of 31 days (the data goes up to 2024-01-15); partial=include shows it",
    });
    expect(valueCell(statement(half, true), row(REVENUE, JAN, 1500), REVENUE, JAN)).toBe(1500);
    expect(valueCell(statement(half, true), row(REVENUE, JAN, 999), REVENUE, JAN)).toEqual({
      error: "na",
      message:
        "the service's stmt revenue for January 2024 is 999, but its daily series give 1,500 (2024-01-01..2024-01-15): no figure rather than either",
    });
  });

  it("is #N/A where the service sent no figure, two figures or text", () => {
    const cells = [
      row(REVENUE, JAN, null),
      row(REVENUE, JAN, null, { conflicted: true }),
      row(REVENUE, JAN, null, { unreadable: "1,234.50" }),
    ].map((r) => valueCell(statement(WHOLE), r, REVENUE, JAN));
    expect(cells).toEqual([
      { error: "na", message: "the service sent no revenue figure for January 2024" },
      {
        error: "na",
        message:
          "the service sent stmt revenue for January 2024 twice with different values; no figure for January 2024",
      },
      {
        error: "na",
        message:
          'the service sent "1,234.50" for stmt revenue in January 2024, which is not a number',
      },
    ]);
  });

  it("is shown as sent where the line has no daily series, and #N/A where it was sent empty", () => {
    const none: LineDays = new Map([[lineKey(REVENUE), undefined]]);
    expect(valueCell(statement(none), row(REVENUE, JAN, 999), REVENUE, JAN)).toBe(999);
    expect(valueCell(statement(none), row(REVENUE, JAN, null), REVENUE, JAN)).toEqual({
      error: "na",
      message: "the service sent no revenue figure for January 2024",
    });
  });

  it("asks for the kind of a metric outside the table, naming the service's figure when there is one", () => {
    const line: StatementLine = { section: "Key Metrics", metricId: "fees_cumulative" };
    const days = daysOf(
      line,
      points("2024-01-01", "2024-01-31", (i) => 1000 + i)
    );
    expect(valueCell(statement(days), row(line, JAN, 1234.5), line, JAN)).toEqual({
      error: "na",
      message:
        "the kind of fees_cumulative is not known: add agg=sum, avg or last (sum for an amount per day, avg for a rate or an average, last for a level or a running total); the statement's figure for January 2024 (1,234.5) cannot be checked against its daily series",
    });
    expect(valueCell(statement(days), row(line, JAN, null), line, JAN)).toEqual({
      error: "na",
      message:
        "the kind of fees_cumulative is not known: add agg=sum, avg or last (sum for an amount per day, avg for a rate or an average, last for a level or a running total); the statement's figure for January 2024 cannot be checked against its daily series",
    });
  });
});

describe("a line's days for a period", () => {
  it("roll up by the metric's kind, and sum a metric outside the table", () => {
    const users: StatementLine = { section: "Key Metrics", metricId: "user_dau" };
    expect(
      lineFigure(
        daysOf(
          users,
          points("2024-01-01", "2024-01-31", (i) => i + 1)
        ),
        users,
        JAN
      )?.value
    ).toBe(16);
    const other: StatementLine = { section: "Key Metrics", metricId: "fees_cumulative" };
    expect(
      lineFigure(
        daysOf(
          other,
          points("2024-01-01", "2024-01-31", () => 2)
        ),
        other,
        JAN
      )?.value
    ).toBe(62);
    expect(lineFigure(new Map([[lineKey(other), undefined]]), other, JAN)).toBeUndefined();
  });

  it("are judged by the rule of every figure, naming the period and the line", () => {
    const half = daysOf(
      REVENUE,
      points("2024-01-01", "2024-01-15", () => 100)
    );
    expect(lineJudged(ctx, "stmt", half, REVENUE, JAN, false)).toEqual({
      reason:
        "January 2024 is not complete for stmt revenue: 15 of 31 days (the data goes up to 2024-01-15); partial=include shows it",
      conflict: false,
    });
    expect(lineJudged(ctx, "stmt", half, REVENUE, JAN, true)).toMatchObject({ value: 1500 });
    expect(
      lineJudged(ctx, "stmt", new Map([[lineKey(REVENUE), undefined]]), REVENUE, JAN, false)
    ).toBeUndefined();
  });
});

describe("a change on the previous period", () => {
  const baseOf = (w: PeriodWindow) => (w.start === FEB.start ? JAN.start : w.start - 31);
  const change = (
    days: LineDays,
    jan: FinancialStatementRow | null,
    feb: FinancialStatementRow,
    growth: "pop" | "yoy" = "pop",
    include = false
  ) =>
    changeCell(
      statement(days, include),
      rowIndex(jan ? [{ row: jan, window: JAN }] : []),
      feb,
      REVENUE,
      FEB,
      growth,
      baseOf
    );
  const g = 2900 / 3100 - 1;
  const P = "no pop change for stmt revenue February 2024: ";

  it("is the service's own where it agrees with the two figures", () => {
    const rounded = Math.round(g * 1e4) / 1e4;
    expect(
      change(WHOLE, row(REVENUE, JAN, 3100), row(REVENUE, FEB, 2900, { popChange: rounded }))
    ).toEqual({ percent: rounded });
    // Within a millionth, however many decimals the service sends.
    const close = g + 5e-7;
    expect(
      change(WHOLE, row(REVENUE, JAN, 3100), row(REVENUE, FEB, 2900, { popChange: close }))
    ).toEqual({ percent: close });
  });

  it("is #N/A naming both where the service's change is not its figures'", () => {
    expect(
      change(WHOLE, row(REVENUE, JAN, 3100), row(REVENUE, FEB, 2900, { popChange: 0.5 }))
    ).toEqual({
      error: "na",
      message:
        "no pop change for stmt revenue February 2024: the service's change is 0.5, but its figures give -0.06451612903225812",
    });
  });

  it("is #N/A where the service sent no change", () => {
    expect(change(WHOLE, row(REVENUE, JAN, 3100), row(REVENUE, FEB, 2900))).toEqual({
      error: "na",
      message: "no pop change for stmt revenue February 2024: the service sent no change",
    });
  });

  it("is computed for a year on year change", () => {
    expect(change(WHOLE, row(REVENUE, JAN, 3100), row(REVENUE, FEB, 2900), "yoy")).toEqual({
      percent: g,
    });
  });

  it("is #N/A without a base period, over a base not whole or #N/A, or a current period not whole, partial=include too", () => {
    const lateJan = daysOf(
      REVENUE,
      points("2024-01-10", "2024-02-29", () => 100)
    );
    const lateFeb = daysOf(
      REVENUE,
      points("2024-01-01", "2024-02-20", () => 100)
    );
    const cells = [
      change(WHOLE, null, row(REVENUE, FEB, 2900, { popChange: g })),
      change(
        lateJan,
        row(REVENUE, JAN, 2200),
        row(REVENUE, FEB, 2900, { popChange: g }),
        "pop",
        true
      ),
      change(WHOLE, row(REVENUE, JAN, 999), row(REVENUE, FEB, 2900, { popChange: g })),
      change(
        lateFeb,
        row(REVENUE, JAN, 3100),
        row(REVENUE, FEB, 2000, { popChange: g }),
        "pop",
        true
      ),
    ];
    expect(cells).toEqual(
      [
        P + "the service sent no base period",
        P +
          "its base: January 2024 is not complete for stmt revenue: 22 of 31 days (no value on 9 days from 2024-01-01; the first value is on 2024-01-10); partial=include shows it",
        P +
          "its base: the service's stmt revenue for January 2024 is 999, but its daily series give 3,100 (2024-01-01..2024-01-31): no figure rather than either",
        P +
          "February 2024 is not complete for stmt revenue: 20 of 29 days (the data goes up to 2024-02-20); partial=include shows it",
      ].map((message) => ({ error: "na", message }))
    );
  });

  it("is NM over a base of 0", () => {
    const zeroJan = daysOf(
      REVENUE,
      points("2024-01-01", "2024-02-29", (i) => (i < 31 ? 0 : 100))
    );
    expect(
      change(zeroJan, row(REVENUE, JAN, 0), row(REVENUE, FEB, 2900, { popChange: g }))
    ).toEqual({
      error: "na",
      message: "no pop change for stmt revenue February 2024: NM: the base period's value is 0",
    });
  });
});

describe("the lines' daily series, read from the service", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ rateLimitPerMinute: 100_000 }, { duplicateRows: 0 });
  });
  afterAll(() => h.close());
  const live = (): FnContext => {
    const runtime = currentRuntime();
    return { runtime, engine: runtime.engine, trace: new CallTrace(), today: d("2026-11-20") };
  };
  const FEES: StatementLine = { section: "Income Statement", metricId: "fees" };

  it("are each line's days, and none for a line the project has no series of, which Diagnostics names", async () => {
    // bitcoin has fees but no revenue series.
    const ctx = live();
    const days = await readLineDays(ctx, "bitcoin", [FEES, REVENUE], d("2026-11-01"));
    expect(days.get(lineKey(FEES))?.points.length).toBeGreaterThan(0);
    expect(days.has(lineKey(REVENUE))).toBe(true);
    expect(days.get(lineKey(REVENUE))).toBeUndefined();
    expect([...ctx.trace.warnings]).toEqual([
      "bitcoin revenue: no daily series to check the statement's figures against; shown as the service sent them",
    ]);
  });

  it("fail the statement when the service fails", async () => {
    const ctx = live();
    await readLineDays(ctx, "aave", [REVENUE], d("2026-11-19")); // the catalogues, kept
    h.sim.setKnobs({ fraction5xx: 1 });
    try {
      const error = await excelError(readLineDays(ctx, "aave", [FEES], d("2026-11-01")));
      expect(error.message).toMatch(/HTTP 5\d\d/);
    } finally {
      h.sim.setKnobs({ fraction5xx: 0 });
    }
  });
});

describe("a line's figure as known at a vintage", () => {
  const vintage = { at: Date.UTC(2024, 2, 1), label: "2024-03-01", isDay: true };
  /** The statement as of the vintage: `then`, the days as known then; `now`, as held today. */
  const asKnown = (then: LineDays, now: LineDays): StatementContext => ({
    ...statement(then),
    asKnown: { vintage, now, today: TODAY },
  });
  const AS_OF = "as of 2024-03-01";

  it("is the service's where it is the rule of the days as known then", () => {
    expect(valueCell(asKnown(WHOLE, WHOLE), row(REVENUE, JAN, 3100), REVENUE, JAN)).toBe(3100);
  });

  it("is the rule figure of the days then where the service recomputed it from the days as they are now", () => {
    const now = daysOf(
      REVENUE,
      points("2024-01-01", "2024-02-29", () => 110)
    );
    expect(valueCell(asKnown(WHOLE, now), row(REVENUE, JAN, 3410), REVENUE, JAN)).toBe(3100);
  });

  it("is #N/A naming the three figures where the service's is the rule of neither", () => {
    const now = daysOf(
      REVENUE,
      points("2024-01-01", "2024-01-20", () => 110)
    );
    expect(valueCell(asKnown(WHOLE, now), row(REVENUE, JAN, 999), REVENUE, JAN)).toEqual({
      error: "na",
      message: `the service's stmt revenue for January 2024 is 999, but its daily series give no whole figure now and 3,100 ${AS_OF}: it is not the rule of its days, so it cannot be rebuilt ${AS_OF}`,
    });
  });

  it("cannot be known for a line without daily series, a metric of unknown kind or a figure sent empty", () => {
    const none: LineDays = new Map([[lineKey(REVENUE), undefined]]);
    const other: StatementLine = { section: "Key Metrics", metricId: "fees_cumulative" };
    const otherDays = daysOf(
      other,
      points("2024-01-01", "2024-01-31", () => 2)
    );
    expect([
      valueCell(asKnown(none, WHOLE), row(REVENUE, JAN, 3100), REVENUE, JAN),
      valueCell(asKnown(WHOLE, none), row(REVENUE, JAN, 3100), REVENUE, JAN),
      valueCell(asKnown(otherDays, otherDays), row(other, JAN, 62), other, JAN),
      valueCell(asKnown(WHOLE, WHOLE), row(REVENUE, JAN, null), REVENUE, JAN),
    ]).toEqual(
      [
        `stmt revenue for January 2024 cannot be known ${AS_OF}: the line has no daily series of its own, and the service's statements are not kept`,
        `stmt revenue for January 2024 cannot be known ${AS_OF}: the line has no daily series of its own, and the service's statements are not kept`,
        "the kind of fees_cumulative is not known: add agg=sum, avg or last (sum for an amount per day, avg for a rate or an average, last for a level or a running total); stmt fees_cumulative for January 2024 cannot be known as of 2024-03-01",
        `the service sent no revenue figure for January 2024, so it cannot be rebuilt ${AS_OF}`,
      ].map((message) => ({ error: "na", message }))
    );
  });
});
