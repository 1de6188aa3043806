/** Building blocks of operation plans: URLs, single requests, split requests, merged results. */
import type { CallPlan } from "../call";
import { mergePartialErrors } from "../data/merge";
import { normalisePartialErrors } from "../data/normalise-series";
import type { ClientLimits } from "../policy";
import type { RequestSpec } from "../http/request";
import type { PartialError } from "../data/types";
import { buildUrl, chunkIds, type QueryValue } from "../http/url";
import type { Checker } from "../data/validate";
import type { JsonValue, WireEnvelope } from "../data/wire";
import { latestPossibleDay, Notes } from "../data/notes";
import type { IsoDate } from "../data/types";
import {
  dateNamesOf,
  isIdPart,
  operationDef,
  pathParts,
  type OperationName,
  type ParamName,
} from "../interface";

export type Query = ReadonlyArray<readonly [string, QueryValue]>;

export interface PlanTools {
  url(segments: readonly string[], query?: Query): string;
  /** The latest day the service can have data for, now (data/notes.ts): rows after it are ignored. */
  latestDay(): IsoDate;
  /**
   * A call of exactly one request whose `data` is read by `read`, which notes what it sets aside.
   * `bare`: the answer may be a bare JSON list instead of an object with `data` (v1, whose shape §9 does
   * not show).
   */
  one<T>(
    ids: readonly string[],
    segments: readonly string[],
    query: Query,
    read: (data: JsonValue, notes: Notes) => T,
    bare?: boolean
  ): CallPlan<T>;
  /**
   * One request per chunk of `list` (at most limits.maxIdsPerRequest ids, URL within
   * limits.maxUrlLength), or a single request when there is no list to split.
   */
  split(
    check: Checker,
    ids: readonly string[],
    segments: readonly string[],
    listName: string,
    list: readonly string[] | undefined,
    query: (chunk: readonly string[] | undefined) => Query
  ): RequestSpec[];
  /** Rows of every response concatenated (request order), errors merged. */
  concat<T>(
    envelopes: readonly WireEnvelope[],
    read: (data: JsonValue) => T[]
  ): { data: T[]; errors: PartialError[] };
}

export function planTools(base: URL, limits: ClientLimits, now: () => number): PlanTools {
  const url = (segments: readonly string[], query: Query = []): string =>
    buildUrl(base, segments, query);
  return {
    url,
    latestDay: () => latestPossibleDay(now()),
    one: (ids, segments, query, read, bare = false) => ({
      ids,
      requests: [{ url: url(segments, query), ids, ...(bare ? { bare } : {}) }],
      combine: ([envelope]) => {
        const notes = new Notes();
        return {
          data: read(envelope.data, notes),
          errors: normalisePartialErrors(envelope.errors),
          notes: notes.list(),
        };
      },
    }),
    split(check, ids, segments, listName, list, query) {
      if (!list) return [{ url: url(segments, query(undefined)), ids }];
      const chunks = chunkIds(list, limits.maxIdsPerRequest, limits.maxUrlLength, (c) =>
        url(segments, query(c))
      );
      if (!chunks) {
        return check.fail(
          `an entry of ${listName} is too long for a request URL of at most ${limits.maxUrlLength} characters`
        );
      }
      return chunks.map((chunk) => ({
        url: url(segments, query(chunk)),
        ids: [...ids, ...chunk],
        list: chunk,
      }));
    },
    concat: (envelopes, read) => ({
      data: envelopes.flatMap((e) => read(e.data)),
      errors: mergePartialErrors(envelopes.map((e) => normalisePartialErrors(e.errors))),
    }),
  };
}

/**
 * An operation's path with its ids, in path order (the table's path, interface.ts). A wrong count of ids is
 * the plan's own mistake, not the caller's.
 */
export function pathOf(op: OperationName, ...ids: string[]): string[] {
  let next = 0;
  const segments = pathParts(op).map((part) => (isIdPart(part) ? ids[next++] : part));
  if (next !== ids.length || segments.some((s) => s === undefined))
    throw new Error(`${op} takes ${next} path ids, not ${ids.length}`);
  return segments;
}

/**
 * An operation's query in the table's order, from its parameters' values (undefined: left out). Only the
 * names the table gives the operation compile; a name computed at runtime (a date name) is checked here.
 */
export function queryOf<Op extends OperationName>(
  op: Op,
  values: { readonly [K in ParamName<Op>]?: QueryValue }
): Query {
  const table: Readonly<Record<string, unknown>> = operationDef(op).query;
  const given = values as Readonly<Record<string, QueryValue>>;
  for (const name of Object.keys(given))
    if (!Object.prototype.hasOwnProperty.call(table, name))
      throw new Error(`${op} takes no parameter ${name}`);
  return Object.keys(table).map((name) => [name, given[name]] as const);
}

/**
 * The names an operation's dates go by (§4.14 leaves open which are accepted where): the naming the
 * interface gives the operation (default; start/end on §4.3, §4.7 and §4.11, start_date/end_date on §4.13),
 * or the other one, asked by the caller's `dateNames` (the first name of the pair it wants).
 */
function dateNamesFor(
  check: Pick<Checker, "oneOf">,
  op: OperationName,
  value: unknown
): readonly [string, string] {
  const [givenStart, givenEnd] = dateNamesOf(op, "given");
  const [otherStart, otherEnd] = dateNamesOf(op, "other");
  return check.oneOf("dateNames", value, [givenStart, otherStart]) === otherStart
    ? [otherStart, otherEnd]
    : [givenStart, givenEnd];
}

/**
 * The chain, product and market-sector filters of a project's or a metric's rows (§4.3, §4.11), checked as
 * lists of ids, under the names the service takes them by.
 */
export function filtersOf(
  check: Checker,
  p: {
    readonly chainIds?: unknown;
    readonly productIds?: unknown;
    readonly marketSectorIds?: unknown;
  }
): {
  chain_ids: readonly string[] | undefined;
  product_ids: readonly string[] | undefined;
  market_sector_ids: readonly string[] | undefined;
} {
  return {
    chain_ids: check.ids("chainIds", p.chainIds),
    product_ids: check.ids("productIds", p.productIds),
    market_sector_ids: check.ids("marketSectorIds", p.marketSectorIds),
  };
}

/**
 * A request's dates as query values: each a calendar date, start not after end, under the names the caller
 * asks (dateNamesFor).
 */
export function datesOf(
  check: Checker,
  op: OperationName,
  p: { readonly start?: unknown; readonly end?: unknown; readonly dateNames?: unknown }
): Readonly<Record<string, IsoDate | undefined>> {
  const start = check.date("start", p.start);
  const end = check.date("end", p.end);
  check.range(start, end);
  const [from, to] = dateNamesFor(check, op, p.dateNames);
  return { [from]: start, [to]: end };
}
