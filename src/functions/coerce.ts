/**
 * From what Excel passes to what implementations use. Omitted optional arguments arrive as null (never
 * undefined), empty cells as null or "", dates as serial numbers or text, ranges as 2D arrays, data types
 * (a project card from PROJECT) as their entity object. Every refusal is a #VALUE! naming the argument and
 * saying what is expected.
 *
 * Cards go where projects go: an argument named `project` or `projects` (in every function) takes a card,
 * or a range of cards, and reads it as the project its `Id` field names. Any other argument refuses a card.
 */
import { parseDay } from "../client";
import { MAX_SERIAL, MIN_SERIAL, serialToDay } from "../sheet/excel-dates";
import { invalid } from "./result";

/** Longest text accepted in one argument: ids and option strings are short; megabytes are a mistake. */
const MAX_TEXT = 10_000;

export function isMissing(value: unknown): boolean {
  return (
    value === null || value === undefined || (typeof value === "string" && value.trim() === "")
  );
}

function describe(value: unknown): string {
  if (typeof value === "string") return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  if (Array.isArray(value)) return "a range";
  if (isEntityValue(value)) return `the card "${cardText(value)}"`;
  if (typeof value === "object" && value !== null) return "a rich value";
  return String(value);
}

/** Arguments that name projects, and so take project cards. */
const PROJECT_ARGUMENTS: ReadonlySet<string> = new Set(["project", "projects"]);

type Entity = { type: "Entity"; text?: unknown; properties?: unknown };

/** A card (an entity value), as Excel passes one in an argument. */
export function isEntityValue(value: unknown): value is Entity {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    (value as { type?: unknown }).type === "Entity"
  );
}

function cardText(card: Entity): string {
  const text = typeof card.text === "string" ? card.text : "";
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/**
 * The project a card stands for: its `Id` field (case-insensitive, as Excel's dot access reads fields),
 * a String value or a plain text.
 */
function cardProjectId(card: Entity, name: string): string {
  const properties =
    typeof card.properties === "object" && card.properties !== null
      ? (card.properties as Record<string, unknown>)
      : {};
  const key = Object.keys(properties).find((k) => k.toLowerCase() === "id");
  const field = key === undefined ? undefined : properties[key];
  const id =
    typeof field === "string"
      ? field
      : typeof field === "object" && field !== null
        ? (field as { basicValue?: unknown }).basicValue
        : undefined;
  if (typeof id !== "string" || id.trim() === "") {
    throw invalid(
      `${name}: the card "${cardText(card)}" has no Id field; use a card from CRYPTO.PROJECT or a project id`
    );
  }
  return id.trim();
}

/** One text value: a non-empty string, or a number written as text (ids like "0x" stay as typed). */
export function requiredText(value: unknown, name: string): string {
  if (Array.isArray(value)) {
    const cells = value.flat();
    if (cells.length !== 1)
      throw invalid(`${name} must be one value, not a range of ${cells.length} cells`);
    return requiredText(cells[0], name);
  }
  if (isMissing(value)) throw invalid(`${name} is missing`);
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (isEntityValue(value)) {
    if (PROJECT_ARGUMENTS.has(name)) return cardProjectId(value, name);
    throw invalid(
      `${name} must be text, not ${describe(value)} (a card goes in a project argument)`
    );
  }
  if (typeof value !== "string") throw invalid(`${name} must be text, got ${describe(value)}`);
  if (value.length > MAX_TEXT) throw invalid(`${name} is too long (${value.length} characters)`);
  return value.trim();
}

export function optionalText(value: unknown, name: string): string | undefined {
  if (Array.isArray(value) ? value.flat().every(isMissing) : isMissing(value)) return undefined;
  return requiredText(value, name);
}

/**
 * A date: an Excel date serial (a cell holding a date, DATE(), TODAY()) or text "YYYY-MM-DD". Returns the day
 * number, or undefined when omitted.
 */
export function optionalDate(value: unknown, name: string): number | undefined {
  if (Array.isArray(value)) {
    const cells = value.flat();
    if (cells.length === 1) return optionalDate(cells[0], name);
    throw invalid(`${name} must be one date, not a range`);
  }
  if (isMissing(value)) return undefined;
  if (typeof value === "number") {
    const day = serialToDay(value);
    if (day === undefined) {
      throw invalid(
        `${name} ${describe(value)} is not a date Excel can show (serials ${MIN_SERIAL}..${MAX_SERIAL}, 1900-03-01..9999-12-31)`
      );
    }
    return day;
  }
  if (typeof value === "string") {
    const day = parseDay(value.trim());
    if (day === undefined)
      throw invalid(
        `${name} ${describe(value)} is not a date: use a date cell or text like "2024-01-31"`
      );
    return day;
  }
  throw invalid(`${name} must be a date, got ${describe(value)}`);
}
