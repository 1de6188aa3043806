/**
 * The service's JSON as it travels (interface §2), widened to what real responses hold (§10 of
 * src/client/INTERFACE.md): values declared as strings arrive as numbers or null, timestamps
 * as dates or ISO date-times, and the open shapes (§2.12) are anything JSON. Parsing code reads JSON
 * defensively, field by field (the fields are those of the interface); callers see only the normalised
 * types of ./types.
 */

export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** Every response body: `data` (array or object) and, on partial success, `errors` (§2, §7). */
export interface WireEnvelope {
  data: JsonValue;
  errors?: JsonValue;
  /** The answer was a bare JSON list, read as `data` (v1): a relay (the team gateway) sends it back bare. */
  bare?: true;
}
