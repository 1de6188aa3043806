/**
 * Growth figures (`values=pop|yoy`): the change of a period's figure against a base, as a ratio (0.15 is
 * +15 %). `pop` compares with the previous period, `yoy` with the same period a year earlier. There is no
 * figure (a reason instead) where there is no base, or the base is 0 or negative: a change over a loss means
 * nothing (a loss that narrows from -17.9 m to -11.3 m is not "-37 %"), so it is "NM", not meaningful, as
 * Bloomberg and FactSet show it. Growth compares like with like: both periods whole (figures.ts); the
 * caller decides that, every function the same way.
 */
import { formatDay, periodStart, type Period } from "../../client";

export type Growth = "pop" | "yoy";

/** The ratio, or why there is none. */
type GrowthFigure = { value: number } | { missing: string };

export function growthOf(current: number | null, base: number | null | undefined): GrowthFigure {
  if (current === null) return { missing: "no value for the period" };
  if (base === null || base === undefined) return { missing: "no base period to compare with" };
  const nm = notMeaningful("the base period's value", base, "a change");
  if (nm) return { missing: nm };
  return { value: current / base - 1 };
}

/**
 * The NM rule, one for every figure that divides (growth, a comps ratio, a card's P/S, a breakdown's share):
 * a divisor of 0 has no ratio, and one below 0 (a loss) has no meaningful one. `what` names the divisor
 * ("the base period's value", "revenue TTM"), `figure` what it would make ("a change", "a ratio").
 */
export function notMeaningful(what: string, divisor: number, figure: string): string | undefined {
  if (divisor === 0) return `NM: ${what} is 0`;
  if (divisor < 0)
    return `NM: ${what} is negative (${formatAmount(divisor)}), so ${figure} over it means nothing`;
  return undefined;
}

/** A ratio by the NM rule. */
export function ratioOf(numerator: number, divisor: number, what: string): GrowthFigure {
  const nm = notMeaningful(what, divisor, "a ratio");
  return nm ? { missing: nm } : { value: numerator / divisor };
}

/** "-17,855,097": a base named in a message. */
function formatAmount(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/** The first day of the base period of the period starting on `start`. */
export function baseStart(start: number, period: Period, growth: Growth): number {
  if (growth === "pop") return periodStart(start - 1, period);
  if (period === "week") return start - 364; // 52 weeks: the same weekday, as terminals compare weeks
  if (period === "day") return sameDayYearEarlier(start);
  return periodStart(sameDayYearEarlier(start), period);
}

function sameDayYearEarlier(day: number): number {
  const text = formatDay(day);
  const d = new Date(day * 86_400_000);
  // 29 February a year earlier is 28 February.
  const earlier = new Date(0).setUTCFullYear(
    d.getUTCFullYear() - 1,
    d.getUTCMonth(),
    d.getUTCDate()
  );
  const result = earlier / 86_400_000;
  return text.endsWith("-02-29") ? result - 1 : result;
}

/** "Change YoY" / "Change PoP": what a growth column's heading says. */
export function growthHeading(growth: Growth): string {
  return growth === "yoy" ? "Change YoY" : "Change PoP";
}
