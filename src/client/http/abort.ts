/**
 * Time and cancellation primitives, injectable so tests capture timers instead of sleeping. Works the
 * same in Node and in Excel's browser runtime (no AbortSignal.any/timeout, which older hosts lack).
 */

/** Waits `ms`; rejects with the signal's reason as soon as the signal aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The timer API the client schedules time-outs and deadlines with. */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new Error("aborted");
}

/** A Sleep built on the given timers; the timer is cleared when the signal aborts. */
export function createSleep(timers: Timers = realTimers): Sleep {
  return (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortReason(signal));
        return;
      }
      const onAbort = (): void => {
        timers.clearTimeout(handle);
        reject(abortReason(signal as AbortSignal));
      };
      const handle = timers.setTimeout(
        () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
        Math.max(0, ms)
      );
      signal?.addEventListener("abort", onAbort, { once: true });
    });
}

/**
 * How long a client's calls may run: once ended, every call in flight is aborted with the reason and every
 * later one at once (a runtime replaced by new settings ends its clients this way). One object for all the
 * clients of a runtime and all their calls: no listener is added to a shared AbortSignal per call (Node
 * warns past ten on one EventTarget).
 */
export class ClientLifetime {
  private ended?: { reason: unknown };
  private readonly watchers = new Set<(reason: unknown) => void>();

  end(reason?: unknown): void {
    if (this.ended) return;
    this.ended = { reason: reason ?? new Error("the client's lifetime ended") };
    const watchers = [...this.watchers];
    this.watchers.clear();
    for (const watcher of watchers) watcher(this.ended.reason);
  }

  get isOver(): boolean {
    return this.ended !== undefined;
  }

  /** Calls `end` with the reason when the lifetime ends (at once if it has); returns how to stop watching. */
  watch(end: (reason: unknown) => void): () => void {
    if (this.ended) {
      end(this.ended.reason);
      return () => undefined;
    }
    this.watchers.add(end);
    return () => void this.watchers.delete(end);
  }
}

interface LinkedSignal {
  readonly signal: AbortSignal;
  /** Abort this link only (not its parents). */
  abort(reason?: unknown): void;
  /** Stop listening to the parents; call when the work is over. */
  dispose(): void;
}

/** A signal that aborts when any parent does, or when aborted itself. */
export function linkSignals(...parents: (AbortSignal | undefined)[]): LinkedSignal {
  const controller = new AbortController();
  const cleanups: (() => void)[] = [];
  for (const parent of parents) {
    if (!parent) continue;
    if (parent.aborted) {
      controller.abort(abortReason(parent));
      break;
    }
    const onAbort = (): void => controller.abort(abortReason(parent));
    parent.addEventListener("abort", onAbort, { once: true });
    cleanups.push(() => parent.removeEventListener("abort", onAbort));
  }
  return {
    signal: controller.signal,
    abort: (reason) => controller.abort(reason),
    dispose: () => cleanups.splice(0).forEach((fn) => fn()),
  };
}

/**
 * Settles with the promise, or rejects with the signal's reason when it aborts first: a fetch
 * implementation that ignores its signal still cannot keep a call from settling.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(abortReason(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      promise.catch(() => undefined);
      reject(abortReason(signal));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      }
    );
  });
}
