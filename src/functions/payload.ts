/**
 * Excel's limit on one custom function's result: Microsoft caps a function's payload (its result, entity
 * arguments serialised) at 5 MB, and Excel on the web a request or response at 5 MB. A spill past it fails in
 * Excel with nothing the user can act on; here it is refused first, in words: its size, and how to split it.
 *
 * The size is the result's JSON in UTF-8, as the runtime sends it. Measuring that exactly costs one
 * serialisation, so a cheap upper bound comes first (every number as 24 characters, every text as 6 bytes per
 * character, the escaped worst case): a result whose bound fits is never serialised, and only one that might
 * pass the limit is measured exactly.
 */

/** 5 MB as Microsoft states it, in decimal megabytes (the smaller reading of "MB"). */
export const EXCEL_PAYLOAD_LIMIT_BYTES = 5_000_000;

/** A cell's serialised length at most: JSON of a number is at most 24 characters ("-1.2345678901234567e+308"). */
function bound(value: unknown): number {
  if (typeof value === "number") return 24 + 1;
  if (typeof value === "boolean" || value === null) return 5 + 1;
  if (typeof value === "string") return value.length * 6 + 3;
  // A rich value or an entity (small, and rare in large spills): its JSON, at UTF-8's worst.
  return JSON.stringify(value ?? null).length * 3 + 1;
}

/** The exact size of the result as the runtime serialises it, in bytes of UTF-8. */
export function payloadBytes(matrix: readonly (readonly unknown[])[]): number {
  return new TextEncoder().encode(JSON.stringify(matrix)).length;
}

/** Why the result cannot go to Excel, or undefined when it fits. */
export function payloadProblem(matrix: readonly (readonly unknown[])[]): string | undefined {
  let upper = 2;
  for (const row of matrix) {
    upper += 3;
    for (const value of row) upper += bound(value);
    if (upper > EXCEL_PAYLOAD_LIMIT_BYTES) break;
  }
  if (upper <= EXCEL_PAYLOAD_LIMIT_BYTES) return undefined;
  const bytes = payloadBytes(matrix);
  if (bytes <= EXCEL_PAYLOAD_LIMIT_BYTES) return undefined;
  const cells = matrix.reduce((n, row) => n + row.length, 0);
  const mb = (bytes / 1_000_000).toFixed(1);
  return `this result is ${mb} MB (${cells.toLocaleString("en-US")} cells), over Excel's 5 MB limit for one function: split it, with fewer projects or a shorter date range per formula`;
}

/**
 * The most rows of a METRIC spill of `projects` columns beside its Date column that pass the limit, for the
 * bench: every value a full-precision figure as the service sends them, every date a formatted date.
 */
export function largestMetricSpill(projects: number, sample: unknown[]): number {
  const row = (): unknown[] => [sample[0], ...Array.from({ length: projects }, () => sample[1])];
  const fits = (rows: number): boolean =>
    payloadProblem(Array.from({ length: rows }, row)) === undefined;
  let low = 0;
  let high = 1;
  while (fits(high)) {
    low = high;
    high *= 2;
  }
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid;
  }
  return low;
}
