/**
 * The gateway's clock and timers, injected everywhere (tests drive them; no real sleep in the gateway's unit
 * tests). `repeat` is the one periodic task there is: a chain of timeouts on the injected timers, not a real
 * setInterval, and, on real timers, one that does not keep the process alive.
 */
import { createSleep, realTimers, type Sleep, type Timers } from "../client";

export interface GatewayClock {
  readonly now: () => number;
  readonly timers: Timers;
  readonly sleep: Sleep;
}

export function gatewayClock(now?: () => number, timers?: Timers): GatewayClock {
  const t = timers ?? realTimers;
  return { now: now ?? Date.now, timers: t, sleep: createSleep(t) };
}

/** Lets a real timer not hold the process open (fake timers have no such method). */
function unref(handle: unknown): void {
  (handle as { unref?: () => void } | undefined)?.unref?.();
}

/** Runs `task` every `ms` until the returned function is called; a task never overlaps itself. */
export function repeat(timers: Timers, ms: number, task: () => unknown): () => void {
  let handle: unknown;
  let stopped = false;
  const schedule = (): void => {
    if (stopped) return;
    handle = timers.setTimeout(() => {
      void Promise.resolve()
        .then(task)
        .catch(() => undefined)
        .finally(schedule);
    }, ms);
    unref(handle);
  };
  schedule();
  return () => {
    stopped = true;
    timers.clearTimeout(handle);
  };
}
