/**
 * Defensive readers for untrusted JSON. Members the interface requires (ids, timestamps) must be
 * there, or the response is malformed (ShapeError, turned into a "malformed-response" error naming the
 * operation); everything else is optional and read leniently.
 */
import type { JsonObject, JsonValue } from "./wire";

/** A response that does not have the shape the operation needs; `path` says where. */
export class ShapeError extends Error {
  constructor(
    readonly path: string,
    problem: string
  ) {
    super(`${path}: ${problem}`);
    this.name = "ShapeError";
  }
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function asObject(value: unknown, path: string): JsonObject {
  if (!isObject(value)) throw new ShapeError(path, `expected an object, got ${describe(value)}`);
  return value;
}

export function asArray(value: unknown, path: string): JsonValue[] {
  if (!Array.isArray(value))
    throw new ShapeError(path, `expected an array, got ${describe(value)}`);
  return value as JsonValue[];
}

/** Array of objects, each checked; `each` maps one element (given its path). */
export function mapObjects<T>(
  value: unknown,
  path: string,
  each: (item: JsonObject, itemPath: string) => T
): T[] {
  return asArray(value, path).map((item, i) =>
    each(asObject(item, `${path}[${i}]`), `${path}[${i}]`)
  );
}

/**
 * Array of objects read by `each`, where one unreadable element is no reason to refuse the rest: it is left
 * out and noted (a catalogue of thousands with one broken entry still lists the others). When every
 * element is unreadable the answer itself is: the first problem is thrown, unless `emptyAllowed` (a nested
 * list, whose owner stands without it).
 */
export function mapUsable<T>(
  value: unknown,
  path: string,
  each: (item: JsonObject, itemPath: string) => T,
  notes: { skip(error: ShapeError): void },
  emptyAllowed = false
): T[] {
  const items = asArray(value, path);
  const out: T[] = [];
  let first: ShapeError | undefined;
  items.forEach((item, i) => {
    const itemPath = `${path}[${i}]`;
    try {
      out.push(each(asObject(item, itemPath), itemPath));
    } catch (error) {
      if (!(error instanceof ShapeError)) throw error;
      first ??= error;
      notes.skip(error);
    }
  });
  if (out.length === 0 && first && !emptyAllowed) throw first;
  return out;
}

/** A required id-like member: a non-empty string (numbers are accepted and stringified). */
export function reqString(obj: JsonObject, key: string, path: string): string {
  const value = obj[key];
  if (typeof value === "string" && value !== "") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  throw new ShapeError(`${path}.${key}`, `expected a non-empty string, got ${describe(value)}`);
}

/** An optional text member: strings and numbers read, null/absent/other → undefined. */
export function optString(obj: JsonObject, key: string): string | undefined {
  const value = obj[key];
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/** First of several member names that holds text (the service has used different names). */
export function firstString(obj: JsonObject, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = optString(obj, key);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** A boolean member; "true"/"false" strings accepted; anything else → fallback. */
export function optBool(obj: JsonObject, key: string, fallback = false): boolean {
  const value = obj[key];
  if (typeof value === "boolean") return value;
  if (value === "true") return true;
  if (value === "false") return false;
  return fallback;
}

/** A list of strings, leniently: non-string items are skipped, a non-list is empty. */
export function stringList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is string => typeof v === "string" && v !== "");
}

/**
 * A value as a message quotes it, cut short. Cutting is safe here: bodies carrying the key were redacted
 * on arrival (http/response.ts), before any reader saw them; nothing searches the message again (redact.ts,
 * "Where it runs").
 */
export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") {
    return value.length > 20 ? `string "${value.slice(0, 20)}…"` : `string "${value}"`;
  }
  if (typeof value === "object") return "an object";
  if (typeof value === "number" || typeof value === "boolean") return `${typeof value} ${value}`;
  return typeof value;
}
