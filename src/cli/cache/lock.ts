/**
 * Mutual exclusion between processes sharing the cache directory, with proper-lockfile (a lock directory
 * created atomically, refreshed while held, taken over when its holder died: STALE_MS). Locks are held for
 * a file read and write at most: a few milliseconds.
 *
 * Within one process, turns on one lock are queued here first, in the order asked, and only the turn at the
 * head asks for the lock directory. Without the queue a process's own turns (its rate-limit claims and the
 * reports of its answers) found the directory taken by each other and fell into proper-lockfile's retry
 * pauses, growing to 200 ms: traced in the 10-CLI-runs bench, single waits of 120–200 ms in runs that had the
 * directory to themselves. A turn waits in the queue no longer than it would for another process's lock.
 */
import { basename } from "path";
import { lock } from "proper-lockfile";
import { createLogger, realTimers, type Timers } from "../../client";

const log = createLogger("rate-limiter");

/**
 * When a lock is taken as its holder's leftover: its directory's time is refreshed every UPDATE_MS while a
 * living process holds it, so one this old belongs to a process that died holding it (killed during the few
 * milliseconds it holds it). 5 s: twice the refresh and more, where a loaded machine still refreshes, and
 * half of proper-lockfile's default (10 s), which is what such a death cost the next run before.
 */
export const STALE_MS = 5_000;
const UPDATE_MS = 1_000;

/**
 * How long a caller may wait for the lock: retries with a growing pause (5 ms to 200 ms, each up to twice
 * as long at random), at least 7.1 s in all, so that a lock left by a dead process (stale after STALE_MS)
 * is always taken over before the caller gives up. Before, the retries (about 6 s) ended before the stale
 * time (10 s): the run behind a killed one waited 10 s and still dropped the shared record of requests.
 */
export const RETRIES = {
  retries: 52,
  factor: 1.2,
  minTimeout: 5,
  maxTimeout: 200,
  randomize: true,
};

/** The least time the retries above take in all (every pause at its shortest). */
export function leastRetryMs(retries: typeof RETRIES = RETRIES): number {
  let total = 0;
  for (let k = 0; k < retries.retries; k++)
    total += Math.min(retries.minTimeout * retries.factor ** k, retries.maxTimeout);
  return total;
}

/**
 * How long a turn waits behind this process's earlier ones before it gives up (as it would give up on another
 * process's lock): longer than an earlier turn waits for a dead process's lock (STALE_MS and a pause), and
 * not for ever (a turn
 * that does not end, a hung disk, must not hold up the rate limiter for good).
 */
export const QUEUE_WAIT_MS = 12_000;

interface LockOptions {
  /** For tests; the real timers by default. */
  timers?: Timers;
}

/** The last turn queued on each lock path in this process (removed once it is the last and has ended). */
const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `work` while holding the lock `lockPath` (a directory that must not otherwise exist). Rejects with an
 * error of code ELOCKED when the lock stays taken (proper-lockfile's retries, or QUEUE_WAIT_MS in the queue).
 */
export function withLock<T>(
  lockPath: string,
  work: () => Promise<T>,
  options: LockOptions = {}
): Promise<T> {
  const before = queues.get(lockPath);
  const turn = (
    before ? waitFor(before, lockPath, options.timers ?? realTimers) : Promise.resolve()
  ).then(() => holdingLock(lockPath, work));
  queues.set(lockPath, turn);
  const forget = (): void => {
    if (queues.get(lockPath) === turn) queues.delete(lockPath);
  };
  void turn.then(forget, forget);
  return turn;
}

/** Resolves when `before` has ended, however it ended; rejects after QUEUE_WAIT_MS. */
function waitFor(before: Promise<unknown>, lockPath: string, timers: Timers): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = timers.setTimeout(() => {
      const error = new Error(
        `${basename(lockPath)} is held by a turn of this process that has not ended in ${QUEUE_WAIT_MS / 1000} s`
      );
      reject(Object.assign(error, { code: "ELOCKED" }));
    }, QUEUE_WAIT_MS);
    const ended = (): void => {
      timers.clearTimeout(timer);
      resolve();
    };
    before.then(ended, ended);
  });
}

/** A wait for another process's lock this long is said (on stderr through the log): 2 s, as a budget wait is. */
const SAY_WAIT_MS = 2_000;

async function holdingLock<T>(lockPath: string, work: () => Promise<T>): Promise<T> {
  // The lock guards the shared record of request starts: a run that died holding it makes the next one wait
  // until it is stale (STALE_MS). Such a wait is said as what it is, a wait for the request budget, never left
  // unexplained.
  const say = setTimeout(
    () =>
      log.warn(
        `waiting ${Math.ceil(STALE_MS / 1000)} s for the request budget: its shared record is locked by a run ` +
          "that stopped; the lock is taken over once stale"
      ),
    SAY_WAIT_MS
  );
  const release = await lock(lockPath, {
    lockfilePath: lockPath,
    realpath: false,
    stale: STALE_MS,
    update: UPDATE_MS,
    retries: RETRIES,
    // Work under this lock is short; a compromised lock (its directory removed by hand) is not worth a crash.
    onCompromised: () => undefined,
  }).finally(() => clearTimeout(say));
  try {
    return await work();
  } finally {
    await release().catch(() => undefined);
  }
}
