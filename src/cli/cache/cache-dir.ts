/**
 * Where the CLI keeps its cache: `--cache-dir`, else $CRYPTOMETRICS_CACHE_DIR, else the XDG base directory
 * for caches ($XDG_CACHE_HOME, default ~/.cache) + `cryptometrics`; on Windows %LOCALAPPDATA%\cryptometrics.
 *
 * Layout: `entries/` (one file per saved answer, named by a hash), `usage.json` (their running total, see
 * store-usage.ts), `rate/` (the shared record of request starts, one file per service and key), `store.lock`
 * while the total is updated or entries are evicted or cleared, and a CACHEDIR.TAG so backup tools leave it
 * out.
 */
import { mkdirSync, writeFileSync } from "fs";
import { homedir } from "os";
import { isAbsolute, join } from "path";

export type CacheEnv = Readonly<Record<string, string | undefined>>;

export function defaultCacheDir(
  env: CacheEnv,
  platform: NodeJS.Platform = process.platform,
  home: () => string = homedir
): string {
  if (env.CRYPTOMETRICS_CACHE_DIR) return env.CRYPTOMETRICS_CACHE_DIR;
  if (platform === "win32" && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, "cryptometrics");
  // The XDG specification: a relative $XDG_CACHE_HOME is invalid and ignored.
  const xdg = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : undefined;
  return join(xdg ?? join(home(), ".cache"), "cryptometrics");
}

/** https://bford.info/cachedir/ */
const TAG =
  "Signature: 8a477f597d28d172789f06886806bc55\n" +
  "# This directory is a cache of Cryptometrics for Excel's command line; `cryptometrics cache clear` empties it.\n";

/** Creates the directory (private to the user) and its tag, once. */
export function prepareCacheDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    writeFileSync(join(dir, "CACHEDIR.TAG"), TAG, { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
}
