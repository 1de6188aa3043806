/**
 * The rows of a statement. `rows=standard` (the default) gives every project the same rows in the same
 * order, so a statement template built on one project lines up on another: the service's standard sections
 * and lines (STANDARD_STATEMENT), empty where a project has no such line, then any line the template does
 * not know, sorted by section and metric (a stable order). `rows=service` keeps the service's own rows in
 * its order.
 */
import type { FinancialStatementRow } from "../../client";

export interface StatementLine {
  section: string;
  metricId: string;
}

/**
 * The sections and lines of the service's statements, in its order: an income statement from fees to
 * earnings, then the key metrics. A project shows the lines it has; the template shows them all.
 */
export const STANDARD_STATEMENT: readonly StatementLine[] = [
  ...["fees", "fees_supply_side", "revenue", "token_incentives", "expenses", "earnings"].map(
    (metricId) => ({ section: "Income statement", metricId })
  ),
  ...[
    "tvl",
    "active_loans",
    "user_dau",
    "user_mau",
    "market_cap_fully_diluted",
    "tokenholders",
  ].map((metricId) => ({ section: "Key metrics", metricId })),
];

export function lineKey(line: StatementLine): string {
  return `${line.section}\u0000${line.metricId}`;
}

/** The lines of a statement, in the order `rows` asks. */
export function statementLines(
  rows: readonly FinancialStatementRow[],
  mode: "standard" | "service"
): StatementLine[] {
  const seen = new Map<string, StatementLine>();
  for (const r of rows) {
    const line = { section: r.section, metricId: r.metricId };
    if (!seen.has(lineKey(line))) seen.set(lineKey(line), line);
  }
  if (mode === "service") return [...seen.values()];
  const standard = new Set(STANDARD_STATEMENT.map(lineKey));
  const extra = [...seen.values()]
    .filter((l) => !standard.has(lineKey(l)))
    .sort((a, b) =>
      a.section === b.section ? compare(a.metricId, b.metricId) : compare(a.section, b.section)
    );
  return [...STANDARD_STATEMENT, ...extra];
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
