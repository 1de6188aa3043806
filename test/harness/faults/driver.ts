/**
 * Runs work to completion on virtual time: lets real I/O finish, then fires the next virtual timer, and so
 * on until the work settles. When nothing is on the wire and no timer is pending but the work has not
 * settled, nothing can ever settle it: in Excel that is a cell on #BUSY! for good, and here it is an error.
 */
import type { FakeClock } from "../../support/clock";
import type { TrackedFetch } from "./tracked-fetch";

export class StuckError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StuckError";
  }
}

export interface DriverLimits {
  /** Virtual ms after which the run is abandoned (a guarantee is broken long before). Default one hour. */
  virtualMs?: number;
  /** Real ms after which the run is abandoned (the machine is stuck on real I/O). Default 120 s. */
  realMs?: number;
}

interface Clocked {
  time: FakeClock;
  io: TrackedFetch;
}

/** Real 1 ms turns an idle run waits for the thread pool before it is called stuck (about 20 ms). */
const THREAD_POOL_GRACE_TURNS = 20;

function macrotask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function realPause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Settles `work` by driving virtual time; rejects with StuckError when it never could settle. */
export async function drive<T>(
  env: Clocked,
  work: Promise<T>,
  limits: DriverLimits = {}
): Promise<T> {
  let done = false;
  const watched = work.then(
    (value) => {
      done = true;
      return value;
    },
    (error: unknown) => {
      done = true;
      throw error;
    }
  );
  // The caller awaits `watched`; keep an early rejection from being reported as unhandled meanwhile.
  watched.catch(() => undefined);
  const virtualLimit = env.time.now() + (limits.virtualMs ?? 3_600_000);
  const realLimit = Date.now() + (limits.realMs ?? 120_000);
  while (!done) {
    await macrotask();
    if (done) break;
    if (env.io.blocking() > 0) {
      if (Date.now() > realLimit) throw new StuckError("real I/O did not finish in time");
      await realPause(1);
      continue;
    }
    // Twice idle in a row: every promise chain the last I/O or timer started has run its course.
    await macrotask();
    if (done || env.io.blocking() > 0) continue;
    let due = env.time.nextDue();
    // Work on the thread pool (Web Crypto's digests: the ledger's namespace, a seal) is neither on the wire
    // nor a timer: a few real milliseconds let it finish before the work is called stuck.
    for (let i = 0; i < THREAD_POOL_GRACE_TURNS && due === undefined && !done; i++) {
      await realPause(1);
      await macrotask();
      if (env.io.blocking() > 0) break;
      due = env.time.nextDue();
    }
    if (done || env.io.blocking() > 0) continue;
    if (due === undefined) {
      throw new StuckError(
        "the work never settles: nothing is on the wire and no timer is pending (a cell stuck on #BUSY!)"
      );
    }
    if (due > virtualLimit) {
      throw new StuckError(`the work did not settle within ${limits.virtualMs ?? 3_600_000} ms`);
    }
    env.time.fireNext();
  }
  return watched;
}

/** Lets whatever is due now (and real I/O in progress) run, without requiring any work to settle. */
export async function idle(env: Clocked): Promise<void> {
  for (;;) {
    await macrotask();
    if (env.io.blocking() > 0) {
      await realPause(1);
      continue;
    }
    await macrotask();
    if (env.io.blocking() > 0) continue;
    const due = env.time.nextDue();
    if (due === undefined || due > env.time.now()) return;
    env.time.fireNext();
  }
}
