/**
 * Tests that start the CLI as another user (uid 65534) need that user to reach the repository's files. A
 * checkout under a directory only its owner may enter (mktemp -d makes 0700, as CI's fresh clone is) would
 * stop it at the first step. This lets others *traverse* (o+x, not list or read) each such directory above
 * the repository for the duration of the tests, and puts the modes back afterwards.
 */
import { chmodSync, statSync } from "fs";
import { dirname, resolve } from "path";

/** Adds o+x to every directory from `path` (a file: its folder) up to the root that lacks it; returns the undo. */
export function traversableBy(path: string): () => void {
  const changed: { dir: string; mode: number }[] = [];
  const start = statSync(resolve(path)).isDirectory() ? resolve(path) : dirname(resolve(path));
  for (let dir = start; ; dir = dirname(dir)) {
    const mode = statSync(dir).mode & 0o7777;
    if ((mode & 0o001) === 0) {
      chmodSync(dir, mode | 0o001);
      changed.push({ dir, mode });
    }
    if (dirname(dir) === dir) break;
  }
  return () => {
    for (const { dir, mode } of changed) chmodSync(dir, mode);
  };
}
