/** The calendar side of the rule of whole periods (src/engine/figures/completeness.ts). */
import { dayNumber, formatDay } from "../../../src/client/data/days";
import {
  DEFAULT_PARTIAL,
  coveredDays,
  coveredUntil,
  horizonOf,
  incompleteMessage,
  isComplete,
  lastValueDay,
  periodLabel,
  previousWindow,
  windowDays,
  windowOf,
} from "../../../src/engine/figures/completeness";

const d = dayNumber;
const f = (n: number | undefined) => (n === undefined ? undefined : formatDay(n));

describe("periods", () => {
  it("are calendar periods, cut by the user's bounds", () => {
    const q = windowOf(d("2024-02-15"), "quarter");
    expect([f(q.start), f(q.end), f(q.from), f(q.to)]).toEqual([
      "2024-01-01",
      "2024-03-31",
      "2024-01-01",
      "2024-03-31",
    ]);
    const cut = windowOf(d("2024-02-15"), "quarter", d("2024-01-15"), d("2024-03-10"));
    expect([f(cut.start), f(cut.end), f(cut.from), f(cut.to)]).toEqual([
      "2024-01-01",
      "2024-03-31",
      "2024-01-15",
      "2024-03-10",
    ]);
    // Bounds outside the period do not widen it.
    const wide = windowOf(d("2024-02-15"), "month", d("2023-01-01"), d("2025-01-01"));
    expect([f(wide.from), f(wide.to)]).toEqual(["2024-02-01", "2024-02-29"]);
    expect(windowDays(cut)).toBe(56);
    const prev = previousWindow(cut);
    expect([f(prev.start), f(prev.end), f(prev.from), f(prev.to)]).toEqual([
      "2023-10-01",
      "2023-12-31",
      "2023-10-01",
      "2023-12-31",
    ]);
  });

  it("are named as a user reads them", () => {
    const label = (day: string, period: "day" | "week" | "month" | "quarter" | "year") =>
      periodLabel(windowOf(d(day), period));
    expect(label("2026-11-20", "quarter")).toBe("Q4 2026");
    expect(label("2026-01-20", "quarter")).toBe("Q1 2026");
    expect(label("2026-06-30", "quarter")).toBe("Q2 2026");
    expect(label("2026-11-20", "month")).toBe("November 2026");
    expect(label("2026-01-01", "month")).toBe("January 2026");
    expect(label("2026-11-20", "year")).toBe("2026");
    expect(label("2026-11-20", "week")).toBe("the week of 2026-11-16");
    expect(label("2026-11-20", "day")).toBe("2026-11-20");
    // Every month by its English name (the reference's and Excel's "mmmm"), whatever day of it is asked.
    expect(
      Array.from({ length: 12 }, (_, m) =>
        label(`2025-${String(m + 1).padStart(2, "0")}-${m === 1 ? "28" : "15"}`, "month")
      )
    ).toEqual(
      [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
      ].map((name) => `${name} 2025`)
    );
  });

  it("are complete when their days end by the horizon, and cover the days up to it", () => {
    const w = windowOf(d("2026-11-20"), "month");
    expect(isComplete(w, d("2026-11-30"))).toBe(true);
    expect(isComplete(w, d("2026-11-29"))).toBe(false);
    expect(coveredDays(w, d("2026-11-20"))).toBe(20);
    expect(coveredDays(w, d("2026-10-20"))).toBe(0);
    expect(coveredDays(w, d("2026-12-20"))).toBe(30);
    expect(f(coveredUntil(w, d("2026-11-20")))).toBe("2026-11-20");
    expect(f(coveredUntil(w, d("2026-12-20")))).toBe("2026-11-30");
    expect(coveredUntil(w, d("2026-10-31"))).toBeUndefined();
    expect(f(coveredUntil(w, d("2026-11-01")))).toBe("2026-11-01");
    expect(DEFAULT_PARTIAL).toBe("exclude");
  });

  it("say why an incomplete period is not shown", () => {
    const w = windowOf(d("2026-11-20"), "quarter");
    expect(incompleteMessage(w, d("2026-11-20"), "aave fees")).toBe(
      "Q4 2026 is not complete for aave fees: 51 of 92 days; partial=include shows it"
    );
    expect(incompleteMessage(w, d("2026-09-30"))).toBe(
      "Q4 2026 has no data yet (0 of 92 days); partial=include shows it as it fills"
    );
  });
});

describe("the horizon", () => {
  it("is today, or the latest data when earlier", () => {
    expect(horizonOf(d("2026-11-20"), d("2026-11-15"))).toBe(d("2026-11-15"));
    expect(horizonOf(d("2026-11-20"), d("2026-11-25"))).toBe(d("2026-11-20"));
    expect(horizonOf(d("2026-11-20"), undefined)).toBe(-Infinity);
  });

  it("counts a conflict as data, a null as none", () => {
    expect(
      lastValueDay([
        { day: 1, value: 1 },
        { day: 2, value: null, conflict: true },
        { day: 3, value: null },
      ])
    ).toBe(2);
    expect(lastValueDay([{ day: 3, value: null }])).toBeUndefined();
    expect(lastValueDay([])).toBeUndefined();
    expect(lastValueDay([{ day: 4, value: 0 }])).toBe(4);
  });
});
