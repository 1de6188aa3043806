/**
 * The fetches waiting for the service, per service key, in turns between the people of a team: one queue per
 * user, served one request each in turn (weighted fair queueing with equal weights: round robin over the users
 * who are waiting). A user who was not waiting joins the round next in line, so an idle user's first need is
 * served next, whatever the others have queued; a greedy user only ever takes their turn. The sum of the shares is
 * the budget, whatever the number of users waiting (no per-user quota to add up past it).
 *
 * Bounded: a user may have MAX_QUEUED_NEEDS_PER_USER needs waiting (past it, 429 with Retry-After, nothing
 * queued); a demand nobody waits for any more is dropped (at once when its callers hung up, after
 * UNWAITED_DEMAND_TTL_MS when they were answered "try again" and may come back for it).
 *
 * A demand is one caller's request's missing needs. The same request asked again by the same user joins it; when
 * its turn comes, demands of other users of the same group (one upstream request's form, path, options and days)
 * ride along in the same request, up to what one request holds: they cost nothing more.
 */
import {
  MAX_QUEUED_NEEDS_PER_USER,
  QUEUE_FULL_RETRY_AFTER_S,
  UNWAITED_DEMAND_TTL_MS,
} from "./bounds";
import { GatewayError } from "./errors";

export interface DemandResult {
  /** Whether an upstream request was sent for it (false: nothing was left to fetch). */
  fetched: boolean;
}

export interface Demand<T> {
  readonly id: number;
  /** Whose turn it takes (a person: one whether they come with a token or a sign-in). */
  readonly user: string;
  /** The caller's request, as an identity: the same request of the same user joins this demand. */
  readonly key: string;
  /** Demands of one group can be sent as one upstream request. */
  readonly group: string;
  /** Needs it counts against its user's bound. */
  readonly size: number;
  readonly payload: T;
  /** Callers waiting for it now. */
  waiters: number;
  /** When the last waiter left (0 while someone waits). */
  idleSince: number;
  dispatched: boolean;
  /** How it ended, set the moment it does (whatever woke a waiter first). */
  outcome?: { result: DemandResult } | { error: unknown };
  readonly settled: Promise<DemandResult>;
  resolve(result: DemandResult): void;
  reject(error: unknown): void;
}

export interface Ticket<T> {
  readonly demand: Demand<T>;
  /** The caller stops waiting: `hungUp` when they are gone (the demand goes at once if nobody else waits). */
  leave(hungUp: boolean): void;
}

interface FairQueueOptions {
  now: () => number;
  maxNeedsPerUser?: number;
  unwaitedTtlMs?: number;
  /** Told when something was queued (the dispatcher wakes). */
  onQueued?: () => void;
}

export class FairQueue<T> {
  private readonly queues = new Map<string, Array<Demand<T>>>();
  /** Users in turn order; the next turn starts at `cursor`. */
  private order: string[] = [];
  private cursor = 0;
  /** Users who joined since their last turn, not served yet: they stand at the cursor, in the order they came. */
  private readonly fresh = new Set<string>();
  private sequence = 0;
  private readonly maxNeeds: number;
  private readonly unwaitedTtlMs: number;

  constructor(private readonly options: FairQueueOptions) {
    this.maxNeeds = options.maxNeedsPerUser ?? MAX_QUEUED_NEEDS_PER_USER;
    this.unwaitedTtlMs = options.unwaitedTtlMs ?? UNWAITED_DEMAND_TTL_MS;
  }

  /** Demands waiting for their turn. */
  get queued(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }

  /** Needs waiting, by user (tests and the queue-depth gauge). */
  needsOf(user: string): number {
    return (this.queues.get(user) ?? []).reduce((n, d) => n + d.size, 0);
  }

  /**
   * Waits for the user's demand `key` (joining it when queued already), or queues a new one. Throws 429 when that
   * would take the user past their bound.
   */
  join(user: string, key: string, group: string, size: number, payload: () => T): Ticket<T> {
    this.prune();
    let queue = this.queues.get(user);
    let demand = queue?.find((d) => d.key === key);
    if (!demand) {
      const waiting = this.needsOf(user);
      if (waiting + size > this.maxNeeds)
        throw new GatewayError(
          429,
          `You have ${waiting} needs waiting for the service on this team gateway (at most ${this.maxNeeds} at once): wait for them, then ask for more`,
          QUEUE_FULL_RETRY_AFTER_S
        );
      demand = this.make(user, key, group, size, payload());
      if (!queue) this.queues.set(user, (queue = []));
      if (!this.order.includes(user)) {
        // Next in line: after the turn under way and the newcomers before them, before everyone already waiting.
        this.cursor = Math.min(this.cursor, this.order.length);
        let at = this.cursor;
        while (at < this.order.length && this.fresh.has(this.order[at])) at++;
        this.order.splice(at, 0, user);
        this.fresh.add(user);
      }
      queue.push(demand);
      this.options.onQueued?.();
    }
    const joined = demand;
    joined.waiters++;
    joined.idleSince = 0;
    let left = false;
    return {
      demand: joined,
      leave: (hungUp) => {
        if (left) return;
        left = true;
        joined.waiters--;
        if (joined.waiters > 0 || joined.dispatched) return;
        joined.idleSince = this.options.now();
        if (hungUp) this.drop(joined);
      },
    };
  }

  private make(user: string, key: string, group: string, size: number, payload: T): Demand<T> {
    let resolve!: (r: DemandResult) => void;
    let reject!: (e: unknown) => void;
    const settled = new Promise<DemandResult>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // A demand dropped or failed with nobody waiting must not be an unhandled rejection.
    settled.catch(() => undefined);
    const demand: Demand<T> = {
      id: ++this.sequence,
      user,
      key,
      group,
      size,
      payload,
      waiters: 0,
      idleSince: 0,
      dispatched: false,
      settled,
      resolve: (result) => {
        demand.outcome ??= { result };
        resolve(result);
      },
      reject: (error) => {
        demand.outcome ??= { error };
        reject(error);
      },
    };
    return demand;
  }

  /**
   * The next demand by turn, with the other queued demands of its group (any user's) that `fits` takes along;
   * undefined when nothing waits. Taken demands leave the queue (marked dispatched).
   */
  next(
    fits: (batch: ReadonlyArray<Demand<T>>, candidate: Demand<T>) => boolean = () => false
  ): Array<Demand<T>> | undefined {
    this.prune();
    const user = this.nextUser();
    if (user === undefined) return undefined;
    const queue = this.queues.get(user) as Array<Demand<T>>;
    const first = queue.shift() as Demand<T>;
    const batch = [first];
    for (const q of this.queues.values())
      for (const candidate of [...q]) {
        if (candidate.group !== first.group || !fits(batch, candidate)) continue;
        batch.push(candidate);
        q.splice(q.indexOf(candidate), 1);
      }
    for (const d of batch) d.dispatched = true;
    return batch;
  }

  /** Every demand still queued is rejected (the gateway stops). */
  clear(error: unknown): void {
    for (const q of this.queues.values()) for (const d of q.splice(0)) d.reject(error);
    this.queues.clear();
    this.order = [];
    this.cursor = 0;
    this.fresh.clear();
  }

  private nextUser(): string | undefined {
    while (this.order.length > 0) {
      const index = this.cursor % this.order.length;
      const user = this.order[index];
      if ((this.queues.get(user)?.length ?? 0) === 0) {
        // Their turn came with nothing waiting: they leave the round.
        this.queues.delete(user);
        this.fresh.delete(user);
        this.order.splice(index, 1);
        if (index < this.cursor) this.cursor--;
        if (this.order.length === 0) this.cursor = 0;
        continue;
      }
      this.cursor = index + 1;
      this.fresh.delete(user);
      return user;
    }
    return undefined;
  }

  /** Drops demands nobody has waited for since UNWAITED_DEMAND_TTL_MS (their callers gone). */
  private prune(): void {
    const limit = this.options.now() - this.unwaitedTtlMs;
    for (const q of this.queues.values())
      for (const d of [...q])
        if (d.waiters === 0 && d.idleSince > 0 && d.idleSince <= limit) this.drop(d);
  }

  private drop(demand: Demand<T>): void {
    const q = this.queues.get(demand.user);
    const at = q?.indexOf(demand) ?? -1;
    if (q && at >= 0) q.splice(at, 1);
    demand.resolve({ fetched: false });
  }
}
