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
