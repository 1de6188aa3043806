/**
 * The add-in's version, so a support request can say which build computed a workbook.
 * @customfunction
 * @returns The version of Cryptometrics for Excel.
 */
export function version(): string {
  return "0.1.0";
}
