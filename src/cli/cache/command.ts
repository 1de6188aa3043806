/**
 * `cryptometrics cache info` and `cache clear`: where the cache directory is, how much it holds against its
 * bound, and emptying it. Clearing removes the saved answers of every service and key, and the shared records
 * of request starts: the way out when a record holds the budget wrongly (a clock that was wrong, a run that
 * was killed before this version healed such records). Runs under way at that moment forget the starts of
 * the others; for at most a minute they may together send more than the budget.
 */
import { formatSize } from "../../runtime/cache-controls";
import type { CacheCommand } from "../flags";
import type { BlobStoreUsage } from "../../engine";

/** What the command needs of the cache directory's store (FileBlobStore). */
export interface CacheAdmin {
  readonly dir: string;
  usage(): Promise<BlobStoreUsage>;
  span(): Promise<{ oldest: number; newest: number } | undefined>;
  clear(): Promise<void>;
  /** Forgets the shared records of request starts; says how many there were. */
  clearBudget?(): Promise<number>;
}

function utc(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

function answers(n: number): string {
  return `${n.toLocaleString("en-US")} saved ${n === 1 ? "answer" : "answers"}`;
}

export async function runCacheCommand(command: CacheCommand, admin: CacheAdmin): Promise<string> {
  const usage = await admin.usage();
  if (command.action === "clear") {
    await admin.clear();
    const budgets = (await admin.clearBudget?.()) ?? 0;
    return command.format === "json"
      ? `${JSON.stringify({ directory: admin.dir, cleared: { entries: usage.entries, bytes: usage.bytes, budgets } })}\n`
      : `Cleared ${answers(usage.entries)} (${formatSize(usage.bytes)})${budgets > 0 ? " and the shared record of request starts" : ""} from ${admin.dir}.\n`;
  }
  const span = await admin.span();
  if (command.format === "json") {
    return `${JSON.stringify({
      directory: admin.dir,
      entries: usage.entries,
      bytes: usage.bytes,
      maxBytes: usage.maxBytes,
      oldestUse: span ? new Date(span.oldest).toISOString() : null,
      newestUse: span ? new Date(span.newest).toISOString() : null,
    })}\n`;
  }
  return [
    `Cache directory: ${admin.dir}`,
    `Holds ${answers(usage.entries)}, ${formatSize(usage.bytes)} of at most ${formatSize(usage.maxBytes)} (least recently used first out).`,
    span ? `Used from ${utc(span.oldest)} to ${utc(span.newest)}.` : "Empty.",
    "Catalogues are fresh for 24 hours, figures until the service's daily update (00:00 UTC); older answers are used only when the service cannot be reached (up to 7 days). `cryptometrics cache clear` empties it.",
    "",
  ].join("\n");
}
