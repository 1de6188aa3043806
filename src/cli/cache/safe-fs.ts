/**
 * File operations of the cache directory that never follow a symbolic link: a link planted where an entry,
 * `usage.json` or a rate record should be (by whoever could write there, or in a copied directory) is
 * neither read nor written through, so the CLI cannot be made to overwrite or read another file.
 *
 * - Reads open with O_NOFOLLOW (a link fails with ELOOP, taken as "not there") and read at most a bound.
 * - Writes go to a new temporary file (O_CREAT | O_EXCL | O_NOFOLLOW: never an existing file or link),
 *   written whole (its size checked before it is kept), then renamed over the target: a rename replaces a
 *   link itself, it does not write into what the link points to. write-file-atomic, used before, resolves
 *   the target's real path first (on purpose: it keeps links working), which is exactly what must not
 *   happen here; hence these few lines of our own.
 * - A write that fails (a full disk: ENOSPC; a file-size limit: EFBIG; a short write) removes its
 *   temporary file: no half entry is ever renamed into place.
 * - Times are set with lutimes (the link's own, never its target's).
 *
 * Windows has no O_NOFOLLOW (its links need privileges to create); there the flag is 0.
 */
import { randomBytes } from "crypto";
import { constants, promises as fs } from "fs";

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

/** A link where a file was expected: treated as absent. */
function isLinkOrMissing(error: unknown): boolean {
  const c = code(error);
  return c === "ENOENT" || c === "ELOOP";
}

type ReadResult = { text: string } | { tooLarge: number } | undefined;

/**
 * The file's text, undefined when it is absent or a link, `{ tooLarge }` (its size) when it holds more than
 * `maxBytes` (nothing of it read).
 */
export async function readNoFollow(path: string, maxBytes = Infinity): Promise<ReadResult> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(path, constants.O_RDONLY | NOFOLLOW);
  } catch (error) {
    if (isLinkOrMissing(error)) return undefined;
    throw error;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return undefined;
    if (stat.size > maxBytes) return { tooLarge: stat.size };
    return { text: await handle.readFile("utf8") };
  } finally {
    await handle.close();
  }
}

class ShortWriteError extends Error {
  readonly code = "ESHORTWRITE";
}

/**
 * Writes `text` to `path` atomically without following a link at `path` (see the module comment). Rejects
 * with the file system's error (ENOSPC, EFBIG, ...) when it cannot be written whole; nothing is left then.
 */
export async function writeNoFollow(path: string, text: string, mode = 0o600): Promise<void> {
  const temporary = `${path}.${randomBytes(6).toString("hex")}`;
  const data = Buffer.from(text, "utf8");
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(
      temporary,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW,
      mode
    );
    await handle.writeFile(data);
    const written = (await handle.stat()).size;
    if (written !== data.length)
      throw new ShortWriteError(`wrote ${written} of ${data.length} bytes to ${temporary}`);
    await handle.close();
    handle = undefined;
    await fs.rename(temporary, path);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await fs.unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/** Sets a file's access and modification times; a link's own times if it is one (never its target's). */
export async function touchNoFollow(path: string, at: Date): Promise<void> {
  await fs.lutimes(path, at, at);
}
