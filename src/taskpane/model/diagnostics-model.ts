/**
 * What the diagnostics panel shows, computed from the shared diagnostics record: the active cell's parsed
 * arguments, the requests that served it, its partial-success warnings, staleness and metric definitions;
 * the recent errors with their cells; the usage meter; and the export for a support request. Plain data:
 * the view only turns it into elements. Nothing here can show the key: exports pass through the client's
 * redaction with the stored key as a secret, on top of the records never holding it.
 */
import { redact } from "../../client";
import type { CellRecord, ErrorRecord, NoteRecord, Usage } from "../../runtime/diagnostics";
import type { SettingsSnapshot } from "../../runtime/settings";

interface CellView {
  address: string;
  functionName: string;
  args: { name: string; value: string }[];
  requests: string[];
  warnings: string[];
  stale?: string;
  /** Where the values came from when it was the cache saved on this computer, and how old they are. */
  saved?: string;
  error?: string;
  definitions: { metric: string; definition: string }[];
  /** "aave tvl: latest value from 2026-11-23", one per latest value the cell shows. */
  asOf: string[];
  computedAt: string;
}

interface UsageView {
  requestsLastMinute: number;
  limitPerMinute: number;
  /** 0..1 of the limit used in the last minute. */
  share: number;
  level: "low" | "medium" | "high";
  summary: string;
  detail: string;
}

/** "2025-06-15 12:00:05 UTC": UTC, so two people reading an export see the same time. */
export function formatInstant(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** "45 min", "3 h", "2 days": how long before `at` the instant `then` was. */
export function formatAge(then: number, at: number): string {
  const minutes = Math.max(0, Math.round((at - then) / 60_000));
  if (minutes < 1) return "less than a minute";
  if (minutes < 90) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 36) return `${hours} h`;
  const days = Math.round(hours / 24);
  return `${days} days`;
}

function scalarText(value: unknown): string {
  if (value === null || value === undefined || value === "") return "";
  if (typeof value === "string") return `"${value.replace(/"/g, '""')}"`;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  // Nothing else arrives from a cell; say what it was rather than "[object Object]".
  return `(${typeof value})`;
}

/** An argument as it arrived: omitted, a value, or a range shown as an array constant {a,b;c,d}. */
export function formatArgument(value: unknown): string {
  if (value === null || value === undefined) return "(omitted)";
  if (Array.isArray(value)) {
    const rows = value.map((row: unknown) => (Array.isArray(row) ? (row as unknown[]) : [row]));
    const cells = rows.reduce((n, row) => n + row.length, 0);
    if (rows.length === 1 && rows[0].length === 1) return formatArgument(rows[0][0]);
    const shown = rows
      .slice(0, 5)
      .map((row) => row.slice(0, 5).map(scalarText).join(","))
      .join(";");
    return `{${shown}${cells > 25 ? ";…" : ""}} (${rows.length}×${rows[0]?.length ?? 0} range)`;
  }
  return scalarText(value) || '""';
}

export function describeCell(record: CellRecord): CellView {
  return {
    address: record.address,
    functionName: `CRYPTO.${record.functionName}`,
    args: Object.entries(record.args).map(([name, value]) => ({
      name,
      value: formatArgument(value),
    })),
    requests: [...record.requests],
    warnings: [...record.warnings],
    stale: record.stale
      ? `Served from data fetched ${formatInstant(record.stale.fetchedAt)}, because the refresh failed: ${record.stale.reason}`
      : undefined,
    saved: record.restored
      ? `From the cache saved on this computer: fetched ${formatInstant(record.restored.fetchedAt)}, ` +
        `${formatAge(record.restored.fetchedAt, record.at)} before this calculation.`
      : undefined,
    error: record.error ? `${record.error.code} ${record.error.message}` : undefined,
    definitions: Object.entries(record.definitions ?? {}).map(([metric, definition]) => ({
      metric,
      definition,
    })),
    asOf: Object.entries(record.asOf ?? {}).map(
      ([series, day]) => `${series}: latest value from ${day}`
    ),
    computedAt: formatInstant(record.at),
  };
}

interface ErrorView {
  address: string;
  summary: string;
  at: string;
}

/** Recent errors, newest first, one line each: the cell, the function, the code and message. */
export function describeErrors(errors: readonly ErrorRecord[], limit = 20): ErrorView[] {
  return errors.slice(0, limit).map((e) => ({
    address: e.address,
    summary: `CRYPTO.${e.functionName}: ${e.code} ${e.message}`,
    at: formatInstant(e.at),
  }));
}

/** Notes about the saved cache (entries dropped, a store that failed), newest first. */
export function describeNotes(
  notes: readonly NoteRecord[],
  limit = 10
): { text: string; at: string }[] {
  return notes.slice(0, limit).map((n) => ({ text: n.text, at: formatInstant(n.at) }));
}

export function describeUsage(usage: Usage): UsageView {
  const share = usage.limitPerMinute > 0 ? usage.requestsLastMinute / usage.limitPerMinute : 0;
  return {
    requestsLastMinute: usage.requestsLastMinute,
    limitPerMinute: usage.limitPerMinute,
    share: Math.min(1, share),
    level: share >= 0.9 ? "high" : share >= 0.6 ? "medium" : "low",
    summary: `${usage.requestsLastMinute} of ${usage.limitPerMinute} requests in the last minute${
      usage.team
        ? usage.team.key === "own"
          ? " (your own key's budget, as the team gateway counts it)"
          : " (the team's budget, as the team gateway counts it)"
        : ""
    }`,
    // Calls of every caller (cells, the catalogue, connection tests): the cell errors are listed apart.
    detail: `${usage.requestsTotal} requests, ${usage.retriesTotal} retries, ${usage.errorsTotal} failed service calls (cells, catalogue and tests) since the add-in started`,
  };
}

interface ExportInput {
  diagnostics: {
    export(): {
      cells: CellRecord[];
      errors: readonly ErrorRecord[];
      notes?: readonly NoteRecord[];
      usage: Usage;
    };
  };
  settings: SettingsSnapshot;
  version: string;
  mode: string;
  now: number;
  /** The stored key, redacted wherever it might appear (it should appear nowhere). */
  secrets: readonly (string | undefined)[];
}

/** The "Export diagnostics" file: JSON, the key masked in settings and redacted everywhere else. */
export function exportDiagnostics(input: ExportInput): string {
  const { cells, errors, notes, usage } = input.diagnostics.export();
  const document = {
    exportedAt: formatInstant(input.now),
    addIn: { version: input.version, build: input.mode },
    settings: {
      baseUrl: input.settings.baseUrl,
      rateLimitPerMinute: input.settings.rateLimitPerMinute,
      apiKey: input.settings.hasKey ? input.settings.maskedKey : "(none)",
      usingDefaultKey: input.settings.usingDefaultKey,
    },
    usage,
    recentErrors: errors,
    savedCacheNotes: notes ?? [],
    cells,
  };
  return redact(JSON.stringify(document, null, 2), input.secrets);
}
