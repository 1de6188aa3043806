/**
 * How an invocation uses the cache directory: where it is, whether answers are read and saved there, its
 * bound, and (for benchmarks and tests only) how much faster than the service's minute the rate limit runs.
 */
import { UsageError } from "../errors";
import { defaultCacheDir, type CacheEnv } from "./cache-dir";
import { DEFAULT_MAX_BYTES } from "./file-store";

export interface CacheSettings {
  dir: string;
  /** false with --no-cache: nothing read or saved (the shared rate budget still lives in `dir`). */
  saved: boolean;
  maxBytes: number;
  /**
   * $CRYPTOMETRICS_TIME_SCALE, development only: the rate-limit window and the retry delays run this many
   * times faster, for a simulator started with a window as much shorter. 1 against the real service.
   */
  timeScale: number;
}

function positive(name: string, text: string, min: number): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n < min)
    throw new UsageError("usage", `${name} must be a number of at least ${min}, got '${text}'`);
  return n;
}

export function cacheSettings(
  env: CacheEnv,
  flags: { cacheDir?: string; noCache?: boolean }
): CacheSettings {
  const mb = env.CRYPTOMETRICS_CACHE_MAX_MB;
  const scale = env.CRYPTOMETRICS_TIME_SCALE;
  return {
    dir: flags.cacheDir ?? defaultCacheDir(env),
    saved: !flags.noCache,
    maxBytes: mb
      ? Math.round(positive("CRYPTOMETRICS_CACHE_MAX_MB", mb, 1) * 1_000_000)
      : DEFAULT_MAX_BYTES,
    timeScale: scale ? positive("CRYPTOMETRICS_TIME_SCALE", scale, 1) : 1,
  };
}
