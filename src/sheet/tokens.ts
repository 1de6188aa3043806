/**
 * Tokenizer for the formula subset the sheet model accepts (see formula.ts for the grammar). Columns are 1-based
 * positions in the formula text, so error messages point where a user would count.
 */
import { FormulaSyntaxError } from "./errors";

export type Punctuation =
  | "="
  | "("
  | ")"
  | ","
  | ";"
  | "{"
  | "}"
  | "+"
  | "-"
  | "*"
  | "/"
  | "^"
  | "&"
  | ":"
  | "#"
  | "<"
  | ">"
  | "<>"
  | "<="
  | ">=";

export type Token =
  | { kind: "punct"; text: Punctuation; column: number }
  | { kind: "string"; value: string; column: number }
  | { kind: "number"; value: number; text: string; column: number }
  | { kind: "name"; text: string; column: number }
  /** A cell reference, with the fields dot access reads from it: `A1`, `A1.Symbol`, `A1.[Revenue TTM]`. */
  | { kind: "reference"; address: string; fields: string[]; text: string; column: number }
  | { kind: "end"; column: number };

const PUNCTUATION: ReadonlySet<string> = new Set([
  "=",
  "(",
  ")",
  ",",
  ";",
  "{",
  "}",
  "+",
  "-",
  "*",
  "/",
  "^",
  "&",
  ":",
  "#",
  "<",
  ">",
]);

/** Comparison operators of two characters, read as one token. */
const TWO_CHARACTER: ReadonlySet<string> = new Set(["<>", "<=", ">="]);

// Unsigned: a sign is its own token, so "- 1" and "-1" read alike, as in Excel.
const NUMBER = /(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
// Anything glued to a number that would make it a different word ("1e", "1.2.3", "12abc").
const NUMBER_TAIL = /[\p{L}\p{N}_.]+/uy;
const NAME = /[\p{L}_][\p{L}\p{N}_.]*/uy;
// (Skipping one space a turn or a run at once reads the same tokens.)
// Stryker disable next-line Regex: see above
const WHITESPACE = /\s+/y;
// A cell reference as a name begins: 1 to 3 column letters, then the row.
const REFERENCE = /^([A-Za-z]{1,3}[1-9]\d{0,6})(?:\.|$)/;
// An absolute or mixed reference (`$A$1`, `A$1`, `$A1`): the dollars only matter when a formula is copied,
// which the sheets here never do, so it reads as the plain reference.
const DOLLAR_REFERENCE = /\$?[A-Za-z]{1,3}\$?[1-9]\d{0,6}(?![\p{L}\p{N}_.(])/uy;
// One field after a dot: a plain name, or any text in brackets (`[Revenue TTM]`), as Excel writes them.
const FIELD_NAME = /[\p{L}_][\p{L}\p{N}_]*/uy;

// Characters people paste from word processors or other languages; worth a hint instead of a shrug.
const HINTS: Readonly<Record<string, string>> = {
  "\u201c": " (text needs straight double quotes)",
  "\u201d": " (text needs straight double quotes)",
  "'": " (text needs double quotes)",
  "!": " (sheet references are not supported: write the value itself)",
};

function match(pattern: RegExp, text: string, at: number): string | undefined {
  pattern.lastIndex = at;
  const found = pattern.exec(text);
  return found ? found[0] : undefined;
}

function describeChar(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  // Control and invisible characters print as nothing useful; show their code point. (A space never gets
  // here, whitespace is skipped: `<= 0x20` would read the same.)
  // Stryker disable next-line EqualityOperator: see above
  return code < 0x20 || code === 0x7f || /\s/.test(char)
    ? `U+${code.toString(16).toUpperCase().padStart(4, "0")}`
    : `'${char}'`;
}

/**
 * `A1.Symbol.Name`, `A1.[Revenue TTM]`: the reference and its fields, read from `start`; undefined when the
 * text there is no reference (a function name such as LOG10 is one only when "(" does not follow).
 */
function readReference(
  text: string,
  start: number,
  name: string
): { address: string; fields: string[]; next: number } | undefined {
  const head = REFERENCE.exec(name);
  if (!head) return undefined;
  const address = head[1].toUpperCase();
  let at = start + head[1].length;
  const fields: string[] = [];
  while (text[at] === ".") {
    const column = at + 1;
    if (text[at + 1] === "[") {
      const close = text.indexOf("]", at + 2);
      // (Searched from at + 2, a ']' is never at 0: `<= 0` reads the same.)
      // Stryker disable next-line EqualityOperator: see above
      if (close < 0) throw new FormulaSyntaxError("unterminated field name (missing ']')", column);
      const field = text.slice(at + 2, close).trim();
      if (field === "") throw new FormulaSyntaxError("empty field name '[]'", column);
      fields.push(field);
      at = close + 1;
      continue;
    }
    const field = match(FIELD_NAME, text, at + 1);
    if (!field) throw new FormulaSyntaxError("expected a field name after '.'", column);
    fields.push(field);
    at += 1 + field.length;
  }
  if (fields.length === 0 && /^\s*\(/.test(text.slice(at))) return undefined;
  return { address, fields, next: at };
}

function readString(text: string, start: number): { value: string; next: number } {
  let value = "";
  let at = start + 1;
  for (;;) {
    const quote = text.indexOf('"', at);
    // (Searched from the opening quote on, a closing one is never at 0: `<= 0` reads the same.)
    // Stryker disable next-line EqualityOperator: see above
    if (quote < 0)
      throw new FormulaSyntaxError("unterminated text (missing closing '\"')", start + 1);
    value += text.slice(at, quote);
    if (text[quote + 1] === '"') {
      value += '"';
      at = quote + 2;
    } else {
      return { value, next: quote + 1 };
    }
  }
}

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const space = match(WHITESPACE, text, at);
    if (space) {
      at += space.length;
      continue;
    }
    const column = at + 1;
    const char = text[at];
    const pair = text.slice(at, at + 2);
    const dollar = char === "$" || /^[A-Za-z]{1,3}\$/.test(text.slice(at, at + 4));
    const absolute = dollar ? match(DOLLAR_REFERENCE, text, at) : undefined;
    if (absolute !== undefined && absolute.includes("$")) {
      const address = absolute.replace(/\$/g, "").toUpperCase();
      tokens.push({ kind: "reference", address, fields: [], text: absolute, column });
      at += absolute.length;
    } else if (TWO_CHARACTER.has(pair)) {
      tokens.push({ kind: "punct", text: pair as Punctuation, column });
      at += 2;
    } else if (PUNCTUATION.has(char)) {
      tokens.push({ kind: "punct", text: char as Punctuation, column });
      at += 1;
    } else if (char === '"') {
      const { value, next } = readString(text, at);
      tokens.push({ kind: "string", value, column });
      at = next;
    } else if (/[\d.]/.test(char) && match(NUMBER, text, at) !== undefined) {
      const digits = match(NUMBER, text, at) as string;
      const tail = match(NUMBER_TAIL, text, at + digits.length);
      if (tail) throw new FormulaSyntaxError(`malformed number '${digits}${tail}'`, column);
      const value = Number(digits);
      if (!Number.isFinite(value))
        throw new FormulaSyntaxError(`number out of range '${digits}'`, column);
      tokens.push({ kind: "number", value, text: digits, column });
      at += digits.length;
    } else {
      const name = match(NAME, text, at);
      if (!name) {
        const shown = String.fromCodePoint(text.codePointAt(at) ?? 0);
        throw new FormulaSyntaxError(
          `unexpected character ${describeChar(shown)}${HINTS[shown] ?? ""}`,
          column
        );
      }
      const reference = readReference(text, at, name);
      if (reference) {
        const { address, fields, next } = reference;
        tokens.push({ kind: "reference", address, fields, text: text.slice(at, next), column });
        at = next;
        continue;
      }
      tokens.push({ kind: "name", text: name, column });
      at += name.length;
    }
  }
  tokens.push({ kind: "end", column: text.length + 1 });
  return tokens;
}

/** How a token reads in an error message: "')'", "number 12", "text \"aave\"", "end of formula". */
export function describeToken(token: Token): string {
  switch (token.kind) {
    case "punct":
      return `'${token.text}'`;
    case "string":
      return `text ${JSON.stringify(token.value.length > 20 ? `${token.value.slice(0, 20)}…` : token.value)}`;
    case "number":
      return `number ${token.text}`;
    case "name":
      return `name '${token.text.length > 30 ? `${token.text.slice(0, 30)}…` : token.text}'`;
    case "reference":
      return `reference '${token.text.length > 30 ? `${token.text.slice(0, 30)}…` : token.text}'`;
    case "end":
      return "end of formula";
  }
}
