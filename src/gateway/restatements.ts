/**
 * A lane's record of restatements: the engine's RestatementLedger (src/engine/ledger) over the team's Redis
 * (store/restatements.ts: one list per day, shared by every process) or, without Redis, this process's memory.
 * Its namespace is the lane's store (the service address and a hash of its service key, never the key): a
 * person's own key's answers are recorded in their lane's record, the team key's in the team's, and a caller
 * reads the record of the lane serving them. Lines are sealed with an HMAC under a secret derived from the
 * team's key (integrity.ts): a line written into Redis by anyone else is refused with its whole day.
 *
 * Reading (the restatements route): the record as loaded is kept, and loaded again when the day index in the
 * store says another process has appended since (one HGETALL per read), so a change process A recorded is
 * listed by process B at once. A read returns at most MAX_CHANGES_PER_READ changes, newest first.
 */
import type { Cluster, Redis } from "ioredis";
import {
  MemoryLedgerStore,
  RestatementLedger,
  hmacSeal,
  type Change,
  type ChangeFilter,
  type LedgerStore,
} from "../engine";
import { RedisLedgerStore } from "./store/restatements";

/**
 * Changes one read of the record returns at most: about 2.5 MB of JSON, within what the add-in reads of one
 * answer (its response bound) and far more than a table a person reads (CHANGES shows 10,000 rows at most).
 */
const MAX_CHANGES_PER_READ = 10_000;

interface TeamRecordOptions {
  /** The lane's store namespace (lanes.ts's store hash). */
  namespace: string;
  /** The team's Redis connection; undefined: this process's memory. */
  redis?: Redis | Cluster;
  /** The key prefix in Redis (store/keys.ts's PREFIX). */
  prefix: string;
  secret: Uint8Array<ArrayBuffer>;
  now: () => number;
  log: (level: "info" | "warn", fields: Record<string, unknown>, message: string) => void;
}

interface RecordRead {
  changes: Change[];
  /** More changes matched than one read returns (the oldest were left out). */
  truncated: boolean;
  /** Changes seen before this instant are no longer kept (-Infinity: none was dropped). */
  keptSince: number;
}

export class TeamRecord {
  readonly ledger: RestatementLedger;
  private readonly store: LedgerStore;
  /** The day index the loaded view was read under ("" not loaded). */
  private loadedUnder = "";

  constructor(private readonly options: TeamRecordOptions) {
    this.store = options.redis
      ? new RedisLedgerStore(options.redis, options.prefix)
      : new MemoryLedgerStore();
    this.ledger = new RestatementLedger({
      store: this.store,
      namespace: async () => options.namespace,
      now: options.now,
      seal: hmacSeal(options.secret),
      onNote: (note) => options.log("warn", { record: "restatements" }, note),
    });
  }

  /** Where the record lives, for people. */
  get location(): string {
    return this.store.location;
  }

  record(changes: readonly Change[]): Promise<void> {
    return this.ledger.record(changes);
  }

  /** The changes seen at or after `since` of the filter's projects and metrics, newest first, bounded. */
  async since(since: number, filter: ChangeFilter): Promise<RecordRead> {
    await this.ledger.flush();
    let index = "";
    try {
      index = JSON.stringify(await this.store.segments(this.options.namespace));
    } catch {
      // Unreadable: the view is loaded again (and says why it could not be).
    }
    if (index === "" || index !== this.loadedUnder) this.ledger.reload();
    const view = await this.ledger.view();
    this.loadedUnder = index;
    const all = view.since(since, filter);
    return {
      changes: all.slice(0, MAX_CHANGES_PER_READ),
      truncated: all.length > MAX_CHANGES_PER_READ,
      keptSince: view.keptSince,
    };
  }
}
