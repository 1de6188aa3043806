/**
 * Rows the service sends more than once, collapsed to one, so that every caller (and the engine's cache)
 * sees each day once: a repeat summed into a period would invent an amount. Aggregating services repeat rows
 * now and then (same day, project, metric and chain or product); the interface does not rule it out.
 *
 * - Identical copies collapse silently (and are counted).
 * - A copy with a value where the kept row has null fills it (null means "no value", not a value).
 * - Two different numbers for the same key are a conflict: nothing says which one is right, so the value is
 *   null (an empty cell, a #N/A for a single value) rather than a figure that may be wrong. Conflicts are
 *   counted and a few are named for the diagnostics.
 */
import type {
  ConflictKey,
  MetricValue,
  MultiProjectMetricRow,
  ProductMetricRow,
  ProjectMetricRow,
  RepeatNote,
} from "./types";

/** Conflicts named in a note: enough to find them, bounded however many the answer holds. */
const MAX_EXAMPLES = 5;

/** Counts repeats over one call (every response of a split request). */
export class RepeatCounter {
  private copies = 0;
  private conflicts = 0;
  private readonly examples: string[] = [];
  private readonly conflicted: ConflictKey[] = [];

  copy(): void {
    this.copies++;
  }

  conflict(description: string, key: ConflictKey): void {
    this.conflicts++;
    this.conflicted.push(key);
    if (this.examples.length < MAX_EXAMPLES) this.examples.push(description);
  }

  /** Undefined when every row came once. */
  note(): RepeatNote | undefined {
    if (this.copies === 0) return undefined;
    return {
      copies: this.copies,
      conflicts: this.conflicts,
      examples: [...this.examples],
      conflicted: [...this.conflicted],
    };
  }
}

/** The value kept for a key sent twice; `conflict` when both are numbers and differ. */
export function resolve(
  kept: MetricValue,
  next: MetricValue
): { value: MetricValue; conflict: boolean } {
  if (next === null || kept === next) return { value: kept, conflict: false };
  if (kept === null) return { value: next, conflict: false };
  return { value: null, conflict: true };
}

/**
 * A value as sent, for the copies of a row: a number, null (no value), or the text of one present but no
 * number (unreadable). An unreadable copy beside a number is a conflict as two numbers are; beside no value
 * or another unreadable copy it stays unreadable.
 */
interface Sent {
  value: MetricValue;
  unreadable?: string;
}

function resolveSent(kept: Sent, next: Sent): { sent: Sent; conflict: boolean } {
  if (kept.unreadable === undefined && next.unreadable === undefined) {
    const r = resolve(kept.value, next.value);
    return { sent: { value: r.value }, conflict: r.conflict };
  }
  if (kept.unreadable !== undefined)
    return next.value === null
      ? { sent: kept, conflict: false }
      : { sent: { value: null }, conflict: true };
  return kept.value === null
    ? { sent: next, conflict: false }
    : { sent: { value: null }, conflict: true };
}

/**
 * What a later copy of a row may change in the kept one: `field` names the value, `stuck` holds the fields
 * already in conflict (they stay null whatever later copies say).
 */
interface Fold {
  stuck: Set<string>;
  conflict(field: string, description: string, key: ConflictKey): void;
}

/** One row per key, in first-seen order; `merge` folds a later copy into the kept row. */
export function distinct<R>(
  rows: readonly R[],
  keyOf: (row: R) => string,
  merge: (kept: R, next: R, fold: Fold) => R,
  counter: RepeatCounter
): R[] {
  const index = new Map<string, number>();
  const stuck = new Map<number, Set<string>>();
  const out: R[] = [];
  for (const row of rows) {
    const key = keyOf(row);
    const at = index.get(key);
    if (at === undefined) {
      index.set(key, out.length);
      out.push(row);
      continue;
    }
    counter.copy();
    let fields = stuck.get(at);
    if (!fields) stuck.set(at, (fields = new Set()));
    const set = fields;
    out[at] = merge(out[at], row, {
      stuck: set,
      conflict: (field, description, conflictKey) => {
        set.add(field);
        counter.conflict(description, conflictKey);
      },
    });
  }
  return out;
}

/** A one-value row's copy folded in (field "value"). */
export function mergeValue<R extends { value: MetricValue; unreadable?: string }>(
  kept: R,
  next: R,
  fold: Fold,
  what: string,
  key: ConflictKey
): R {
  if (fold.stuck.has("value")) return kept;
  const { sent, conflict } = resolveSent(kept, next);
  if (conflict)
    fold.conflict(
      "value",
      `${what}: ${kept.unreadable ?? String(kept.value)} and ${next.unreadable ?? String(next.value)}`,
      key
    );
  if (sent.value === kept.value && sent.unreadable === kept.unreadable) return kept;
  const { unreadable: _dropped, ...rest } = kept;
  void _dropped;
  return (
    sent.unreadable === undefined
      ? { ...rest, value: sent.value }
      : { ...rest, value: sent.value, unreadable: sent.unreadable }
  ) as R;
}

export function wideRowKey(row: ProjectMetricRow): string {
  return JSON.stringify([
    row.date,
    row.projectId,
    row.chain ?? null,
    row.productId ?? null,
    row.businessLine ?? null,
    row.version ?? null,
  ]);
}

/** §4.3 wide rows: one per day and breakdown; each metric's value resolved on its own. */
export function distinctWideRows(
  rows: readonly ProjectMetricRow[],
  counter: RepeatCounter
): ProjectMetricRow[] {
  return distinct(
    rows,
    wideRowKey,
    (kept, next, fold) => {
      let values: Record<string, MetricValue> | undefined;
      let unreadable: Record<string, string> | undefined;
      const keptText = (metricId: string) => (unreadable ?? kept.unreadable)?.[metricId];
      const setText = (metricId: string, text: string | undefined) => {
        if (keptText(metricId) === text) return;
        unreadable ??= { ...kept.unreadable };
        if (text === undefined) delete unreadable[metricId];
        else unreadable[metricId] = text;
      };
      for (const [metricId, v] of Object.entries(next.values)) {
        if (fold.stuck.has(metricId)) continue;
        const current = (values ?? kept.values)[metricId];
        const nextText = next.unreadable?.[metricId];
        if (current === undefined) {
          (values ??= { ...kept.values })[metricId] = v;
          setText(metricId, nextText);
          continue;
        }
        const before = keptText(metricId);
        const resolved = resolveSent(
          { value: current, unreadable: before },
          { value: v, unreadable: nextText }
        );
        const { conflict } = resolved;
        const value = resolved.sent.value;
        setText(metricId, resolved.sent.unreadable);
        if (conflict)
          fold.conflict(
            metricId,
            `${kept.projectId} ${metricId} on ${kept.date}: ${before ?? String(current)} and ${nextText ?? String(v)}`,
            {
              date: kept.date,
              projectId: kept.projectId,
              metricId,
              chain: kept.chain,
              productId: kept.productId,
              businessLine: kept.businessLine,
              version: kept.version,
            }
          );
        if (value !== current) (values ??= { ...kept.values })[metricId] = value;
      }
      if (!values && !unreadable) return kept;
      const merged = { ...kept, values: values ?? kept.values };
      if (unreadable === undefined) return merged;
      const { unreadable: _old, ...rest } = merged;
      void _old;
      return Object.keys(unreadable).length > 0 ? { ...rest, unreadable } : rest;
    },
    counter
  );
}

/** §4.11 long rows: one per day, project, metric and (when a service splits the day) breakdown member. */
export function distinctMultiProjectRows(
  rows: readonly MultiProjectMetricRow[],
  counter: RepeatCounter
): MultiProjectMetricRow[] {
  return distinct(
    rows,
    (r) =>
      JSON.stringify([
        r.date,
        r.projectId,
        r.metricId,
        r.chain ?? null,
        r.productId ?? null,
        r.businessLine ?? null,
        r.version ?? null,
      ]),
    (kept, next, fold) =>
      mergeValue(kept, next, fold, `${kept.projectId} ${kept.metricId} on ${kept.date}`, {
        date: kept.date,
        projectId: kept.projectId,
        metricId: kept.metricId,
      }),
    counter
  );
}

/** §4.7 rows: one per day, metric and chain. */
export function distinctProductRows(
  rows: readonly ProductMetricRow[],
  counter: RepeatCounter
): ProductMetricRow[] {
  return distinct(
    rows,
    (r) => JSON.stringify([r.date, r.metricId, r.chainId ?? null]),
    (kept, next, fold) =>
      mergeValue(
        kept,
        next,
        fold,
        `${kept.metricId}${kept.chainId ? ` (${kept.chainId})` : ""} on ${kept.date}`,
        { date: kept.date, metricId: kept.metricId, chain: kept.chainId }
      ),
    counter
  );
}
