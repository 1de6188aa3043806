/**
 * How users start the CLI: `npm run cli`, whose script (package.json) is `node <flags> dist/node/cli/main.js`.
 * Tests and the hostile lab start the built file with the same flags, read from that script: one source.
 * The flags are the CLI's heap sizes (see src/cli/README.md "Limits"): V8 sizes its heap's growth to its
 * limit, and the default limit (a quarter of the machine's memory) let a run of 100,000 lines grow to 500 MB
 * for about 100 MB of live data.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** The repository's root: the nearest directory above with a package.json (from src/ or from dist/node/). */
export function repositoryRoot(from = __dirname): string {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** The node flags of package.json's `cli` script (between `node` and the script). */
export function cliNodeFlags(root = repositoryRoot()): string[] {
  const pkg = JSON.parse(readFileSync(resolve(root, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const words = pkg.scripts.cli.split(/\s+/);
  const script = words.findIndex((w) => w.endsWith("cli/main.js"));
  if (words[0] !== "node" || script < 1)
    throw new Error(`the cli script is not "node [flags] …/cli/main.js": ${pkg.scripts.cli}`);
  return words.slice(1, script);
}

/**
 * The two scripts preloaded (node --require) into a CLI process: its peak memory written to fd 3, and its
 * clock moved ahead. Plain CommonJS beside this file in the repository, so neither needs a build.
 */
export const PRELOADS = {
  peakRss: join(repositoryRoot(), "test/harness/hostile/peak-rss.cjs"),
  clockAhead: join(repositoryRoot(), "test/harness/hostile/clock-ahead.cjs"),
} as const;
