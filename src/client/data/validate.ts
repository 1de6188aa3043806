/**
 * Input checks made BEFORE any request: a bad date or a value outside a closed set (§8.2) is the
 * caller's mistake, answered at once with an "invalid-input" error and no request (nor a rate-limit
 * slot) spent. Values come from spreadsheet cells, so types are checked at runtime too.
 */
import { CryptometricsError } from "../errors";
import { safeStringify } from "../redact";
import type { IdSelection, IsoDate } from "./types";
import { isIsoDate } from "./days";

export interface Checker {
  /** Throw an "invalid-input" error for this operation. */
  fail(message: string): never;
  /** A path id (project, product, metric, sector id): trimmed, non-empty, not "." or "..". */
  pathId(name: string, value: unknown): string;
  /** A list of ids: each trimmed and checked, duplicates dropped (first kept); undefined stays so. */
  ids(name: string, value: unknown): string[] | undefined;
  /** A list of ids or "all". */
  selection(name: string, value: unknown): IdSelection | undefined;
  oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[]): T | undefined;
  date(name: string, value: unknown): IsoDate | undefined;
  /** start must not be after end. */
  range(start: IsoDate | undefined, end: IsoDate | undefined): void;
  bool(name: string, value: unknown): boolean | undefined;
  /** Free text passed through (v1 parameters): non-empty, no control characters. */
  token(name: string, value: unknown): string | undefined;
}

/** Checks for one call; `label` ("getProject(aave)") starts every message. */
export function checker(operation: string, label: string, ids: readonly string[]): Checker {
  const fail = (message: string): never => {
    throw new CryptometricsError("invalid-input", `${label}: ${message}`, { operation, ids });
  };
  const show = (value: unknown): string => {
    const text = typeof value === "string" ? `"${value}"` : safeStringify(value);
    return text.length > 60 ? `${text.slice(0, 60)}…` : text;
  };

  const oneId = (name: string, value: unknown): string => {
    if (typeof value !== "string" && typeof value !== "number") {
      return fail(`${name} must be a string, got ${show(value)}`);
    }
    const id = String(value).trim();
    if (id === "") return fail(`${name} is empty`);
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(id))
      return fail(`${name} ${show(id)} contains control characters`);
    return id;
  };

  const self: Checker = {
    fail,
    pathId(name, value) {
      const id = oneId(name, value);
      // Would resolve as a relative path segment and silently change the URL.
      if (id === "." || id === "..") return fail(`${name} ${show(id)} is not an id`);
      return id;
    },
    ids(name, value) {
      if (value === undefined || value === null) return undefined;
      if (!Array.isArray(value)) return fail(`${name} must be a list of ids, got ${show(value)}`);
      if (value.length === 0) return fail(`${name} is an empty list; leave it out to select all`);
      const out: string[] = [];
      for (const item of value as unknown[]) {
        const id = oneId(`${name} entry`, item);
        // A comma inside an id would be read by the service as two ids (list values are comma-joined).
        if (id.includes(",")) return fail(`${name} entry ${show(id)} contains a comma`);
        if (!out.includes(id)) out.push(id);
      }
      return out;
    },
    selection(name, value) {
      if (typeof value === "string" && value.trim().toLowerCase() === "all") return "all";
      return self.ids(name, value);
    },
    oneOf(name, value, allowed) {
      if (value === undefined || value === null) return undefined;
      if (typeof value === "string" && (allowed as readonly string[]).includes(value))
        return value as never;
      return fail(`${name} ${show(value)} is not one of ${allowed.join(", ")}`);
    },
    date(name, value) {
      if (value === undefined || value === null) return undefined;
      if (typeof value === "string" && isIsoDate(value.trim())) return value.trim();
      return fail(`${name} ${show(value)} is not a date written YYYY-MM-DD`);
    },
    range(start, end) {
      if (start !== undefined && end !== undefined && start > end) {
        fail(`start ${start} is after end ${end}`);
      }
    },
    bool(name, value) {
      if (value === undefined || value === null) return undefined;
      if (typeof value === "boolean") return value;
      return fail(`${name} must be true or false, got ${show(value)}`);
    },
    token(name, value) {
      if (value === undefined || value === null) return undefined;
      if (typeof value !== "string" || value.trim() === "") {
        return fail(`${name} must be a non-empty string, got ${show(value)}`);
      }
      // eslint-disable-next-line no-control-regex
      if (/[\u0000-\u001f\u007f]/.test(value)) return fail(`${name} contains control characters`);
      return value.trim();
    },
  };
  return self;
}
