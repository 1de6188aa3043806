/**
 * Where the CLI takes the API key from, so that it need never be written on a command line: a command line
 * is shown to every user of the computer (`ps`), kept in shell histories, and npm writes the arguments of
 * `npm run` into its debug log (~/.npm/_logs, readable by others), on success too.
 *
 * In order: --api-key-file FILE (`-` for standard input), then --api-key VALUE (accepted, with a warning
 * saying who can see it), then $CRYPTOMETRICS_API_KEY_FILE, then $CRYPTOMETRICS_API_KEY, then, when a
 * terminal is attached, a prompt that does not echo. With none, the run goes on without a key and the cells
 * say how to set one.
 *
 * A key file holds the key alone (surrounding whitespace and a final line break are ignored). One that
 * other users may read still works, with a warning (a secret mounted by a container runtime is often
 * world-readable, and refusing it would only push the key back onto the command line).
 */
import { closeSync, fstatSync, openSync, readSync } from "fs";
import { describeReadError, UsageError } from "./errors";

/** A key is a few dozen characters; a file past this is not a key file (and is not read further). */
export const MAX_KEY_FILE_BYTES = 4_096;

export const ARGV_WARNING =
  "warning: --api-key puts the key on the command line, where other users of this computer (ps) and " +
  "npm's debug logs can see it; use --api-key-file FILE or the CRYPTOMETRICS_API_KEY environment variable";

export interface KeyFileRead {
  text: string;
  /** POSIX permission bits when the file is a regular file (undefined for a pipe or standard input). */
  mode?: number;
}

/** Reads at most MAX_KEY_FILE_BYTES + 1 bytes of a key file: a file too large is refused, not loaded. */
export type ReadKeyFile = (path: string) => KeyFileRead;

const STDIN_FD = 0;

export const readKeyFile: ReadKeyFile = (path) => {
  const fd = path === "-" ? STDIN_FD : openSync(path, "r");
  try {
    const stat = fstatSync(fd);
    const buffer = Buffer.alloc(MAX_KEY_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, buffer, length, buffer.length - length, null);
      } catch (error) {
        // A non-blocking standard input with nothing yet: wait a little, as a blocking read would.
        if ((error as NodeJS.ErrnoException).code === "EAGAIN") {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
          continue;
        }
        throw error;
      }
      if (n === 0 || (length += n) >= buffer.length) break;
    }
    return {
      text: buffer.subarray(0, length).toString("utf8"),
      ...(stat.isFile() ? { mode: stat.mode & 0o777 } : {}),
    };
  } finally {
    if (fd !== STDIN_FD) closeSync(fd);
  }
};

/** Asks for the key on the terminal without echoing it; undefined when the user gives none. */
export type PromptKey = (question: string) => Promise<string | undefined>;

interface KeyRequest {
  /** --api-key-file and --api-key, as given. */
  file?: string;
  value?: string;
  env: Readonly<Record<string, string | undefined>>;
  baseUrl: string;
  read: ReadKeyFile;
  /** Only where a terminal is attached. */
  prompt?: PromptKey;
  platform?: NodeJS.Platform;
}

interface ResolvedKey {
  /** "" when none was given: the cells then say how to set one. */
  key: string;
  /** Lines for stderr (without the program's prefix). */
  warnings: string[];
}

/** The key a file holds, with a warning when others may read the file. */
function keyFromFile(
  path: string,
  source: string,
  request: KeyRequest
): { key: string; warning?: string } {
  let read: KeyFileRead;
  try {
    read = request.read(path);
  } catch (error) {
    throw new UsageError(
      "usage",
      `cannot read the key file ${source}: ${describeReadError(error)}`,
      {
        cause: error,
      }
    );
  }
  if (Buffer.byteLength(read.text) > MAX_KEY_FILE_BYTES)
    throw new UsageError(
      "usage",
      `the key file ${source} is larger than ${MAX_KEY_FILE_BYTES / 1024} KB: it should hold the key alone`
    );
  const key = read.text.trim();
  if (key === "") throw new UsageError("usage", `the key file ${source} is empty`);
  if (/\s/.test(key))
    throw new UsageError(
      "usage",
      `the key file ${source} holds more than one word: it should hold the key alone`
    );
  const exposed =
    read.mode !== undefined && (request.platform ?? process.platform) !== "win32"
      ? read.mode & 0o077
      : 0;
  return exposed === 0
    ? { key }
    : {
        key,
        warning: `warning: the key file ${source} can be read by other users of this computer (mode ${read.mode?.toString(8).padStart(4, "0")}); chmod 600 ${path}`,
      };
}

export async function resolveApiKey(request: KeyRequest): Promise<ResolvedKey> {
  const { file, value, env } = request;
  if (file !== undefined && value !== undefined)
    throw new UsageError("usage", "give the key once: --api-key-file or --api-key, not both");
  if (file !== undefined) {
    const found = keyFromFile(file, file === "-" ? "(standard input)" : file, request);
    return { key: found.key, warnings: found.warning ? [found.warning] : [] };
  }
  if (value !== undefined) return { key: value, warnings: [ARGV_WARNING] };
  const envFile = env.CRYPTOMETRICS_API_KEY_FILE;
  if (envFile) {
    const found = keyFromFile(envFile, `${envFile} ($CRYPTOMETRICS_API_KEY_FILE)`, request);
    return { key: found.key, warnings: found.warning ? [found.warning] : [] };
  }
  if (env.CRYPTOMETRICS_API_KEY) return { key: env.CRYPTOMETRICS_API_KEY, warnings: [] };
  if (request.prompt) {
    const typed = (await request.prompt(`API key for ${request.baseUrl}: `))?.trim();
    if (typed) return { key: typed, warnings: [] };
  }
  return { key: "", warnings: [] };
}
