import {
  addDays,
  dayNumber,
  formatDay,
  isIsoDate,
  parseDay,
  periodEnd,
  periodStart,
} from "../../../src/client/data/days";
import fc from "fast-check";
import { propertyRuns } from "../../support/property-runs";

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

  /** An independent reading of "YYYY-MM-DD": a regular expression, and a Date that must give the day back. */
  function byDate(text: string): number | undefined {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
    if (!m) return undefined;
    const [y, mo, day] = [m[1], m[2], m[3]].map(Number);
    const date = new Date(0);
    date.setUTCFullYear(y, mo - 1, day);
    if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== day)
      return undefined;
    return date.getTime() / 86_400_000;
  }

  it("agrees with Date on every day of the years around each century, leap rule and era", () => {
    const years = [
      0, 1, 3, 4, 99, 100, 101, 399, 400, 1600, 1899, 1900, 1969, 1970, 2000, 2024, 2100,
    ];
    const wrong: string[] = [];
    for (const y of [...years, 9999]) {
      for (let mo = 1; mo <= 12; mo++)
        for (let day = 0; day <= 32; day++) {
          const text = `${String(y).padStart(4, "0")}-${String(mo).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
          if (parseDay(text) !== byDate(text)) wrong.push(text);
        }
    }
    expect(wrong).toEqual([]);
  });

  it("agrees with Date on any day from year 0 to 9999, and on text that is nearly a date", () => {
    const first = byDate("0000-01-01")!;
    const last = byDate("9999-12-31")!;
    fc.assert(
      fc.property(fc.integer({ min: first, max: last }), (n) => {
        const text = formatDay(n);
        expect(parseDay(text)).toBe(n);
      }),
      { numRuns: propertyRuns(2000) }
    );
    const char = fc.constantFrom(..."0123456789-- x\u0660\uff11");
    const nearly = fc.oneof(
      fc.array(char, { minLength: 8, maxLength: 12 }).map((chars) => chars.join("")),
      // A real day with one character changed: a day of another month, or no day at all.
      fc
        .tuple(fc.integer({ min: first, max: last }), fc.nat({ max: 9 }), char)
        .map(([n, at, c]) => {
          const text = formatDay(n);
          return `${text.slice(0, at)}${c}${text.slice(at + 1)}`;
        })
    );
    fc.assert(
      fc.property(nearly, (text) => {
        expect(parseDay(text)).toBe(byDate(text));
      }),
      { numRuns: propertyRuns(2000) }
    );
  });
});
