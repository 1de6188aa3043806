/**
 * The CRYPTO formulas a markdown document shows, for the test that runs the README's formulas.
 *
 * A formula is every `=CRYPTO.NAME(...)` anywhere in the text (code blocks, tables, prose), and every
 * formula starting with a plain Excel function the sheet computes around them (`=SUM(CRYPTO.METRIC(…))`),
 * read up to the parenthesis that closes its call: text in double quotes (with `""` for a quote) may hold anything,
 * parentheses nest. An example meant to show an error says so right after the formula, on the same line:
 * the error code, optionally after an arrow and inside backticks, e.g.
 *
 *     =CRYPTO.VALUE("aavee","fees")                   #N/A: unknown project, with a suggestion
 *     `=CRYPTO.VALUE("aavee","fees")` → `#N/A`
 *
 * Every other formula must give a result without any error cell.
 */

/** The error codes a README example may announce (Excel's, and the CLI's #USAGE for a refused formula). */
const ANNOUNCED_CODES = [
  "#N/A",
  "#VALUE!",
  "#NAME?",
  "#NUM!",
  "#DIV/0!",
  "#REF!",
  "#NULL!",
  "#SPILL!",
  "#USAGE",
] as const;

export interface ShownFormula {
  formula: string;
  /** 1-based line of the document. */
  line: number;
  /** The error code the document says this example shows; absent: it must give no error. */
  shows?: string;
}

interface Extraction {
  formulas: ShownFormula[];
  /** Formulas whose closing parenthesis is not on their line: the document is to be fixed. */
  problems: string[];
}

import { PLAIN_FUNCTION_NAMES } from "../../src/sheet/plain-functions";

const START = new RegExp(
  `=(?:CRYPTO\\.[A-Za-z_][A-Za-z0-9_.]*|${PLAIN_FUNCTION_NAMES.join("|")})\\s*\\(`,
  "gi"
);

/** Index just after the parenthesis closing the call that opens at `open`, or -1 when the line ends first. */
function callEnd(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i += 1) {
    const char = text[i];
    if (char === '"') {
      // A quote inside text is written twice; the text ends at a lone quote.
      for (i += 1; i < text.length; i += 1) {
        if (text[i] === '"' && text[i + 1] === '"') i += 1;
        else if (text[i] === '"') break;
      }
      if (i >= text.length) return -1;
    } else if (char === "(") {
      depth += 1;
    } else if (char === ")") {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** The error code announced right after a formula: `  #N/A …`, `` ` → `#N/A` ``, `-> #VALUE!`. */
function announced(rest: string): string | undefined {
  const match = /^`?\s*(?:→|->)?\s*`?(#[A-Z/0-9!?]+)/.exec(rest);
  return ANNOUNCED_CODES.find((code) => code === match?.[1]);
}

export function extractFormulas(markdown: string): Extraction {
  const formulas: ShownFormula[] = [];
  const problems: string[] = [];
  markdown.split(/\r\n|\r|\n/).forEach((text, index) => {
    const line = index + 1;
    for (const match of text.matchAll(START)) {
      const start = match.index ?? 0;
      const open = start + match[0].length - 1;
      const end = callEnd(text, open);
      if (end < 0) {
        problems.push(`line ${line}: ${text.slice(start, start + 80)}: no closing ')' on its line`);
        continue;
      }
      const shows = announced(text.slice(end));
      formulas.push({ formula: text.slice(start, end), line, ...(shows ? { shows } : {}) });
    }
  });
  return { formulas, problems };
}
