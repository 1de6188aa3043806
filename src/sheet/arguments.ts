/**
 * Turning parsed arguments into what Excel passes a custom function:
 * - omitted or missing optional arguments are `null` (never undefined);
 * - a `dimensionality: "matrix"` parameter gets a 2D array (a scalar becomes [[v]]);
 * - a scalar parameter gets a scalar converted to its declared type the way Excel converts cell values
 *   ("12" -> 12 for a number, 12 -> "12" for a string...), or #VALUE! when Excel could not;
 * - a scalar parameter given an array constant is "lifted": see recalculate.ts.
 * Expressions (`TODAY()-365`) are computed before this (expressions.ts): what arrives here is constant.
 */
import { errorCell, ErrorCell, plainValueOf, type Cell } from "./cells";
import { numberFrom } from "./excel-functions";
import type { ConstantArgument } from "./expressions";
import { Scalar } from "./formula";
import { ERROR_CODES } from "./host";
import { isEntity, type EntityJson } from "./entity";
import { ParameterMeta } from "./registry";

/** What Excel passes for one cell: a data type (a card) arrives as its entity JSON. */
export type HostValue = number | string | boolean | null | EntityJson;

/** A prepared argument: passed as is, or an array that makes Excel call the function per element. */
export type PreparedArgument =
  | { kind: "fixed"; value: HostValue | HostValue[][] }
  | { kind: "lifted"; rows: HostValue[][]; parameter: ParameterMeta };

function scalarValue(scalar: Scalar): HostValue {
  return scalar.value;
}

/** A cell as Excel passes it to a custom function (errors never get here: they are the formula's result). */
function cellValue(cell: Cell): HostValue {
  switch (cell.kind) {
    case "entity":
      return cell.value;
    case "empty":
    case "error":
      return null;
    default:
      return plainValueOf(cell);
  }
}

function prepareArgument(
  arg: ConstantArgument | undefined,
  parameter: ParameterMeta
): PreparedArgument {
  if (arg === undefined || arg.kind === "omitted") return { kind: "fixed", value: null };
  const matrix = parameter.dimensionality === "matrix";
  if (arg.kind === "cells") {
    // A nested call's or a reference's result: one cell is a value, several are a range.
    const rows = arg.grid.map((row) => row.map(cellValue));
    if (rows.length === 1 && rows[0].length === 1 && !matrix)
      return { kind: "fixed", value: rows[0][0] };
    return matrix ? { kind: "fixed", value: rows } : { kind: "lifted", rows, parameter };
  }
  if (arg.kind === "array") {
    const rows = arg.rows.map((row) => row.map(scalarValue));
    return matrix ? { kind: "fixed", value: rows } : { kind: "lifted", rows, parameter };
  }
  return { kind: "fixed", value: matrix ? [[scalarValue(arg)]] : scalarValue(arg) };
}

/** Pad to the declared parameter count: Excel passes null for every optional argument left out. */
export function prepareArguments(
  args: readonly ConstantArgument[],
  parameters: readonly ParameterMeta[]
): PreparedArgument[] {
  return parameters.map((parameter, i) => prepareArgument(args[i], parameter));
}

function toBoolean(value: number | string | boolean): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  const upper = value.trim().toUpperCase();
  return upper === "TRUE" ? true : upper === "FALSE" ? false : undefined;
}

function toText(value: number | string | boolean): string {
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  return String(value);
}

/** Convert a scalar to the parameter's declared type, or say (as #VALUE!) why Excel would refuse it. */
export function coerce(
  value: HostValue,
  parameter: ParameterMeta,
  functionLabel: string
): HostValue | ErrorCell {
  if (value === null) return null;
  const refuse = (what: string): ErrorCell =>
    errorCell(
      ERROR_CODES.invalidValue,
      `argument '${parameter.name}' of ${functionLabel} must be ${what}`
    );
  // A card goes to a parameter that takes any value (the function reads it); a typed one cannot hold it.
  if (isEntity(value)) {
    const type = parameter.type ?? "any";
    const wanted = type === "number" ? "a number" : type === "boolean" ? "TRUE or FALSE" : "text";
    return type === "any" ? value : refuse(`${wanted}, not a card`);
  }
  switch (parameter.type) {
    case "number":
      return numberFrom(value) ?? refuse("a number");
    case "boolean":
      return toBoolean(value) ?? refuse("TRUE or FALSE");
    case "string":
      return toText(value);
    default:
      return value;
  }
}
