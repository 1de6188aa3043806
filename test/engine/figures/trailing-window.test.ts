import { dayNumber, formatDay } from "../../../src/client/data/days";
import {
  annualized,
  parseWindow,
  windowLabel,
  windowStart,
  type TrailingWindow,
} from "../../../src/engine/figures/trailing-window";

function startOf(text: string, end: string): string {
  const w = parseWindow(text);
  if (!w) throw new Error(`no window ${text}`);
  return formatDay(windowStart(w, dayNumber(end)));
}

describe("trailing windows", () => {
  it("ttm to a quarter end starts the day after the same day a year earlier", () => {
    expect(startOf("ttm", "2024-03-31")).toBe("2023-04-01");
    expect(startOf("12m", "2024-03-31")).toBe("2023-04-01");
  });

  it("months ending on a month's last day are whole calendar months", () => {
    // 3m to a quarter's end is the quarter, not the 92 days from 31 March.
    expect(startOf("3m", "2024-06-30")).toBe("2024-04-01");
    expect(startOf("3m", "2024-05-31")).toBe("2024-03-01");
    // 1m to the end of February is February, not 29 January to 28 February.
    expect(startOf("1m", "2025-02-28")).toBe("2025-02-01");
    expect(startOf("1m", "2024-02-29")).toBe("2024-02-01");
    expect(startOf("1m", "2024-03-31")).toBe("2024-03-01");
    // ttm to the end of February 2025 is 365 days, not 366 from 29 February 2024.
    const ttm = parseWindow("ttm")!;
    const end = dayNumber("2025-02-28");
    expect(end - windowStart(ttm, end) + 1).toBe(365);
    expect(startOf("ttm", "2025-02-28")).toBe("2024-03-01");
    expect(startOf("ttm", "2024-02-29")).toBe("2023-03-01");
  });

  it("months ending on another day start the day after the same day N months earlier", () => {
    expect(startOf("1m", "2024-03-30")).toBe("2024-03-01");
    expect(startOf("3m", "2024-01-15")).toBe("2023-10-16");
    expect(startOf("3m", "2024-06-15")).toBe("2024-03-16");
    expect(startOf("ttm", "2024-03-15")).toBe("2023-03-16");
  });

  it("N days include both ends", () => {
    expect(startOf("30d", "2024-03-31")).toBe("2024-03-02");
    expect(startOf("1d", "2024-03-31")).toBe("2024-03-31");
    expect(startOf("90d", "2024-03-31")).toBe("2024-01-02");
  });

  it("to-date windows start on the first day of the year, quarter or month", () => {
    expect(startOf("ytd", "2024-05-17")).toBe("2024-01-01");
    expect(startOf("QTD", "2024-05-17")).toBe("2024-04-01");
    expect(startOf("mtd", "2024-05-17")).toBe("2024-05-01");
    expect(startOf("mtd", "2024-05-01")).toBe("2024-05-01");
  });

  it("refuses texts that name no window, zero and lengths past ten years", () => {
    for (const text of ["", "ttm2", "30", "d", "0d", "0m", "3w", "-3d", "3661d", "121m", "1.5m"])
      expect(parseWindow(text)).toBeUndefined();
    expect(parseWindow("3660d")).toMatchObject({ kind: "days", n: 3660 });
    expect(parseWindow("120m")).toMatchObject({ kind: "months", n: 120 });
  });

  it("labels a window by its text and its days", () => {
    const w = parseWindow("ttm") as TrailingWindow;
    expect(windowLabel(w, dayNumber("2023-04-01"), dayNumber("2024-03-31"))).toBe(
      "ttm to 2024-03-31 (2023-04-01..2024-03-31)"
    );
  });

  it("annualizes a sum by 365 over the days it covers, a leap year's 366 included", () => {
    expect(annualized(30, 30)).toBeCloseTo(365);
    expect(annualized(366, 366)).toBeCloseTo(365);
    expect(annualized(90, 90)).toBeCloseTo(365);
  });
});
