import {
  addDays,
  dayNumber,
  formatDay,
  isIsoDate,
  parseDay,
  periodEnd,
  periodStart,
} from "../../../src/client/data/days";

const d = dayNumber;

describe("calendar days", () => {
  it("parses real calendar days only", () => {
    expect(parseDay("2024-02-29")).toBe(19782);
    expect(parseDay("2023-02-29")).toBeUndefined();
    expect(parseDay("2024-13-01")).toBeUndefined();
    expect(parseDay("24-01-01")).toBeUndefined();
    expect(isIsoDate("2024-02-29")).toBe(true);
    expect(isIsoDate("2024-02-30")).toBe(false);
    expect(formatDay(19782)).toBe("2024-02-29");
    expect(addDays("2024-12-31", 1)).toBe("2025-01-01");
  });

  it.each([
    ["week", "2024-01-03", "2024-01-01", "2024-01-07"],
    ["month", "2024-02-15", "2024-02-01", "2024-02-29"],
    ["quarter", "2024-05-20", "2024-04-01", "2024-06-30"],
    ["year", "2024-07-04", "2024-01-01", "2024-12-31"],
  ] as const)(
    "finds the %s holding a day (ISO weeks start on Monday)",
    (period, day, first, last) => {
      expect(formatDay(periodStart(d(day), period))).toBe(first);
      expect(formatDay(periodEnd(d(day), period))).toBe(last);
    }
  );

  it("reads years before 100 as written, not as 19xx", () => {
    // 1,900 years apart, 460 of them leap years.
    expect(dayNumber("1999-01-01") - dayNumber("0099-01-01")).toBe(1900 * 365 + 460);
    expect(formatDay(dayNumber("0099-01-01"))).toBe("0099-01-01");
    expect(formatDay(dayNumber("0001-03-01"))).toBe("0001-03-01");
  });
});
