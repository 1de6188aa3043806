/** A statement's periods as its rows declare them (src/functions/impl/statement-periods.ts). */
import { dayNumber, formatDay } from "../../src/client/data/days";
import type { FinancialStatementRow } from "../../src/client";
import {
  canonicalSection,
  declaredRange,
  periodOfRow,
} from "../../src/functions/impl/statement-periods";

const range = (text: string) => {
  const r = declaredRange(text);
  return r && [formatDay(r.from), formatDay(r.to)];
};

const row = (date: string, subheading: string): FinancialStatementRow => ({
  date,
  heading: "H",
  subheading,
  granularity: "week",
  projectName: "Aave",
  section: "Income statement",
  metricId: "fees",
  value: 1,
  popChange: null,
  definition: "",
});

describe("the days a statement row declares", () => {
  it("reads the service's date ranges, across a year's end too", () => {
    expect(range("Jan 1 – Mar 31, 2025")).toEqual(["2025-01-01", "2025-03-31"]);
    expect(range("Dec 30, 2024 – Jan 5, 2025")).toEqual(["2024-12-30", "2025-01-05"]);
    // A first part without its year, in a later month: the year before.
    expect(range("Dec 29 – Jan 4, 2025")).toEqual(["2024-12-29", "2025-01-04"]);
    expect(range("Nov 29 - Dec 5, 2026")).toEqual(["2026-11-29", "2026-12-05"]);
    expect(range("September 1 to September 30, 2026")).toEqual(["2026-09-01", "2026-09-30"]);
    expect(range("Sept. 1 — Sept. 7, 2026")).toEqual(["2026-09-01", "2026-09-07"]);
    expect(range("Feb 29 – Feb 29, 2024")).toEqual(["2024-02-29", "2024-02-29"]);
    // Spacing as a person types it: around the text, twice between words, no comma before the year.
    expect(range("  Jan 1 – Mar 31, 2025 ")).toEqual(["2025-01-01", "2025-03-31"]);
    expect(range("Jan  1  –  Mar 31,  2025")).toEqual(["2025-01-01", "2025-03-31"]);
    expect(range("Jan 1 – Mar 31 2025")).toEqual(["2025-01-01", "2025-03-31"]);
  });

  it("declares nothing for text that is no range, a day that does not exist, or more than a year", () => {
    for (const text of [
      "",
      "Q1 '25",
      "Jan 1, 2025",
      "Jan 1 – Mar 31",
      "Foo 1 – Mar 31, 2025",
      "Jan 1 – Bar 31, 2025",
      "Feb 30 – Mar 31, 2025",
      "Mar 31, 2025 – Jan 1, 2025",
      "Jan 1, 2020 – Mar 31, 2025",
      "Jan 1 – Feb 1 – Mar 1, 2025",
      "Jan 1 – Feb 1, 2025 – Mar 1, 2025",
      // A part that is no month and day, on either side, or with more after it.
      "1 Jan – Mar 31, 2025",
      "Jan 1 – 31 Mar 2025",
      "xJan 1 – Mar 31, 2025",
      "Jan 1 – Mar 31, 2025x",
      // A last day that does not exist; a year read as 1900 + its two digits; one day more than a year.
      "Jan 1 – Feb 30, 2025",
      "Jan 1, 0099 – Mar 31, 0099",
      "Jan 1, 2024 – Jan 1, 2025",
    ])
      expect({ text, range: declaredRange(text) }).toEqual({ text, range: undefined });
    expect(range("Jan 1, 2024 – Dec 31, 2024")).toEqual(["2024-01-01", "2024-12-31"]);
  });

  it("is the declared range whatever day dates the row, else the calendar period of its date", () => {
    const sunday = periodOfRow(row("2026-11-29", "Nov 29 – Dec 5, 2026"), "week");
    expect([formatDay(sunday.window.start), formatDay(sunday.window.end)]).toEqual([
      "2026-11-29",
      "2026-12-05",
    ]);
    expect(sunday.declared).toBe(true);
    expect(sunday.key).toBe(`${dayNumber("2026-11-29")}..${dayNumber("2026-12-05")}`);
    const byEnd = periodOfRow(row("2025-03-31", "Jan 1 – Mar 31, 2025"), "quarter");
    const byStart = periodOfRow(row("2025-01-01", "Jan 1 – Mar 31, 2025"), "quarter");
    expect(byEnd.key).toBe(byStart.key);
    const unlabelled = periodOfRow(row("2025-02-15", ""), "quarter");
    expect(unlabelled.declared).toBe(false);
    expect([formatDay(unlabelled.window.start), formatDay(unlabelled.window.end)]).toEqual([
      "2025-01-01",
      "2025-03-31",
    ]);
    expect(unlabelled.heading).toBe("H");
  });
});

describe("sections", () => {
  it("are the template's when they are its words in another case or spacing", () => {
    expect(canonicalSection("Income Statement")).toBe("Income statement");
    expect(canonicalSection("  KEY   metrics ")).toBe("Key metrics");
    expect(canonicalSection("Income statement")).toBe("Income statement");
    expect(canonicalSection(" Treasury ")).toBe("Treasury");
    // Spacing is folded, not removed: other words are another section.
    expect(canonicalSection("Incomes tatement")).toBe("Incomes tatement");
  });
});
