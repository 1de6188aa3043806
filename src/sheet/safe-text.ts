/**
 * Text from the service made safe for whoever reads it: inert in a spreadsheet (never run as a formula), and
 * in its own order on a screen (no bidirectional control reorders it). Both the CLI and the pages use these.
 */

/**
 * Text that a spreadsheet must show, not run. A cell text starting with =, +, - or @ is read as a formula
 * when Excel opens a CSV file or when the add-in writes it into cells; TAB and CR at the start do the same
 * in some programs. OWASP's rule against CSV injection: such text gets a leading apostrophe, which Excel
 * takes as "this is text" and does not show. Numbers are never passed here: -5 stays a number.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function inertText(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * Text from the service shown to a person must not reorder itself. The Unicode bidirectional formatting
 * characters (embeddings, overrides, isolates and the invisible marks) change the order in which the text
 * around them is displayed: a name holding U+202E shows "gnp.exe" as "exe.png". The CLI's output and the
 * pages show each of them as U+FFFD instead: visible, so nothing is hidden, and inert. (Text in a
 * right-to-left script needs none of them to display right.)
 */
/** The bidirectional formatting characters, as a character class body (one source for CLI and pages). */
export const BIDI_CONTROL_CLASS = "\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069";

const BIDI_CONTROLS = new RegExp(`[${BIDI_CONTROL_CLASS}]`, "g");

/** Shown in place of each neutralised character. */
export const PLACEHOLDER = "\ufffd";

/** The text with every bidirectional formatting character replaced by the placeholder. */
export function neutraliseBidi(text: string): string {
  return text.replace(BIDI_CONTROLS, PLACEHOLDER);
}
