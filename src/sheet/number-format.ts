/**
 * TEXT(value, format_text): a number shown in an Excel number format, for the formats models use in labels
 * and headings. Dates: yyyy, yy, mmmm, mmm, mm, m, dddd, ddd, dd, d with literal separators ("mmm yyyy",
 * "yyyy-mm-dd", "dd/mm/yyyy"). Numbers: digits `0` and `#`, a thousands separator `,`, decimals after `.`,
 * a percent `%`, text in quotes or after `\`, `$` and other literal signs, and a second section for negative
 * numbers ("#,##0;(#,##0)"). "General" is the number as a cell shows it. Any other format is refused with the
 * formats it takes, never shown some other way: a label that looks right and is not is what this avoids.
 */
import { roundHalfAway, textFrom } from "./excel-functions";
import { serialToIsoDate, isDateFormat } from "./excel-dates";

// English names, as Excel's TEXT writes them under an English locale: from Intl, not a list of our own. Made on
// first use: Intl's first objects cost a process about 18 ms, which a run without TEXT should not pay at start.
let names: { months: string[]; days: string[] } | undefined;

function namesOf(): { months: string[]; days: string[] } {
  if (names) return names;
  const month = new Intl.DateTimeFormat("en-US", { month: "long", timeZone: "UTC" });
  const weekday = new Intl.DateTimeFormat("en-US", { weekday: "long", timeZone: "UTC" });
  names = {
    months: Array.from({ length: 12 }, (_, m) => month.format(Date.UTC(2024, m, 1))),
    // 2024-01-07 was a Sunday: Excel's weekdays start there.
    days: Array.from({ length: 7 }, (_, d) => weekday.format(Date.UTC(2024, 0, 7 + d))),
  };
  return names;
}

export const TEXT_FORMATS_TAKEN =
  '"0", "0.00", "#,##0", "#,##0.0,,", "0%", "0.0%", "$#,##0", "yyyy-mm-dd", "mmm yyyy", "General"';

/** Literal text of a format: quoted runs and backslash escapes become plain text. */
function literal(token: string): string {
  if (token.startsWith('"')) return token.slice(1, -1);
  if (token.startsWith("\\")) return token.slice(1);
  return token;
}

/**
 * A month or day code of `letters` letters: m/d the number, mm/dd two digits, mmm/ddd the name's first three
 * letters, mmmm/dddd (or longer) the whole name (for days, the weekday's).
 */
function numberOrName(letters: number, value: number, name: string): string {
  if (letters === 1) return String(value);
  if (letters === 2) return String(value).padStart(2, "0");
  return letters === 3 ? name.slice(0, 3) : name;
}

function formatDate(serial: number, format: string): string | undefined {
  const iso = serialToIsoDate(serial);
  if (iso === undefined) return undefined;
  const [year, month, day] = iso.split("-").map(Number);
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  const tokens = format.match(/"[^"]*"|\\.|y+|m+|d+|[^ymd"\\]+/gi) ?? [];
  let out = "";
  for (const token of tokens) {
    const lower = token.toLowerCase();
    if (/^y+$/.test(lower)) out += lower.length <= 2 ? String(year).slice(-2) : String(year);
    else if (/^m+$/.test(lower))
      out += numberOrName(lower.length, month, namesOf().months[month - 1]);
    else if (/^d+$/.test(lower)) out += numberOrName(lower.length, day, namesOf().days[weekday]);
    else if (/[hs]/i.test(token) && !token.startsWith('"')) return undefined;
    else out += literal(token);
  }
  return out;
}

/** One section of a number format: what comes before and after the digits, and how the digits are shown. */
function formatNumber(value: number, section: string): string | undefined {
  const parts: string[] = section.match(/"[^"]*"|\\.|[#0,.]+|%|[^#0,.%"\\]+/g) ?? [];
  const core = parts.filter((p) => /^[#0,.]+$/.test(p) && /[#0]/.test(p));
  if (core.length !== 1) return undefined;
  const digits = core[0];
  const percent = parts.includes("%");
  // Commas after the last digit scale by a thousand each ("#,##0,," shows millions).
  const trailing = /,+$/.exec(digits)?.[0].length ?? 0;
  const integer = digits.split(".")[0].replace(/,+$/, "");
  const grouped = integer.includes(",");
  const decimals = (digits.split(".")[1] ?? "").replace(/[^0#]/g, "").length;
  const minimumInteger = (integer.match(/0/g) ?? []).length;
  let n = (Math.abs(value) * (percent ? 100 : 1)) / 1000 ** trailing;
  n = roundHalfAway(n, decimals);
  const [digitsBefore, fraction = ""] = n.toFixed(decimals).split(".");
  let whole = digitsBefore;
  if (minimumInteger === 0 && whole === "0") whole = "";
  whole = whole.padStart(minimumInteger, "0");
  if (grouped) whole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const shown = fraction ? `${whole}.${fraction}` : whole;
  return parts.map((p) => (p === core[0] ? shown : p === "%" ? "%" : literal(p))).join("");
}

/** The value in the format, or undefined when the format is not one this sheet takes. */
export function formatText(value: number, format: string): string | undefined {
  if (format.trim().toLowerCase() === "general" || format === "") return textFrom(value);
  if (isDateFormat(format)) return formatDate(value, format);
  const sections = format.split(";");
  if (sections.length > 3) return undefined;
  if (value < 0 && sections.length >= 2) return formatNumber(-value, sections[1]);
  if (value === 0 && sections.length === 3) return formatNumber(0, sections[2]);
  const shown = formatNumber(value, sections[0]);
  if (shown === undefined) return undefined;
  const zero = Number(shown.replace(/[^\d]/g, "") || "0") === 0;
  return value < 0 && !zero ? `-${shown}` : shown;
}
