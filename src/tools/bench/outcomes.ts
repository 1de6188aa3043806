/**
 * What a cell ended up showing, in a form both evaluators produce, so a run can say how many cells got a
 * value and whether the add-in and the naive baseline agree on every single-value cell.
 */

export type CellOutcome =
  | { kind: "number"; value: number }
  | { kind: "table"; rows: number; columns: number }
  | { kind: "error"; code: string; message: string };

export interface OutcomeSummary {
  numbers: number;
  tables: number;
  /** Error cells per code, e.g. {"#N/A": 34}. */
  errors: Record<string, number>;
}

export function summarise(outcomes: readonly CellOutcome[]): OutcomeSummary {
  const summary: OutcomeSummary = { numbers: 0, tables: 0, errors: {} };
  for (const o of outcomes) {
    if (o.kind === "number") summary.numbers++;
    else if (o.kind === "table") summary.tables++;
    else summary.errors[o.code] = (summary.errors[o.code] ?? 0) + 1;
  }
  return summary;
}

export interface Agreement {
  /** Cells where both sides gave a number or an error (tables are not compared). */
  compared: number;
  agree: number;
  /** The first cell (index) that differs, and how. */
  firstDifference?: { index: number; ours: string; naive: string };
}

function show(o: CellOutcome): string {
  if (o.kind === "number") return String(o.value);
  if (o.kind === "table") return `table ${o.rows}×${o.columns}`;
  return `${o.code} ${o.message}`;
}

/** Two numbers agree when equal up to float noise; two errors agree whatever their wording. */
function same(a: CellOutcome, b: CellOutcome): boolean {
  if (a.kind === "number" && b.kind === "number")
    return a.value === b.value || Math.abs(a.value - b.value) <= 1e-9 * Math.abs(b.value);
  return a.kind === "error" && b.kind === "error";
}

export function compareOutcomes(
  ours: readonly CellOutcome[],
  naive: readonly CellOutcome[]
): Agreement {
  if (ours.length !== naive.length)
    throw new RangeError(`${ours.length} cells against ${naive.length}: not the same sheet`);
  const result: Agreement = { compared: 0, agree: 0 };
  ours.forEach((o, index) => {
    const n = naive[index];
    if (o.kind === "table" || n.kind === "table") return;
    result.compared++;
    if (same(o, n)) result.agree++;
    else result.firstDifference ??= { index, ours: show(o), naive: show(n) };
  });
  return result;
}
