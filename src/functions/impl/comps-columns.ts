/**
 * COMPS's columns, as the functions read them. The syntax is formula text and lives with the sheet model
 * (sheet/comps-columns.ts), where the taskpane's builder reads it too; here, at the functions' edge, a column
 * it refuses becomes COMPS's #VALUE! with the same message.
 */
import { parseColumns as parseColumnTexts, type CompsColumn } from "../../sheet/comps-columns";
import { SheetError } from "../../sheet/errors";
import { invalid } from "../result";

/** The columns of a comma list or of a range's texts; a text that is no column is a #VALUE! naming it. */
export function parseColumns(texts: readonly string[]): CompsColumn[] {
  try {
    return parseColumnTexts(texts);
  } catch (error) {
    if (error instanceof SheetError && error.kind === "comps-column") throw invalid(error.message);
    throw error;
  }
}
