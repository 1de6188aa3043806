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
