/**
 * Runs one planned series request through the client and splits its answer per series: points, "does not
 * exist" issues from partial-success errors, and warnings that do not stop a series.
 */
import type { ConflictKey, MetricsClient, PartialError, RepeatNote, ResultMeta } from "../client";
import { isCryptometricsError, openText } from "../client";
import { notAvailableIssue } from "./availability";
import { dayNumber, formatDay } from "../client";
import type { SeriesIssue } from "./series-store";
import type { DayPoint } from "./figures/series-ops";
import { seriesKey, type SeriesQuery, type SeriesVariant } from "./series-types";
import { DayParts, unaskedMembers } from "./figures/partition";

export type SeriesClient = Pick<
  MetricsClient,
  "getMetric" | "getProjectMetrics" | "getProductMetrics"
>;

export interface GroupRequest {
  /** metric: §4.11 (members = projects); project: §4.3 (members = metrics); product: §4.7 (members = metrics). */
  form: "metric" | "project" | "product";
  projectId: string; // project and product forms
  productId: string; // product form
  metricId: string; // metric form
  members: string[];
  start: number;
  end: number;
  variant: SeriesVariant;
  queries: SeriesQuery[];
  /** Metric form: ask every project (`project_ids=all`) and keep the members' rows. */
  all?: boolean;
}

export interface PairResult {
  dims: Map<string, DayPoint[]>;
  issue?: SeriesIssue;
  warnings: string[];
}

export interface GroupResult {
  /** Per series key. */
  results: Map<string, PairResult>;
  description: string;
}

/** The client refuses empty id lists (an empty list would select nothing): no list means "all". */
function ids(list: readonly string[]): readonly string[] | undefined {
  return list.length > 0 ? list : undefined;
}

function bound(n: number): string | undefined {
  return Number.isFinite(n) ? formatDay(n) : undefined;
}

export function describeGroup(r: GroupRequest): string {
  const range = `${bound(r.start) ?? "launch"} → ${bound(r.end) ?? "latest"}`;
  const n = r.members.length;
  switch (r.form) {
    case "metric":
      return r.all
        ? `GET /v2/metrics/${r.metricId} for all projects (${n} asked), ${range}`
        : `GET /v2/metrics/${r.metricId} for ${n} project${n === 1 ? "" : "s"}, ${range}`;
    case "project":
      return `GET /v2/projects/${r.projectId}/metrics for ${n} metric${n === 1 ? "" : "s"}, ${range}`;
    case "product":
      return `GET /v2/projects/${r.projectId}/products/${r.productId}/metrics for ${n} metric${n === 1 ? "" : "s"}, ${range}`;
  }
}

/**
 * id -> dim -> day -> value. One value per day, in the order of days: the client gives rows distinct and sorted
 * as asked (client/data/distinct.ts and merge.ts, the one place each is done), and DayParts settles each day once.
 */
type Found = Map<string, Map<string, Map<number, number | null>>>;

function push(found: Found, id: string, dim: string, day: number, value: number | null): void {
  let dims = found.get(id);
  if (!dims) found.set(id, (dims = new Map<string, Map<number, number | null>>()));
  let days = dims.get(dim);
  if (!days) dims.set(dim, (days = new Map<number, number | null>()));
  days.set(day, value);
}

/** id -> dim -> days the service sent twice with different values (their value is null in Found). */
type Conflicts = Map<string, Map<string, Set<number>>>;

/** id -> dim -> day -> what the service sent for a value that is no number (its value is null in Found). */
type Unreadable = Map<string, Map<string, Map<number, string>>>;

function addUnreadable(
  out: Unreadable,
  member: string,
  dim: string,
  day: number,
  text: string
): void {
  let dims = out.get(member);
  if (!dims) out.set(member, (dims = new Map<string, Map<number, string>>()));
  let days = dims.get(dim);
  if (!days) dims.set(dim, (days = new Map<number, string>()));
  // A day's parts with several unreadable texts: the first names it.
  if (!days.has(day)) days.set(day, text);
}

/**
 * The days of a request's series that the client found sent twice with different values (RepeatNote), keyed
 * as push() keys rows: by the member that varies across the request's series and by dimension. A member's
 * day in conflict is a conflict of its dimension ("" without breakdown), whatever other rows that day hold.
 */
function conflictsOf(r: GroupRequest, repeats: RepeatNote | undefined): Conflicts {
  const out: Conflicts = new Map();
  for (const key of repeats?.conflicted ?? []) {
    if (key.date === undefined || key.metricId === undefined) continue;
    // A row dropped as outside the asked (another chain, another day) holds no conflict of the series.
    if (outsideAsked(r, dayNumber(key.date), key)) continue;
    let member: string | undefined;
    if (r.form === "metric") member = key.metricId === r.metricId ? key.projectId : undefined;
    else member = key.metricId;
    if (member === undefined) continue;
    addConflict(out, member, conflictDim(r, key), dayNumber(key.date));
  }
  return out;
}

function addConflict(out: Conflicts, member: string, dim: string, day: number): void {
  let dims = out.get(member);
  if (!dims) out.set(member, (dims = new Map<string, Set<number>>()));
  let days = dims.get(dim);
  if (!days) dims.set(dim, (days = new Set<number>()));
  days.add(day);
}

/** The dimension a conflicting row's value lands in, as fetchGroup puts rows in dimensions. */
function conflictDim(r: GroupRequest, key: ConflictKey): string {
  const breakdown = r.variant.breakdown;
  if (r.form === "metric" || !breakdown) return "";
  if (breakdown === "chain") return key.chain ?? "";
  return r.form === "project" ? (key.productId ?? "") : "";
}

/**
 * Points per dimension, sorted by day: the same form the cache reads back (series-store.ts). The rows came
 * sorted by day (asked in ascending order; the client sorts them even when the service did not), so the days
 * are in order already; a day out of order would be the client breaking its word, and is refused rather than
 * stored where the cache's searches would miss it.
 */
function pointsOf(
  days: Map<string, Map<number, number | null>>,
  conflicts: Map<string, Set<number>> | undefined,
  splits: Map<string, Set<number>> | undefined,
  unreadable: Map<string, Map<number, string>> | undefined
): Map<string, DayPoint[]> {
  const out = new Map<string, DayPoint[]>();
  for (const [dim, values] of days) {
    const inConflict = conflicts?.get(dim);
    const split = splits?.get(dim);
    const texts = unreadable?.get(dim);
    const points = [...values].map(([day, value]): DayPoint => {
      // Sent twice with two values or split beyond telling apart: that says more than one copy's text.
      if (split?.has(day)) return { day, value: null, conflict: true, split: true };
      if (inConflict?.has(day)) return { day, value: null, conflict: true };
      const text = texts?.get(day);
      return text !== undefined
        ? { day, value: null, conflict: true, unreadable: text }
        : { day, value };
    });
    for (let i = 1; i < points.length; i++)
      if (points[i].day <= points[i - 1].day)
        throw new Error(`${dim || "series"}: days out of order after the client sorted the rows`);
    out.set(dim, points);
  }
  return out;
}

/** The diagnostics' note on values sent that are no number: how many, and the first few. */
function unreadableNote(texts: Map<string, Map<number, string>>): string {
  const all = [...texts.values()].flatMap((days) => [...days]);
  const shown = all
    .slice(0, 3)
    .map(([day, text]) => `"${text}" for ${formatDay(day)}`)
    .join(", ");
  return `the service sent ${all.length} value${all.length === 1 ? "" : "s"} that ${all.length === 1 ? "is" : "are"} no number (${shown}${all.length > 3 ? ", …" : ""}); no figure for ${all.length === 1 ? "that day" : "those days"}`;
}

function describeRepeats(repeats: RepeatNote): string[] {
  const notes = [
    `the service repeated ${repeats.copies} row${repeats.copies === 1 ? "" : "s"} in its answer; each day is counted once`,
  ];
  if (repeats.conflicts > 0)
    notes.push(
      `${repeats.conflicts} repeated row${repeats.conflicts === 1 ? "" : "s"} disagreed (${repeats.examples.join("; ")}); no figure for ${repeats.conflicts === 1 ? "that day" : "those days"}`
    );
  return notes;
}

/** A response's notes for the series it served: repeats collapsed, rows set aside (future-dated...). */
function notesOf(meta: ResultMeta): string[] {
  return [...(meta.repeats ? describeRepeats(meta.repeats) : []), ...(meta.notes ?? [])];
}

function describeError(e: PartialError): string {
  switch (e.code) {
    case "NOT_FOUND":
      return `the service does not know ${e.field.replace(/_ids$/, "")} "${e.value}"`;
    case "METRIC_NOT_AVAILABLE":
      return `metric "${e.metricId}" is not available for project "${e.projectId}"`;
    case "UNRECOGNISED":
      return `the service reported: ${openText(e.entry, { maxDepth: 4, maxLength: 120 })}`;
  }
}

/** Assigns the partial-success errors of one request to the series it served. */
function applyErrors(
  r: GroupRequest,
  errors: readonly PartialError[],
  results: Map<string, PairResult>
): void {
  for (const q of r.queries) {
    const result = results.get(seriesKey(q))!;
    for (const e of errors) {
      if (e.code === "METRIC_NOT_AVAILABLE") {
        if (e.projectId === q.projectId && e.metricId === q.metricId)
          result.issue = notAvailableIssue(q.projectId, q.metricId, q.productId);
      } else if (e.code === "NOT_FOUND" && e.field === "project_ids") {
        if (e.value === q.projectId)
          result.issue = { code: "unknown-project", message: describeError(e) };
      } else if (e.code === "NOT_FOUND" && e.field === "metric_ids") {
        if (e.value === q.metricId)
          result.issue = { code: "unknown-metric", message: describeError(e) };
      } else {
        result.warnings.push(describeError(e));
      }
    }
  }
}

/**
 * Whether a row is outside what was asked: a chain or product it names that the filter did not ask (an odd
 * service answers `chain_ids=polygon` with a row per chain: those rows are dropped, never summed), or a day
 * outside the range asked (a service that ignored the date parameters). Filter values are compared without
 * case: the filter checks gave them the project's own spelling, the service may send another.
 */
function outsideAsked(
  r: Pick<GroupRequest, "start" | "end" | "variant">,
  day: number,
  members: { chain?: string; productId?: string }
): boolean {
  if (day < r.start || day > r.end) return true;
  const { chains, products } = r.variant;
  if (members.chain !== undefined && chains.length > 0 && !includesFolded(chains, members.chain))
    return true;
  if (
    members.productId !== undefined &&
    products.length > 0 &&
    !includesFolded(products, members.productId)
  )
    return true;
  return false;
}

function includesFolded(list: readonly string[], value: string): boolean {
  const v = value.toLowerCase();
  return list.some((x) => x.toLowerCase() === v);
}

export async function fetchGroup(
  client: SeriesClient,
  r: GroupRequest,
  signal: AbortSignal
): Promise<GroupResult> {
  const start = bound(r.start);
  const end = bound(r.end);
  const v = r.variant;
  // id -> dim -> day -> value, where id is the member that varies across the request's series.
  const found: Found = new Map();
  // A day's rows split by a member nobody asked for are its parts: gathered here, added up below.
  const parts = new DayParts();
  // Values present but no number: the day is no figure, and its message names what was sent.
  const unreadable: Unreadable = new Map();
  let unattributed = 0;
  let errors: readonly PartialError[] = [];
  let notes: string[] = [];
  let repeats: RepeatNote | undefined;
  const description = describeGroup(r);
  const results = new Map<string, PairResult>();
  for (const q of r.queries) results.set(seriesKey(q), { dims: new Map(), warnings: [] });

  try {
    if (r.form === "metric") {
      const res = await client.getMetric(
        r.metricId,
        {
          projectIds: r.all ? "all" : r.members,
          start,
          end,
          chainIds: ids(v.chains),
          productIds: ids(v.products),
          marketSectorIds: ids(v.sectors),
          assetsBridged: v.bridged,
          orderDirection: "asc",
        },
        { signal }
      );
      // An every-project answer holds projects nobody asked: only the members' rows are kept.
      const members = r.all ? new Set(r.members) : undefined;
      for (const row of res.data) {
        if (members && !members.has(row.projectId)) continue;
        const day = dayNumber(row.date);
        if (outsideAsked(r, day, row)) continue;
        parts.add(row.projectId, "", day, unaskedMembers(row), row.value);
        if (row.unreadable !== undefined)
          addUnreadable(unreadable, row.projectId, "", day, row.unreadable);
      }
      errors = res.errors;
      repeats = res.meta.repeats;
      notes = notesOf(res.meta);
    } else if (r.form === "project") {
      const res = await client.getProjectMetrics(
        r.projectId,
        {
          metricIds: r.members,
          start,
          end,
          chainIds: ids(v.chains),
          productIds: ids(v.products),
          marketSectorIds: ids(v.sectors),
          aggregateBy: v.breakdown,
          assetsBridged: v.bridged,
          orderDirection: "asc",
        },
        { signal }
      );
      const asked = v.breakdown === "chain" ? "chain" : v.breakdown ? "productId" : undefined;
      for (const row of res.data) {
        // A row of the asked breakdown that does not say which chain or product it is: never a whole.
        const dim = asked ? row[asked] : "";
        if (dim === undefined) {
          unattributed++;
          continue;
        }
        const day = dayNumber(row.date);
        if (outsideAsked(r, day, row)) continue;
        const unasked = unaskedMembers(row, asked);
        for (const metricId of r.members) {
          if (metricId in row.values) parts.add(metricId, dim, day, unasked, row.values[metricId]);
          const text = row.unreadable?.[metricId];
          if (text !== undefined) addUnreadable(unreadable, metricId, dim, day, text);
        }
      }
      errors = res.errors;
      repeats = res.meta.repeats;
      notes = notesOf(res.meta);
    } else {
      const res = await client.getProductMetrics(
        r.projectId,
        r.productId,
        {
          metricIds: r.members,
          start,
          end,
          chainIds: ids(v.chains),
          aggregateBy: v.breakdown,
          assetsBridged: v.bridged,
          orderDirection: "asc",
        },
        { signal }
      );
      for (const row of res.data) {
        const day = dayNumber(row.date);
        if (outsideAsked(r, day, { chain: row.chainId })) continue;
        const byChain = v.breakdown === "chain";
        const dim = byChain ? (row.chainId ?? "") : "";
        // A product's rows split by chain unasked (§2.5's chain_id without aggregate_by) are parts.
        const unasked = !byChain && row.chainId !== undefined ? { chain: row.chainId } : {};
        parts.add(row.metricId, dim, day, unasked, row.value);
        if (row.unreadable !== undefined)
          addUnreadable(unreadable, row.metricId, dim, day, row.unreadable);
      }
      errors = res.errors;
      repeats = res.meta.repeats;
      notes = notesOf(res.meta);
    }
  } catch (error) {
    // A 404 on a project's or product's own path is an answer about those series, not a passing failure.
    if (isCryptometricsError(error) && error.kind === "not-found" && r.form !== "metric") {
      const code = r.form === "product" ? "unknown-product" : "unknown-project";
      const what =
        r.form === "product"
          ? `product "${r.productId}" of project "${r.projectId}"`
          : `project "${r.projectId}"`;
      for (const result of results.values())
        result.issue = { code, message: `the service does not know ${what}` };
      return { results, description };
    }
    throw error;
  }

  if (unattributed > 0) {
    const member = v.breakdown === "chain" ? "chain" : "product";
    for (const result of results.values())
      result.issue = {
        code: "unattributable",
        message: `the service broke ${r.projectId} down by ${member} in ${unattributed} row${unattributed === 1 ? "" : "s"} that do not say which ${member} they are: no figure is shown rather than one ${member}'s as the whole`,
      };
    return { results, description };
  }
  const conflicts = conflictsOf(r, repeats);
  // Days whose parts could not be told apart: conflicts whose message says so (not "sent twice").
  const splits: Conflicts = new Map();
  const ambiguous = parts.resolve(
    (id, dim, day, value) => push(found, id, dim, day, value),
    (id, dim, day) => {
      const series = r.form === "metric" ? `${id} ${r.metricId}` : `${r.projectId} ${id}`;
      return `${series}${dim ? ` (${dim})` : ""} on ${formatDay(day)}`;
    },
    // A day whose parts cannot be told apart is a conflict, as a day sent twice with two values: no fill
    // fills it, and every period or window holding it is #N/A with the note saying why.
    (id, dim, day) => addConflict(splits, id, dim, day)
  );
  for (const q of r.queries) {
    const member = r.form === "metric" ? q.projectId : q.metricId;
    const dims = found.get(member);
    const result = results.get(seriesKey(q))!;
    for (const note of ambiguous.get(member) ?? []) result.warnings.push(note);
    if (dims)
      result.dims = pointsOf(
        dims,
        conflicts.get(member),
        splits.get(member),
        unreadable.get(member)
      );
    const texts = unreadable.get(member);
    if (texts) result.warnings.push(unreadableNote(texts));
    // Asked of every project, the service names no project that lacks the metric: it leaves it out.
    else if (r.all)
      result.warnings.push(
        `not in the service's answer for every project: no ${q.metricId} data in this range, or ${q.metricId} is not tracked for ${q.projectId}`
      );
    for (const note of notes) result.warnings.push(note);
  }
  applyErrors(r, errors, results);
  return { results, description };
}
