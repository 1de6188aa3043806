/** The fault table as text: one row per fault, the guarantees' figures, then every broken guarantee. */
import type { FaultRow } from "./run";

const HEADERS = [
  "fault",
  "formulas",
  "settled",
  "values kept",
  "errors by kind",
  "max settle",
  "requests",
  "retries",
  "429s",
  "busiest 60 s",
  "recovered",
  "ok",
] as const;

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

function kinds(row: FaultRow): string {
  const parts = Object.entries(row.errorsByKind)
    .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0))
    .map(([kind, n]) => `${kind} ${n}`);
  return parts.length > 0 ? parts.join(", ") : "-";
}

function cells(row: FaultRow): string[] {
  return [
    row.fault,
    String(row.formulas),
    String(row.settled),
    `${row.valuesKept}/${row.valuesBefore}`,
    kinds(row),
    seconds(row.maxSettleMs),
    String(row.requests),
    String(row.retries),
    String(row.rejected429),
    `${row.busiestMinute}/${row.limitPerMinute}`,
    `${row.recovered}/${row.formulas}`,
    row.violations.length === 0 ? "yes" : `NO (${row.violations.length})`,
  ];
}

/** A Markdown table (readable as plain text too: columns are padded). */
export function formatTable(rows: readonly FaultRow[]): string {
  const table = [HEADERS.map(String), ...rows.map(cells)];
  const widths = HEADERS.map((_, i) => table.reduce((w, r) => Math.max(w, r[i].length), 0));
  const line = (r: readonly string[]): string =>
    `| ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" | ")} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? "-".repeat(w + 2) : `${"-".repeat(w + 1)}:`)).join("|")}|`;
  return [line(table[0]), rule, ...table.slice(1).map(line)].join("\n") + "\n";
}

export function formatViolations(rows: readonly FaultRow[], max = 10): string {
  const out: string[] = [];
  for (const row of rows) {
    if (row.violations.length === 0) continue;
    out.push(`${row.fault}:`);
    for (const v of row.violations.slice(0, max)) out.push(`  - ${v}`);
    if (row.violations.length > max) out.push(`  - ... and ${row.violations.length - max} more`);
  }
  return out.length > 0 ? `${out.join("\n")}\n` : "";
}
