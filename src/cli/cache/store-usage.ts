/**
 * The cache directory's running total (`<cache dir>/usage.json`), so that a write does not have to list and
 * stat every entry to know whether the bound is passed. Measured before it: the whole-directory scan on every
 * write cost 0.1–0.2 s with 2,000 entries and 1.2–1.7 s with 20,000 (a CLI run saves about 200 answers of
 * 1.6 kB on average, so a full 50 MB cache holds some 30,000), on every run.
 *
 * The total is an upper bound, never less than what the entries hold, as long as every writer adds its batch
 * before writing it (`reserve`, under the store's lock; entries put there by other means, a copied cache or an
 * older build of the CLI, are counted at the next hourly listing at the latest): replaced and deleted entries are not subtracted, so it
 * only drifts upwards. A scan (when the total passes the bound, when the record is missing or unreadable, and
 * at least hourly, which also clears temporary files left by crashes) sets it back to what was found, plus the
 * batches reserved in the last minute (`rebase`): another process may be writing one at that moment, partly
 * on disk and partly not yet; counting it whole errs high, which is the safe side. The record holds sizes and
 * times, nothing else.
 */
import { readNoFollow, writeNoFollow } from "./safe-fs";

const VERSION = 1;

/**
 * How long a reserved batch is counted on top of a scan: far past the time a batch takes to write (well under
 * a second for a run's answers; the CLI gives its saving 10 s before it exits anyway).
 */
export const RESERVATION_MS = 60_000;

/** A whole scan at least this often: temporary files a crash left are removed after an hour (file-store.ts). */
export const SCAN_EVERY_MS = 60 * 60_000;

export interface Reservation {
  id: string;
  at: number;
  bytes: number;
}

export interface UsageRecord {
  /** An upper bound of the entries' total size, in bytes. */
  bytes: number;
  /** When the entries were last listed and counted. */
  scannedAt: number;
  /** Batches reserved within RESERVATION_MS, oldest first. */
  recent: Reservation[];
}

const finite = (n: unknown): n is number => typeof n === "number" && Number.isFinite(n);

/** The record in the text, or undefined when it is not one of this version (a scan then rebuilds it). */
export function parseUsage(text: string): UsageRecord | undefined {
  try {
    const json = JSON.parse(text) as Partial<Record<keyof UsageRecord | "version", unknown>>;
    if (json.version !== VERSION || !finite(json.bytes) || json.bytes < 0) return undefined;
    if (!finite(json.scannedAt) || !Array.isArray(json.recent)) return undefined;
    const recent: Reservation[] = [];
    for (const r of json.recent as unknown[]) {
      const { id, at, bytes } = (r ?? {}) as Partial<Record<keyof Reservation, unknown>>;
      if (typeof id !== "string" || !finite(at) || !finite(bytes) || bytes < 0) return undefined;
      recent.push({ id, at, bytes });
    }
    return { bytes: json.bytes, scannedAt: json.scannedAt, recent };
  } catch {
    return undefined;
  }
}

/** A record holds a few sizes and times: anything larger is not one (and is not read). */
const MAX_RECORD_BYTES = 64 * 1024;

/** The record, or undefined when it is missing, a link, or not readable as one. */
export async function readUsage(file: string): Promise<UsageRecord | undefined> {
  const read = await readNoFollow(file, MAX_RECORD_BYTES);
  return read && "text" in read ? parseUsage(read.text) : undefined;
}

/** Replaces the record (a link in its place is replaced, never written through). */
export function writeUsage(file: string, record: UsageRecord): Promise<void> {
  return writeNoFollow(file, JSON.stringify({ version: VERSION, ...record }));
}

/**
 * Adds a batch about to be written; says whether the entries must be scanned once it is (no record to trust,
 * the total past `maxBytes`, or the last scan too old). Returns the record to write back.
 */
export function reserve(
  record: UsageRecord | undefined,
  batch: Reservation,
  maxBytes: number
): { record: UsageRecord; scan: boolean } {
  const now = batch.at;
  // No record to trust: scan. Until a scan has been made, the record says none was (0: the epoch), so that a
  // scan that fails leaves the next write to scan again.
  if (!record) return { record: { bytes: batch.bytes, scannedAt: 0, recent: [batch] }, scan: true };
  const recent = [...record.recent.filter((r) => r.at > now - RESERVATION_MS), batch];
  const bytes = record.bytes + batch.bytes;
  const scan = bytes > maxBytes || now - record.scannedAt >= SCAN_EVERY_MS;
  return { record: { bytes, scannedAt: record.scannedAt, recent }, scan };
}

/**
 * After a scan found `found` bytes at `now`: the new total is that plus the batches reserved in the last minute
 * other than `written` (those of this process, on disk and counted already).
 */
export function rebase(
  record: UsageRecord | undefined,
  found: number,
  now: number,
  written: ReadonlySet<string> = new Set()
): UsageRecord {
  const recent = (record?.recent ?? []).filter(
    (r) => r.at > now - RESERVATION_MS && !written.has(r.id)
  );
  return { bytes: found + recent.reduce((n, r) => n + r.bytes, 0), scannedAt: now, recent };
}
