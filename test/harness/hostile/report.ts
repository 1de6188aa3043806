/** The hostile-data table of `npm run faults`: one row per attack, its bound, what was measured. */
import type { AttackResult, HostileAttack } from "./attacks";

const HEADERS = [
  "attack",
  "bound",
  "through",
  "requests",
  "time",
  "peak RSS",
  "key chars",
  "observed",
  "ok",
] as const;

/**
 * What a terminal would act on (controls but none kept, C1, bidirectional formatting), written as its code
 * point: an observation quoting hostile text must not reorder or recolour the report that shows it.
 */
const UNSAFE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function inert(text: string): string {
  return text.replace(
    UNSAFE,
    (c) => `<U+${c.codePointAt(0)?.toString(16).toUpperCase().padStart(4, "0")}>`
  );
}

function time(r: AttackResult): string {
  const clock = r.through === "runtime" ? " (virtual)" : "";
  return r.ms < 1_000
    ? `${r.ms.toFixed(r.ms < 10 ? 1 : 0)} ms${clock}`
    : `${(r.ms / 1000).toFixed(1)} s${clock}`;
}

function hostileCells(attack: HostileAttack, r: AttackResult): string[] {
  return [
    r.attack,
    attack.bound,
    r.through,
    String(r.requests),
    time(r),
    r.peakRssBytes === undefined ? "-" : `${Math.round(r.peakRssBytes / 1_048_576)} MB`,
    String(r.keyRun),
    inert(r.observed.replace(/\|/g, "/")).slice(0, 110),
    r.violations.length === 0 ? "yes" : `NO (${r.violations.length})`,
  ];
}

/** A Markdown table, padded so it reads as plain text too. */
export function formatHostileTable(
  rows: ReadonlyArray<{ attack: HostileAttack; result: AttackResult }>
): string {
  const table = [HEADERS.map(String), ...rows.map((r) => hostileCells(r.attack, r.result))];
  const widths = HEADERS.map((_, i) => table.reduce((w, r) => Math.max(w, r[i].length), 0));
  const line = (r: readonly string[]): string =>
    `| ${r.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  const rule = `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`;
  return [line(table[0]), rule, ...table.slice(1).map(line)].join("\n") + "\n";
}

export function formatHostileViolations(results: readonly AttackResult[]): string {
  const out: string[] = [];
  for (const r of results) {
    if (r.violations.length === 0) continue;
    out.push(`${r.attack}:`);
    for (const v of r.violations) out.push(`  - ${v}`);
  }
  return out.length > 0 ? `${out.join("\n")}\n` : "";
}
