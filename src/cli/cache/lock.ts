/**
 * Mutual exclusion between processes sharing the cache directory, with proper-lockfile (a lock directory
 * created atomically, refreshed while held, taken over when its holder died). Locks are held for a file
 * read and write at most: a few milliseconds.
 *
 * Within one process, turns on one lock are queued here first, in the order asked, and only the turn at the
 * head asks for the lock directory. Without the queue a process's own turns (its rate-limit claims and the
 * reports of its answers) found the directory taken by each other and fell into proper-lockfile's retry
 * pauses, growing to 200 ms: traced in the 10-CLI-runs bench, single waits of 120–200 ms in runs that had the
 * directory to themselves.
 */
import { lock } from "proper-lockfile";

/**
 * How long a caller may wait for the lock: retries with a growing pause, about 6 s in all. A lock held longer
 * than that belongs to a process that is stuck; proper-lockfile declares it stale after 10 s (its default,
 * refreshed every 5 s while a living process holds it).
 */
const RETRIES = { retries: 60, factor: 1.2, minTimeout: 5, maxTimeout: 200, randomize: true };

/** The last turn queued on each lock path in this process (removed once it is the last and has ended). */
const queues = new Map<string, Promise<unknown>>();

/** Runs `work` while holding the lock `lockPath` (a directory that must not otherwise exist). */
export function withLock<T>(lockPath: string, work: () => Promise<T>): Promise<T> {
  const before = queues.get(lockPath) ?? Promise.resolve();
  // A turn that failed does not hold up the next one: it only had to end.
  const turn = before.catch(() => undefined).then(() => holdingLock(lockPath, work));
  queues.set(lockPath, turn);
  const forget = (): void => {
    if (queues.get(lockPath) === turn) queues.delete(lockPath);
  };
  void turn.then(forget, forget);
  return turn;
}

async function holdingLock<T>(lockPath: string, work: () => Promise<T>): Promise<T> {
  const release = await lock(lockPath, {
    lockfilePath: lockPath,
    realpath: false,
    retries: RETRIES,
    // Work under this lock is short; a compromised lock (its directory removed by hand) is not worth a crash.
    onCompromised: () => undefined,
  });
  try {
    return await work();
  } finally {
    await release().catch(() => undefined);
  }
}
