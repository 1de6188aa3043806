/** Growth and ratios: one NM rule for every figure that divides (src/engine/figures/growth.ts). */
import { dayNumber, formatDay } from "../../../src/client/data/days";
import {
  baseStart,
  growthHeading,
  growthOf,
  notMeaningful,
  ratioOf,
} from "../../../src/engine/figures/growth";

const d = dayNumber;

describe("growth", () => {
  it("is the change on the base as a ratio", () => {
    expect(growthOf(115, 100)).toEqual({ value: 115 / 100 - 1 });
    expect(growthOf(-50, 100)).toEqual({ value: -1.5 });
  });

  it("is NM over a base of 0 or below, and says why, and missing without a figure or a base", () => {
    expect(growthOf(10, 0)).toEqual({ missing: "NM: the base period's value is 0" });
    expect(growthOf(10, -17_855_096.6)).toEqual({
      missing:
        "NM: the base period's value is negative (-17,855,097), so a change over it means nothing",
    });
    expect(growthOf(null, 10)).toEqual({ missing: "no value for the period" });
    expect(growthOf(10, null)).toEqual({ missing: "no base period to compare with" });
    expect(growthOf(10, undefined)).toEqual({ missing: "no base period to compare with" });
  });

  it("compares with the previous period (pop), or the same period a year earlier (yoy)", () => {
    const base = (
      start: string,
      period: "day" | "week" | "month" | "quarter" | "year",
      g: "pop" | "yoy"
    ) => formatDay(baseStart(d(start), period, g));
    expect(base("2024-04-01", "quarter", "pop")).toBe("2024-01-01");
    expect(base("2024-04-01", "quarter", "yoy")).toBe("2023-04-01");
    expect(base("2024-03-01", "month", "pop")).toBe("2024-02-01");
    expect(base("2024-01-01", "year", "yoy")).toBe("2023-01-01");
    // Weeks a year apart are 52 weeks apart: the same weekday.
    expect(base("2024-01-08", "week", "yoy")).toBe("2023-01-09");
    expect(base("2024-01-08", "week", "pop")).toBe("2024-01-01");
    expect(base("2024-03-05", "day", "pop")).toBe("2024-03-04");
    expect(base("2024-03-05", "day", "yoy")).toBe("2023-03-05");
    // 29 February a year earlier is 28 February.
    expect(base("2024-02-29", "day", "yoy")).toBe("2023-02-28");
    expect(base("2024-02-29", "month", "yoy")).toBe("2023-02-01");
  });

  it("heads a growth column with what it compares", () => {
    expect(growthHeading("yoy")).toBe("Change YoY");
    expect(growthHeading("pop")).toBe("Change PoP");
  });
});

describe("the NM rule for ratios", () => {
  it("divides by a divisor above 0", () => {
    expect(ratioOf(10, 4, "revenue TTM")).toEqual({ value: 2.5 });
    expect(ratioOf(-10, 4, "revenue TTM")).toEqual({ value: -2.5 });
  });

  it("is NM over a divisor of 0 or below, naming it", () => {
    expect(ratioOf(10, 0, "revenue TTM")).toEqual({ missing: "NM: revenue TTM is 0" });
    expect(ratioOf(10, -2_000.4, "earnings TTM")).toEqual({
      missing: "NM: earnings TTM is negative (-2,000), so a ratio over it means nothing",
    });
    expect(notMeaningful("the total", 0.0001, "a share")).toBeUndefined();
    expect(notMeaningful("the total", -0.0001, "a share")).toBe(
      "NM: the total is negative (-0), so a share over it means nothing"
    );
  });
});
