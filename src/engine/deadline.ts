import type { Timers } from "../client";

/**
 * Settles with `work`, or rejects with `onTimeout()` after `ms`: a safety net under the client's own call
 * deadline, so no engine call can stay pending (a pending promise is a cell stuck on #BUSY!).
 */
export function withDeadline<T>(
  work: Promise<T>,
  ms: number,
  timers: Timers,
  onTimeout: () => Error
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = timers.setTimeout(() => reject(onTimeout()), ms);
    work.then(
      (v) => {
        timers.clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        timers.clearTimeout(timer);
        reject(e);
      }
    );
  });
}
