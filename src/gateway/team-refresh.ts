/**
 * The team's morning refresh, done overnight: every request the team's lane served in the last days is asked
 * again once a day, after the service's daily update, so that the first refresh of a workbook in the morning is
 * all cache hits, and what the service restated overnight is found (and recorded) before anyone opens a model.
 *
 * - **What is refreshed:** the requests served on the team's key (never a person's own key: their budget is
 *   theirs), as they were asked (the route's path ids and query, checked again by the interface's own reading,
 *   ask.ts, when replayed: nothing but an operation of the interface is ever asked), used within
 *   REFRESH_USED_WITHIN_MS, newest first, at most MAX_REFRESH_REQUESTS in all and MAX_REFRESH_REQUESTS_PER_USER
 *   first asked by one person (one user filling the record pushes out only their own).
 * - **The record** is one entry in the lane's store (Redis for every process, or this process's memory), sealed
 *   with the cache's HMAC (an entry written by anyone else is no record), merged by compare-and-set: each process
 *   notes what it served in memory and merges it every REFRESH_FLUSH_MS (one write a minute, not one a request).
 * - **Once a day, by one process:** the first process to find the refresh due claims the day (compare-and-set on
 *   a second entry); the others see it claimed. A process that dies mid-refresh leaves the rest of that day's
 *   list to the callers (then misses, as without the refresh): the next day is claimed afresh.
 * - **Within the team's budget, behind the team:** the replays are served as one user of the fair queue
 *   (REFRESH_USER), REFRESH_CONCURRENCY at a time, so a person asking meanwhile is served next, never after the
 *   whole list; a replay the budget cannot fit within the hold is left for the callers.
 */
import type { Served } from "./answers";
import { parseAsk, type Ask } from "./ask";
import {
  MAX_REFRESH_REQUESTS,
  MAX_REFRESH_REQUESTS_PER_USER,
  MAX_REFRESH_REQUEST_CHARS,
  REFRESH_AFTER_UPDATE_MS,
  REFRESH_CHECK_MS,
  REFRESH_CONCURRENCY,
  REFRESH_FLUSH_MS,
  REFRESH_USED_WITHIN_MS,
} from "./bounds";
import { repeat, type GatewayClock } from "./clock";
import type { Integrity } from "./integrity";
import { OPERATIONS, type OperationSpec } from "./operations";
import { hashOf } from "./store/keys";
import type { Store } from "./store/store";
import { dayOf } from "./usage";
import { DEFAULT_CACHE_POLICY, nextDailyUpdate } from "../cache/policy";

/** Whose turn the replays take in the fair queue, and whose usage their upstream requests count as. */
export const REFRESH_USER = "gateway:daily-refresh";

const RECORD_KEY = "team-refresh\nused";
const CLAIM_KEY = "team-refresh\nday";
const DAY_MS = 86_400_000;
const RECORD_VERSION = 1;

/** One request the lane served, as asked (path ids and query), who first asked it (hashed) and when last. */
interface UsedRequest {
  /** The request's key (ask.ts: the same request written otherwise has the same key). */
  k: string;
  op: string;
  p: Record<string, string>;
  q: Record<string, string>;
  u: string;
  t: number;
}

interface RefreshReport {
  day: string;
  asked: number;
  fetched: number;
  fresh: number;
  failed: number;
}

interface TeamRefreshOptions {
  store: Store;
  integrity: Integrity;
  clock: GatewayClock;
  /** Serves one replayed request (the lane's answers, as REFRESH_USER). */
  serve: (ask: Ask) => Promise<Served>;
  processId: string;
  log?: (level: "info" | "warn", fields: Record<string, unknown>, message: string) => void;
  /** Tells of each finished refresh (tests, metrics). */
  onRefreshed?: (report: RefreshReport) => void;
}

const SPECS = new Map<string, OperationSpec>(OPERATIONS.map((s) => [s.op, s]));

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === "string")
  );
}

function isUsed(value: unknown): value is UsedRequest {
  const v = value as Partial<UsedRequest> | null;
  return (
    typeof v === "object" &&
    v !== null &&
    typeof v.k === "string" &&
    typeof v.op === "string" &&
    typeof v.u === "string" &&
    typeof v.t === "number" &&
    Number.isFinite(v.t) &&
    isStringRecord(v.p) &&
    isStringRecord(v.q)
  );
}

/** The record's requests, or none when it is not one (damaged, foreign, another version). */
function readRecord(text: string | undefined): UsedRequest[] {
  if (text === undefined) return [];
  try {
    const parsed = JSON.parse(text) as { v?: unknown; requests?: unknown };
    if (parsed.v !== RECORD_VERSION || !Array.isArray(parsed.requests)) return [];
    return parsed.requests.filter(isUsed).slice(0, MAX_REFRESH_REQUESTS);
  } catch {
    return [];
  }
}

/**
 * The record after `noted` came: each request once (its last use), used within the window, newest first, at
 * most MAX_REFRESH_REQUESTS_PER_USER first asked by one person and MAX_REFRESH_REQUESTS in all.
 */
export function mergeUsed(
  stored: readonly UsedRequest[],
  noted: readonly UsedRequest[],
  now: number
): UsedRequest[] {
  const byKey = new Map<string, UsedRequest>();
  for (const r of [...stored, ...noted]) {
    const held = byKey.get(r.k);
    // Who first asked it stays (a request's place in a person's share is not taken over by a later asker).
    if (!held) byKey.set(r.k, r);
    else if (r.t > held.t) byKey.set(r.k, { ...r, u: held.u });
  }
  const since = now - REFRESH_USED_WITHIN_MS;
  const perUser = new Map<string, number>();
  const kept: UsedRequest[] = [];
  for (const r of [...byKey.values()].filter((r) => r.t >= since).sort((a, b) => b.t - a.t)) {
    const n = perUser.get(r.u) ?? 0;
    if (n >= MAX_REFRESH_REQUESTS_PER_USER) continue;
    perUser.set(r.u, n + 1);
    kept.push(r);
    if (kept.length >= MAX_REFRESH_REQUESTS) break;
  }
  return kept;
}

export class TeamRefresh {
  /** Served since the last merge into the record, by request key (bounded like the record itself). */
  private readonly noted = new Map<string, UsedRequest>();
  private readonly stops: Array<() => void>;
  private running: Promise<RefreshReport | undefined> | undefined;
  private closed = false;

  constructor(private readonly options: TeamRefreshOptions) {
    const { timers } = options.clock;
    this.stops = [
      repeat(timers, REFRESH_FLUSH_MS, () => this.flush()),
      repeat(timers, REFRESH_CHECK_MS, () => this.runIfDue()),
    ];
  }

  /** A request the team's lane served: kept for tomorrow's refresh (the refresh's own replays are not). */
  note(
    ask: Ask,
    params: Readonly<Record<string, unknown>>,
    query: Readonly<Record<string, unknown>>,
    user: string
  ): void {
    if (this.closed || user === REFRESH_USER) return;
    if (!isStringRecord(params) || !isStringRecord(query)) return;
    if (JSON.stringify([params, query]).length > MAX_REFRESH_REQUEST_CHARS) return;
    if (!this.noted.has(ask.key) && this.noted.size >= MAX_REFRESH_REQUESTS) return;
    this.noted.set(ask.key, {
      k: ask.key,
      op: ask.spec.op,
      p: { ...params },
      q: { ...query },
      u: hashOf(`refresh\n${user}`, 16),
      t: this.options.clock.now(),
    });
  }

  /** Merges what was noted into the shared record (compare-and-set; a lost race reads again). */
  async flush(): Promise<void> {
    if (this.noted.size === 0) return;
    const noted = [...this.noted.values()];
    this.noted.clear();
    const { store, integrity, clock } = this.options;
    for (let attempt = 0; attempt < 5; attempt++) {
      const [stored] = await store.read([RECORD_KEY]);
      const now = clock.now();
      const merged = mergeUsed(readRecord(integrity.open(RECORD_KEY, stored?.text)), noted, now);
      const text = JSON.stringify({ v: RECORD_VERSION, requests: merged });
      if (
        await store.writeIf(
          RECORD_KEY,
          stored?.rev ?? 0,
          integrity.seal(RECORD_KEY, text),
          REFRESH_USED_WITHIN_MS + DAY_MS
        )
      )
        return;
    }
  }

  /** When today's refresh is due: a while after the service's daily update (see REFRESH_AFTER_UPDATE_MS). */
  dueAt(now: number): number {
    const next = nextDailyUpdate(now, DEFAULT_CACHE_POLICY.dailyUpdateUtcHour);
    return next - DAY_MS + REFRESH_AFTER_UPDATE_MS;
  }

  /** Runs today's refresh if it is due and no process has claimed it; what it did, or undefined. */
  runIfDue(): Promise<RefreshReport | undefined> {
    if (this.running) return this.running;
    this.running = this.tryRun().finally(() => (this.running = undefined));
    return this.running;
  }

  private async tryRun(): Promise<RefreshReport | undefined> {
    const now = this.options.clock.now();
    if (this.closed || now < this.dueAt(now)) return undefined;
    const day = dayOf(now);
    if (!(await this.claim(day))) return undefined;
    await this.flush();
    const [stored] = await this.options.store.read([RECORD_KEY]);
    const record = readRecord(this.options.integrity.open(RECORD_KEY, stored?.text)).filter(
      (r) => r.t >= now - REFRESH_USED_WITHIN_MS
    );
    const report: RefreshReport = { day, asked: 0, fetched: 0, fresh: 0, failed: 0 };
    const started = this.options.clock.now();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (!this.closed && next < record.length) {
        const used = record[next++];
        const spec = SPECS.get(used.op);
        if (!spec) continue;
        report.asked++;
        try {
          const served = await this.options.serve(parseAsk(spec, used.p, used.q));
          if (served.how === "fetched") report.fetched++;
          else if (served.how === "stale") report.failed++;
          else report.fresh++;
        } catch {
          report.failed++;
        }
      }
    };
    await Promise.all(Array.from({ length: REFRESH_CONCURRENCY }, worker));
    if (report.asked > 0)
      this.options.log?.(
        "info",
        { refresh: day, ...report, ms: this.options.clock.now() - started },
        `The team's daily refresh asked ${report.asked} requests the team used in the last days again: ${report.fetched} fetched, ${report.fresh} already fresh, ${report.failed} not answered (left to the callers)`
      );
    this.options.onRefreshed?.(report);
    return report;
  }

  /** Whether this process takes `day`'s refresh (the first to write the day into the claim). */
  private async claim(day: string): Promise<boolean> {
    const { store, integrity } = this.options;
    const [stored] = await store.read([CLAIM_KEY]);
    const held = integrity.open(CLAIM_KEY, stored?.text);
    if (held !== undefined && (JSON.parse(held) as { day?: unknown }).day === day) return false;
    const text = JSON.stringify({ day, owner: this.options.processId });
    return store.writeIf(CLAIM_KEY, stored?.rev ?? 0, integrity.seal(CLAIM_KEY, text), 2 * DAY_MS);
  }

  /** Stops its timers; what was noted is merged once more. */
  async close(): Promise<void> {
    if (this.closed) return;
    for (const stop of this.stops) stop();
    await this.flush().catch(() => undefined);
    this.closed = true;
  }
}
