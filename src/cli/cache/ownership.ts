/**
 * Whether the CLI may use a cache directory, by the rule ssh applies to ~/.ssh: the directory must belong
 * to the user running the CLI and be writable by no one else, and so must the directories above it (or
 * belong to root; a directory others may write, like /tmp, only with its sticky bit, which keeps them from
 * renaming what is not theirs). Otherwise another user could plant links or entries in it (the CLI would
 * write through them, or read answers they made up) or swap the directory itself.
 *
 * Checked before anything is read or written there, the missing part of the path created private (0700)
 * only once the existing part has passed. Inside a directory that passed, links are still never followed
 * (safe-fs.ts), and `entries/` and `rate/` must be real directories of the same owner.
 *
 * On Windows (no POSIX owners or modes; %LOCALAPPDATA% is per user) only the links inside are refused.
 */
import { lstatSync, mkdirSync, realpathSync, statSync, type Stats } from "fs";
import { dirname, resolve, sep } from "path";

/** What the check needs of the system; the real one by default, another in tests. */
export interface OwnershipDeps {
  /** The user running the CLI; undefined where there are no POSIX users (Windows). */
  uid: number | undefined;
  lstat(path: string): Pick<Stats, "uid" | "mode" | "isDirectory" | "isSymbolicLink">;
  stat(path: string): Pick<Stats, "uid" | "mode" | "isDirectory" | "isSymbolicLink">;
  realpath(path: string): string;
  mkdir(path: string): void;
}

const systemOwnership = (): OwnershipDeps => ({
  uid: typeof process.getuid === "function" ? process.getuid() : undefined,
  lstat: lstatSync,
  stat: statSync,
  realpath: realpathSync,
  mkdir: (path) => void mkdirSync(path, { recursive: true, mode: 0o700 }),
});

export type Verdict = { ok: true; dir: string } | { ok: false; reason: string };

const STICKY = 0o1000;

function octal(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, "0");
}

function exists(path: string, deps: OwnershipDeps): boolean {
  try {
    deps.lstat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/** Why a directory above the cache may not be trusted, or undefined when it may. */
function ancestorProblem(path: string, uid: number, deps: OwnershipDeps): string | undefined {
  const st = deps.stat(path);
  if (st.uid !== uid && st.uid !== 0)
    return `${path}, a directory above it, belongs to another user (uid ${st.uid})`;
  if ((st.mode & 0o002) !== 0 && (st.mode & STICKY) === 0)
    return `${path}, a directory above it, can be written by every user (mode ${octal(st.mode)}, no sticky bit)`;
  return undefined;
}

/** Why the cache directory itself may not be used, or undefined when it may. */
function ownProblem(
  path: string,
  uid: number | undefined,
  deps: OwnershipDeps
): string | undefined {
  const link = deps.lstat(path);
  if (link.isSymbolicLink() && uid !== undefined && link.uid !== uid && link.uid !== 0)
    return `it is a link owned by another user (uid ${link.uid})`;
  const st = deps.stat(path);
  if (!st.isDirectory()) return "it is not a directory";
  if (uid === undefined) return undefined;
  if (st.uid !== uid) return `it belongs to another user (uid ${st.uid})`;
  if ((st.mode & 0o022) !== 0)
    return `other users can write to it (mode ${octal(st.mode)}); chmod go-w ${path} if it is yours to share`;
  return undefined;
}

/**
 * Checks (and creates, private, if missing) the cache directory. `ok` with its absolute path, or why it was
 * refused, in words for the user.
 */
export function checkCacheDir(dir: string, deps: OwnershipDeps = systemOwnership()): Verdict {
  const absolute = resolve(dir);
  try {
    // The part that exists: every directory above the cache must be trustworthy before anything is created.
    let existing = absolute;
    while (!exists(existing, deps) && dirname(existing) !== existing) existing = dirname(existing);
    const parent = existing === absolute ? dirname(absolute) : existing;
    const above = (path: string): string | undefined => {
      if (deps.uid === undefined) return undefined;
      for (const ancestor of chain(deps.realpath(path))) {
        const problem = ancestorProblem(ancestor, deps.uid, deps);
        if (problem) return problem;
      }
      return undefined;
    };
    const parentProblem = above(parent);
    if (parentProblem) return { ok: false, reason: parentProblem };
    if (existing !== absolute) deps.mkdir(absolute);
    const problem = ownProblem(absolute, deps.uid, deps);
    if (problem) return { ok: false, reason: problem };
    // A link to a directory elsewhere: the directories above its target must pass too.
    if (deps.lstat(absolute).isSymbolicLink()) {
      const targetProblem = above(dirname(deps.realpath(absolute)));
      if (targetProblem) return { ok: false, reason: targetProblem };
    }
    return { ok: true, dir: absolute };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
}

/** `/a/b/c` → `/`, `/a`, `/a/b`, `/a/b/c`. */
function chain(path: string): string[] {
  const parts = path.split(sep).filter(Boolean);
  return [sep, ...parts.map((_, i) => sep + parts.slice(0, i + 1).join(sep))];
}

/**
 * Checks a directory the CLI keeps inside the cache directory (`entries`, `rate`), creating it if missing:
 * it must be a real directory (not a link), of the same owner, writable by no one else. Throws otherwise.
 */
export function checkInnerDir(path: string, deps: OwnershipDeps = systemOwnership()): void {
  if (!exists(path, deps)) deps.mkdir(path);
  const st = deps.lstat(path);
  if (st.isSymbolicLink()) throw new Error(`${path} is a link: the cache does not follow links`);
  if (!st.isDirectory()) throw new Error(`${path} is not a directory`);
  if (deps.uid !== undefined && st.uid !== deps.uid)
    throw new Error(`${path} belongs to another user (uid ${st.uid})`);
  if (deps.uid !== undefined && (st.mode & 0o022) !== 0)
    throw new Error(`other users can write to ${path} (mode ${octal(st.mode)})`);
}
