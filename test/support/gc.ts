/**
 * V8's forced garbage collection, for tests that read the heap (the soak): what `node --expose-gc` gives
 * `globalThis.gc`, obtained without the flag (jest's workers are started without it): the flag is set on the
 * running VM and a fresh context made after it has the function. Only the files that ask get it, so no other
 * test (a benchmark that forces GC when it can) changes behaviour.
 */
import { setFlagsFromString } from "v8";
import { runInNewContext } from "vm";

export function forcedGc(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}
