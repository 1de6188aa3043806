/**
 * The Excel functions whose arguments are not all numbers, computed by expressions.ts: IF (a condition and
 * the two values it chooses between), IFERROR (a value and what replaces its errors) and TEXT (a number
 * shown in a number format, number-format.ts). Listed here so the parser knows their names and counts.
 *
 * As in Excel: IF's missing third argument is FALSE, an empty branch (`IF(x,,1)`) is 0; IFERROR over a
 * spill replaces each error cell; IF over a spilled condition chooses cell by cell.
 */

interface SpecialFunction {
  parameters: readonly string[];
  minArgs: number;
  /** An empty argument (`IF(x,,b)`) is allowed and reads as 0. */
  blanks?: boolean;
}

const SPECIAL_FUNCTIONS: Readonly<Record<string, SpecialFunction>> = {
  IF: { parameters: ["logical_test", "value_if_true", "value_if_false"], minArgs: 2, blanks: true },
  IFERROR: { parameters: ["value", "value_if_error"], minArgs: 2, blanks: true },
  TEXT: { parameters: ["value", "format_text"], minArgs: 2 },
};

export function specialFunction(name: string): SpecialFunction | undefined {
  const upper = name.toUpperCase();
  return Object.prototype.hasOwnProperty.call(SPECIAL_FUNCTIONS, upper)
    ? SPECIAL_FUNCTIONS[upper]
    : undefined;
}
