/**
 * `vintage=`: the instant a figure is asked as known at. A date is the end of that UTC day (what was known when
 * the day was over: `vintage=2026-11-20` is 2026-11-20T23:59:59.999Z); a date and time with its zone (Z or an
 * offset) is that instant. A time without a zone is refused (whose 09:30?), as is an instant after now (past the
 * current second): no one knows yet what will be known then.
 */
import { parseDay } from "../../client";
import type { Known } from "./timeline";

export interface Vintage {
  /** The instant, ms since epoch: a figure seen at or before it was known. */
  at: number;
  /** As the user wrote it, normalised ("2026-11-20", "2026-11-20T09:30:00Z"). */
  label: string;
  /** True when a whole day was given (messages then name days, not instants). */
  isDay: boolean;
}

const MS_PER_DAY = 86_400_000;
const INSTANT =
  /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(z|[+-]\d{2}:?\d{2})?$/i;

/** The vintage a text names, or why it names none (in the user's words, for a #VALUE!). */
export function parseVintage(text: string, now: number): Vintage | { error: string } {
  const t = text.trim();
  const day = parseDay(t);
  let vintage: Vintage;
  if (day !== undefined) {
    vintage = { at: (day + 1) * MS_PER_DAY - 1, label: t, isDay: true };
    // Today is allowed: what is known so far today.
    if (day * MS_PER_DAY > now)
      return {
        error: `vintage=${t} is after today; a vintage is a day (or instant) that has passed`,
      };
    return vintage;
  }
  const m = INSTANT.exec(t);
  if (!m)
    return {
      error: `vintage="${t}" is not a date; use vintage=YYYY-MM-DD (the end of that UTC day) or vintage=YYYY-MM-DDTHH:MM:SSZ`,
    };
  const [, date, hh, mm, ss = "00", ms = "0", zone] = m;
  if (!zone)
    return {
      error: `vintage=${t} has no time zone; add Z for UTC (vintage=${date}T${hh}:${mm}:${ss}Z) or an offset such as +01:00`,
    };
  const d = parseDay(date);
  const h = Number(hh);
  const mi = Number(mm);
  const s = Number(ss);
  if (d === undefined || h > 23 || mi > 59 || s > 59)
    return { error: `vintage=${t} is not a real date and time` };
  let offset = 0;
  if (zone.toLowerCase() !== "z") {
    const z = /^([+-])(\d{2}):?(\d{2})$/.exec(zone)!;
    const minutes = Number(z[2]) * 60 + Number(z[3]);
    if (Number(z[2]) > 14 || Number(z[3]) > 59)
      return { error: `vintage=${t} has an offset no time zone has` };
    offset = (z[1] === "+" ? 1 : -1) * minutes * 60_000;
  }
  const at = d * MS_PER_DAY + ((h * 60 + mi) * 60 + s) * 1000 + Number(ms.padEnd(3, "0")) - offset;
  // The current second is not the future: a lineage row's vintage and CHANGES's Seen are rounded up to the
  // second, and a program may ask for one at once. Nothing is seen after now, so it is the record as of now.
  if (at > Math.ceil(now / 1000) * 1000)
    return { error: `vintage=${t} is in the future; a vintage is an instant that has passed` };
  vintage = { at, label: new Date(at).toISOString().replace(".000Z", "Z"), isDay: false };
  return vintage;
}

/** "2026-11-24" for a day vintage, the instant otherwise. */
function when(vintage: Vintage, at: number): string {
  const iso = new Date(at).toISOString();
  return vintage.isDay ? iso.slice(0, 10) : iso.replace(".000Z", "Z");
}

/**
 * The #N/A text of a figure not known at the vintage: "not known on 2026-11-20: first seen 2026-11-24", and
 * when older changes were dropped, since when the record holds.
 */
export function notKnownMessage(vintage: Vintage, known: Extract<Known, { known: false }>): string {
  const on = vintage.isDay ? `on ${vintage.label}` : `at ${vintage.label}`;
  const first =
    known.firstSeen === undefined ? "never seen" : `first seen ${when(vintage, known.firstSeen)}`;
  const kept =
    known.keptSince === undefined
      ? ""
      : ` (changes seen before ${when(vintage, known.keptSince)} are no longer kept)`;
  return `not known ${on}: ${first}${kept}`;
}
