/** Normalisation of single values: metric numbers and dates, as the service actually sends them. */
import { isIsoDate } from "./days";
import type { IsoDate, MetricValue, OrderDirection } from "./types";

// Plain decimal notation only: Number() alone would also read "0x1f", "Infinity" and "" as numbers.
const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * JSON number, numeric string or null → number | null. Anything else (booleans, "N/A", objects,
 * non-finite numbers) becomes null: a cell left blank is better than a whole series refused.
 */
export function toMetricValue(value: unknown): MetricValue {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string") {
    const text = value.trim();
    if (!NUMERIC.test(text)) return null;
    const n = Number(text);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** Characters of an unreadable value kept to name it (a hostile service may send megabytes). */
const MAX_SENT_CHARS = 40;

/**
 * What the service sent for a value that is present but no number, as a short text to name it ("1,234.50",
 * "true", "Infinity", "1e400"); undefined when the value is a number, a numeric string or no value at all
 * (null, absent, an empty string). Control characters become spaces and the text is cut: it goes into a
 * message a person reads.
 */
export function unreadableText(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "string" && value.trim() === "") return undefined;
  if (toMetricValue(value) !== null) return undefined;
  const raw = typeof value === "string" ? value.trim() : (JSON.stringify(value) ?? typeof value);
  const clean = Array.from(raw, (ch) => (/[\p{Cc}\p{Cf}]/u.test(ch) ? " " : ch)).join("");
  return clean.length > MAX_SENT_CHARS ? `${clean.slice(0, MAX_SENT_CHARS - 1)}…` : clean;
}

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * A timestamp as sent (YYYY-MM-DD, or an ISO date-time such as 2024-01-01T00:00:00.000Z or
 * 2024-01-02T00:00:00+02:00) → the calendar date it writes, "YYYY-MM-DD". The service's data points are
 * days: a date-time names its day by its date part, whatever its offset (moving 2024-01-02T00:00:00+02:00
 * to UTC would make it the 1st, and every figure a day early). Undefined when the text is no date.
 */
export function toIsoDate(value: unknown): IsoDate | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  // A day alone: isIsoDate reads its shape and its calendar at once (a date-time never has that shape).
  if (isIsoDate(text)) return text;
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const datePart = `${m[1]}-${m[2]}-${m[3]}`;
  return isIsoDate(datePart) ? datePart : undefined;
}

/** Comparator for ISO dates in the requested direction (string order is date order for YYYY-MM-DD). */
export function compareDates(a: IsoDate, b: IsoDate, direction: OrderDirection): number {
  const cmp = a < b ? -1 : a > b ? 1 : 0;
  return direction === "asc" ? cmp : -cmp;
}

/** Plain string comparison, stable across locales (used for tie-breaking so output is deterministic). */
export function compareText(a: string | undefined, b: string | undefined): number {
  const x = a ?? "";
  const y = b ?? "";
  return x < y ? -1 : x > y ? 1 : 0;
}
