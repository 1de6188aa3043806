/**
 * Trailing windows (`window=` on VALUE, `metric:window` in COMPS columns): the days a figure such as
 * "revenue TTM" or "fees over the last 30 days" covers, ending on a given day.
 *
 * - `<N>d`: the N days ending on the end day, both included (30d to 2024-03-31 is 2024-03-02..2024-03-31);
 * - `<N>m`: N calendar months. Ending on a month's last day, they are N whole calendar months (3m to
 *   2024-06-30 is April to June, 1m to 2025-02-28 is February, ttm to 2025-02-28 is 2024-03-01..2025-02-28,
 *   365 days); ending on another day, from the day after the same day N months earlier (3m to 2024-06-15
 *   starts on 2024-03-16);
 * - `ttm`: the same as `12m`;
 * - `ytd`, `qtd`, `mtd`: from the first day of the end day's year, quarter or month.
 *
 * Pure: days are day numbers (client/data/days.ts); which days have data is the caller's part.
 */
import { formatDay, periodEnd, periodStart } from "../../client";

export type TrailingWindow =
  | { kind: "days"; n: number; text: string }
  | { kind: "months"; n: number; text: string }
  | { kind: "todate"; period: "year" | "quarter" | "month"; text: string };

/** Ten years: a longer window is a typo, not an analysis (and would read a whole history per cell). */
const MAX_WINDOW_DAYS = 3_660;
const MAX_WINDOW_MONTHS = 120;

/** What `window=` takes, for messages and the formula builder. */
export const WINDOW_FORMS = "<N>d, <N>m, ttm, ytd, qtd or mtd (e.g. 30d, 3m)";

const FORM = /^(\d{1,5})([dm])$/;

/** The window a text names (case-insensitive), or undefined when it names none. */
export function parseWindow(text: string): TrailingWindow | undefined {
  const t = text.trim().toLowerCase();
  if (t === "ttm") return { kind: "months", n: 12, text: "ttm" };
  if (t === "ytd") return { kind: "todate", period: "year", text: t };
  if (t === "qtd") return { kind: "todate", period: "quarter", text: t };
  if (t === "mtd") return { kind: "todate", period: "month", text: t };
  const m = FORM.exec(t);
  if (!m) return undefined;
  const n = Number(m[1]);
  if (n < 1) return undefined;
  if (m[2] === "d") return n <= MAX_WINDOW_DAYS ? { kind: "days", n, text: t } : undefined;
  return n <= MAX_WINDOW_MONTHS ? { kind: "months", n, text: t } : undefined;
}

/** The first day of the window ending on `end` (a day number). */
export function windowStart(w: TrailingWindow, end: number): number {
  switch (w.kind) {
    case "days":
      return end - w.n + 1;
    case "todate":
      return periodStart(end, w.period);
    case "months":
      // A month's last day: whole months, so a quarter's 3m is the quarter and a February's 1m is February.
      return periodEnd(end, "month") === end
        ? firstOfMonthsEarlier(end, w.n - 1)
        : sameDayMonthsEarlier(end, w.n) + 1;
  }
}

/** The first day of the month `months` before the month holding `day`. */
function firstOfMonthsEarlier(day: number, months: number): number {
  const d = new Date(day * 86_400_000);
  return new Date(0).setUTCFullYear(d.getUTCFullYear(), d.getUTCMonth() - months, 1) / 86_400_000;
}

/** The same day of the month `months` earlier; a day that month lacks is its last day. */
function sameDayMonthsEarlier(day: number, months: number): number {
  const d = new Date(day * 86_400_000);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() - months;
  const lastOfTarget = new Date(0).setUTCFullYear(y, m + 1, 0) / 86_400_000;
  const wanted = new Date(0).setUTCFullYear(y, m, d.getUTCDate()) / 86_400_000;
  return Math.min(wanted, lastOfTarget);
}

/** "ttm to 2024-03-31 (2023-04-01..2024-03-31)": what a message says the window was. */
export function windowLabel(w: TrailingWindow, from: number, to: number): string {
  return `${w.text} to ${formatDay(to)} (${formatDay(from)}..${formatDay(to)})`;
}

/**
 * A summed window's figure at an annual rate (`annualize=1`): sum × 365 / the number of days the sum covers.
 * The day count is the days with data the figure rolls up: the window's days when it is whole (30 for 30d,
 * 366 for a ttm holding a 29 February, so that year is scaled by 365/366), fewer with partial=include.
 */
export function annualized(sum: number, days: number): number {
  return (sum * 365) / days;
}
