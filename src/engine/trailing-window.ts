/**
 * Trailing windows (`window=` on VALUE, `metric:window` in COMPS columns): the days a figure such as
 * "revenue TTM" or "fees over the last 30 days" covers, ending on a given day.
 *
 * - `<N>d`: the N days ending on the end day, both included (30d to 2024-03-31 is 2024-03-02..2024-03-31);
 * - `<N>m`: N calendar months, from the day after the same day N months earlier (a day the earlier month lacks
 *   is its last day: 12m to 2024-02-29 starts on 2023-03-01);
 * - `ttm`: the same as `12m`;
 * - `ytd`, `qtd`, `mtd`: from the first day of the end day's year, quarter or month.
 *
 * Pure: days are day numbers (client/data/days.ts); which days have data is the caller's part.
 */
import { formatDay, periodStart } from "../client/data/days";

export type TrailingWindow =
  | { kind: "days"; n: number; text: string }
  | { kind: "months"; n: number; text: string }
  | { kind: "todate"; period: "year" | "quarter" | "month"; text: string };

/** Ten years: a longer window is a typo, not an analysis (and would read a whole history per cell). */
export const MAX_WINDOW_DAYS = 3_660;
export const MAX_WINDOW_MONTHS = 120;

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
      return sameDayMonthsEarlier(end, w.n) + 1;
  }
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

/** A summed window's figure scaled to 365 days (`annualize=1`). */
export function annualized(sum: number, from: number, to: number): number {
  return (sum * 365) / (to - from + 1);
}
