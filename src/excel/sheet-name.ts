/**
 * Worksheet names under Excel's rules: 1 to 31 characters, none of \ / ? * [ ] :, no apostrophe at either
 * end, not "History" (reserved), and unique within the workbook ignoring case.
 */

export const MAX_SHEET_NAME = 31;
const FORBIDDEN = /[\\/?*[\]:]/g;

export function sanitiseSheetName(wanted: string, fallback = "Statement"): string {
  let name = wanted
    .replace(FORBIDDEN, " ")
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  name = stripApostrophes(name.slice(0, MAX_SHEET_NAME));
  if (name === "" || name.toLowerCase() === "history") return fallback;
  return name;
}

function stripApostrophes(name: string): string {
  return name.replace(/^'+/, "").replace(/'+$/, "").trim();
}

/** `base`, or `base (2)`, `base (3)`... shortened so the suffix fits: the first name not taken. */
export function uniqueSheetName(wanted: string, existing: readonly string[]): string {
  const base = sanitiseSheetName(wanted);
  const taken = new Set(existing.map((n) => n.toLowerCase()));
  if (!taken.has(base.toLowerCase())) return base;
  for (let i = 2; ; i += 1) {
    const suffix = ` (${i})`;
    const stem = stripApostrophes(base.slice(0, MAX_SHEET_NAME - suffix.length));
    const candidate = `${stem}${suffix}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}
