/**
 * Which sources a build was made from, so that the tests reuse the build `npm test` has just made instead of
 * making their own: `npm run build` writes a stamp beside each output (`dist/node.inputs.json`,
 * `dist/web.inputs.json`) holding a hash of its inputs, and a test takes that output only while the hash of
 * the current inputs is the same (test/support/build-cache.ts). The stamp lives outside `dist/web`, which is
 * what gets hosted.
 */
import { createHash } from "crypto";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "fs";
import { join, resolve } from "path";

/** The repository: src/tools when run from the sources, dist/node/tools when built. */
export const REPO_ROOT = existsSync(join(__dirname, "../../package.json"))
  ? resolve(__dirname, "../..")
  : resolve(__dirname, "../../..");

/** What decides each build: files and folders from the repository root. */
export const BUILD_INPUTS = {
  node: ["src", "tsconfig.json", "tsconfig.node.json", "package-lock.json"],
  web: ["src", "assets", "webpack.config.js", "manifest.xml", "package-lock.json", "tsconfig.json"],
} as const;

export type BuildKind = keyof typeof BUILD_INPUTS;

/** Settings read from the environment that change what the web build contains (webpack.config.js). */
const WEB_ENV = ["ADDIN_ORIGIN", "CRYPTOMETRICS_BASE_URL"] as const;

function files(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

/** A hash of the inputs' paths and contents. */
export function inputHash(inputs: readonly string[], root = REPO_ROOT): string {
  const hash = createHash("sha256");
  for (const file of inputs.flatMap((p) => files(join(root, p)))) {
    hash.update(file.slice(root.length));
    hash.update(readFileSync(file));
  }
  return hash.digest("hex").slice(0, 16);
}

interface Stamp {
  hash: string;
  /** The web build's settings from the environment; a test wants a build made with none. */
  env: Record<string, string>;
}

function stampPath(kind: BuildKind, root: string): string {
  return join(root, "dist", `${kind}.inputs.json`);
}

function webEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of WEB_ENV) if (process.env[name]) env[name] = process.env[name] ?? "";
  return env;
}

export function writeStamp(kind: BuildKind, root = REPO_ROOT): void {
  const stamp: Stamp = {
    hash: inputHash(BUILD_INPUTS[kind], root),
    env: kind === "web" ? webEnv() : {},
  };
  writeFileSync(stampPath(kind, root), JSON.stringify(stamp) + "\n");
}

/**
 * `dist/<kind>` when it was built from the current inputs (and, for the web build, with no settings from the
 * environment); undefined otherwise.
 */
export function currentBuild(kind: BuildKind, root = REPO_ROOT): string | undefined {
  try {
    const stamp = JSON.parse(readFileSync(stampPath(kind, root), "utf8")) as Stamp;
    if (Object.keys(stamp.env ?? {}).length > 0) return undefined;
    return stamp.hash === inputHash(BUILD_INPUTS[kind], root)
      ? join(root, "dist", kind)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Forgets a stamp: the output is about to be replaced by a build the tests must not take (a development one). */
export function clearStamp(kind: BuildKind, root = REPO_ROOT): void {
  rmSync(stampPath(kind, root), { force: true });
}

if (require.main === module) {
  const [first, second] = process.argv.slice(2);
  const clear = first === "--clear";
  const kind = clear ? second : first;
  if (kind !== "node" && kind !== "web") {
    process.stderr.write("usage: build-stamp [--clear] node|web\n");
    process.exit(2);
  }
  if (clear) clearStamp(kind);
  else writeStamp(kind);
}
