/**
 * Mutual exclusion between processes sharing the cache directory, with proper-lockfile (a lock directory
 * created atomically, refreshed while held, taken over when its holder died). Locks are held for a file
 * read and write at most: a few milliseconds.
 */
import { lock } from "proper-lockfile";

/**
 * How long a caller may wait for the lock: retries with a growing pause, about 6 s in all. A lock held longer
 * than that belongs to a process that is stuck; proper-lockfile declares it stale after 10 s (its default,
 * refreshed every 5 s while a living process holds it).
 */
const RETRIES = { retries: 60, factor: 1.2, minTimeout: 5, maxTimeout: 200, randomize: true };

/** Runs `work` while holding the lock `lockPath` (a directory that must not otherwise exist). */
export async function withLock<T>(lockPath: string, work: () => Promise<T>): Promise<T> {
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
