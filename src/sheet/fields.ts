/**
 * Reading a field of a card cell, as Excel's `FIELDVALUE(A1,"Revenue")` and dot access (`=A1.Revenue`,
 * `=A1.[Revenue TTM]`) do: the property's value as cells (a number, a date, text, a nested card, or an array
 * that spills). A missing field, or a value that is not a card, is #FIELD!; an error passed in stays itself.
 */
import { errorCell, EMPTY, toCell, type Cell, type Grid } from "./cells";
import { entityField, entityFieldNames, isEntity } from "./entity";

const FIELD_ERROR = "#FIELD!";

/** Excel's error types (ErrorCellValue.errorType) by the code a cell shows. */
const ERROR_TYPES: Readonly<Record<string, string>> = {
  Blocked: "#BLOCKED!",
  Busy: "#BUSY!",
  Calc: "#CALC!",
  Connect: "#CONNECT!",
  Div0: "#DIV/0!",
  Field: "#FIELD!",
  GettingData: "#GETTING_DATA",
  Name: "#NAME?",
  NotAvailable: "#N/A",
  Null: "#NULL!",
  Num: "#NUM!",
  Ref: "#REF!",
  Spill: "#SPILL!",
  Value: "#VALUE!",
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The card's note on a field (its sublabel), which says why an error field is an error. */
function sublabel(value: Record<string, unknown>): string {
  const meta = value.propertyMetadata;
  return isRecord(meta) && typeof meta.sublabel === "string" ? meta.sublabel : "";
}

/** One property value (a cell value of an entity) as a cell. */
function propertyCell(value: unknown): Cell {
  if (!isRecord(value)) return toCell(value);
  if (value.type === "Empty") return EMPTY;
  if (value.type === "Error") {
    const basic = typeof value.basicValue === "string" ? value.basicValue : undefined;
    const code =
      basic?.startsWith("#") === true ? basic : (ERROR_TYPES[String(value.errorType)] ?? "#VALUE!");
    return errorCell(code, sublabel(value));
  }
  return toCell(value);
}

/** A property value as a result: an array property spills, anything else is one cell. */
function propertyGrid(value: unknown): Grid {
  if (isRecord(value) && value.type === "Array" && Array.isArray(value.elements)) {
    const rows = value.elements.filter(Array.isArray) as unknown[][];
    if (rows.length > 0 && rows[0].length > 0) return rows.map((row) => row.map(propertyCell));
  }
  return [[propertyCell(value)]];
}

/** FIELDVALUE(value, field) of one cell. */
export function fieldValue(cell: Cell, field: string): Grid {
  if (cell.kind === "error") return [[cell]];
  if (cell.kind !== "entity" || !isEntity(cell.value)) {
    return [
      [errorCell(FIELD_ERROR, `the value is not a data type, so it has no field "${field}"`)],
    ];
  }
  const value = entityField(cell.value, field);
  if (value === undefined) {
    const names = entityFieldNames(cell.value);
    const list = names.length > 12 ? `${names.slice(0, 12).join(", ")}, …` : names.join(", ");
    return [[errorCell(FIELD_ERROR, `"${cell.text}" has no field "${field}"; fields: ${list}`)]];
  }
  return propertyGrid(value);
}
