/**
 * The interface routes' JSON schemas, derived from the one table of the interface's operations
 * (operations.ts): each path id a pattern, each operation's query an object of exactly its parameters
 * (anything else, a repeated parameter, an empty value or a value outside its kind is refused by fastify's
 * validator before the handler runs), and the refusal explained in fixed words naming the parameter by the
 * interface's own name or its position, never by what the caller sent.
 */
import type { FastifyError, FastifyRequest, FastifySchema } from "fastify";
import { dateNamesOf } from "../client";
import { MAX_ID_LENGTH, MAX_LIST_IDS } from "./bounds";
import {
  describeOperation,
  interfaceName,
  pathIdNames,
  PARAMETER_NAMES,
  type OperationSpec,
  type ParamKind,
} from "./operations";

/**
 * The characters of an id (a path segment or a list item): letters, digits and - _ . ~ : @ +. Real ids are
 * slugs; `/`, `\`, `?`, `#`, `%` (decoded from %2F, %5C, %3F, %23, %25), spaces and controls never reach the
 * service, nor does `..` anywhere in an id.
 */
const ID_CHARS = "A-Za-z0-9._~:@+\\-";
const ID_PATTERN = `^(?!.*\\.\\.)(?!\\.$)[${ID_CHARS}]{1,${MAX_ID_LENGTH}}$`;
export const ID_REGEX = new RegExp(ID_PATTERN);
/** A list: ids and commas (each item is then checked on its own, see ask.ts). */
const LIST_PATTERN = `^[${ID_CHARS},]+$`;
const LIST_MAX_LENGTH = MAX_LIST_IDS * (MAX_ID_LENGTH + 1);

/** A query parameter holding a list of ids (each item is then checked with ID_REGEX). */
export const ID_LIST_SCHEMA = {
  type: "string",
  minLength: 1,
  maxLength: LIST_MAX_LENGTH,
  pattern: LIST_PATTERN,
} as const;

function kindSchema(kind: ParamKind): Record<string, unknown> {
  switch (kind.kind) {
    case "ids":
      return { type: "string", minLength: 1, maxLength: LIST_MAX_LENGTH, pattern: LIST_PATTERN };
    case "date":
      return { type: "string", minLength: 1, pattern: "^\\d{4}-\\d{2}-\\d{2}$" };
    case "bool":
      return { type: "string", minLength: 1, enum: ["true", "false"] };
    case "oneOf":
      return { type: "string", minLength: 1, enum: [...kind.values] };
    case "token":
      return { type: "string", minLength: 1, pattern: "^[A-Za-z0-9_.-]{1,64}$" };
  }
}

/** What a value of a kind must be, in words. */
function describeKind(kind: ParamKind): string {
  switch (kind.kind) {
    case "ids":
      return `a comma-separated list of at most ${MAX_LIST_IDS} ids (letters, digits and - _ . ~ : @ +)${kind.all ? ', or "all"' : ""}`;
    case "date":
      return "a date written YYYY-MM-DD";
    case "bool":
      return "true or false";
    case "oneOf":
      return `one of ${kind.values.join(", ")}`;
    case "token":
      return "a short word (letters, digits, - _ .)";
  }
}

/** The route schema of an operation: its path ids and its query, nothing else. */
export function routeSchema(spec: OperationSpec): FastifySchema {
  const ids = pathIdNames(spec);
  return {
    ...(ids.length > 0
      ? {
          params: {
            type: "object",
            required: ids,
            additionalProperties: false,
            properties: Object.fromEntries(
              ids.map((name) => [name, { type: "string", pattern: ID_PATTERN }])
            ),
          },
        }
      : {}),
    querystring: {
      type: "object",
      additionalProperties: false,
      properties: Object.fromEntries(
        Object.entries(spec.params).map(([name, kind]) => [name, kindSchema(kind)])
      ),
    },
  };
}

/**
 * The query string as a plain record, names and values decoded: a repeated name becomes a list (which the
 * schema then refuses: a list is one comma-separated value), and no name can reach an object's prototype.
 */
export function parseQuery(text: string): Record<string, string | string[]> {
  const out = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of new URLSearchParams(text)) {
    const seen = out[name];
    out[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return out;
}

const ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"];

function ordinal(i: number): string {
  return ORDINALS[i] ?? `${i + 1}th`;
}

/** Where a parameter stands in the request's query (the caller's text is compared, never shown). */
function positionOf(request: FastifyRequest, name: string): number {
  const url = request.url;
  const at = url.indexOf("?");
  const names = at < 0 ? [] : [...new URLSearchParams(url.slice(at + 1)).keys()];
  return Math.max(0, names.indexOf(name));
}

/** The schema refusal of an interface request, in fixed words (see the module comment). */
export function explainInterfaceRefusal(
  spec: OperationSpec,
  request: FastifyRequest,
  error: FastifyError
): string {
  const op = describeOperation(spec);
  const first = error.validation?.[0];
  // The names the interface gives the operation: its dates by the naming it gives them (the other naming, which
  // the gateway also forwards, is a reading, §4.14), short enough for the add-in to show whole (its client
  // keeps 200 characters of a service's message).
  const other = new Set(dateNamesOf(spec.op, "other"));
  const takes = Object.keys(spec.params).filter((name) => !other.has(name));
  const takesText = takes.length > 0 ? takes.join(", ") : "it takes none";
  if (!first) return `The request does not match ${op}`;
  const field = first.instancePath.replace(/^\//, "").split("/")[0];
  if (error.validationContext === "params") {
    const ids = pathIdNames(spec);
    const segment = spec.path.indexOf(`:${field}`) + 1;
    const name = ids.includes(field) ? interfaceName(field) : "path id";
    return `The ${name} (path segment ${segment}) of ${op} must be an id of 1 to ${MAX_ID_LENGTH} letters, digits and - _ . ~ : @ +, without ".."`;
  }
  if (first.keyword === "additionalProperties") {
    const extra = (first.params as { additionalProperty?: unknown }).additionalProperty;
    const name = typeof extra === "string" ? extra : "";
    // A name echoed only when it is a parameter of the interface (a public word), never caller text.
    if (PARAMETER_NAMES.has(name)) return `${name} is not one ${op} takes (${takesText})`;
    return `The query's ${ordinal(positionOf(request, name))} parameter is not one this operation takes (${takesText})`;
  }
  const kind = Object.prototype.hasOwnProperty.call(spec.params, field)
    ? spec.params[field]
    : undefined;
  if (!kind) return `The query does not match what ${op} takes (${takesText})`;
  if (first.keyword === "type")
    return `${field} is given more than once: send a list as one comma-separated value (${field}=a,b)`;
  if (first.keyword === "minLength") return `${field} is empty`;
  return `${field} must be ${describeKind(kind)}`;
}
