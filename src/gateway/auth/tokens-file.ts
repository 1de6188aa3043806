/**
 * Personal access tokens for scripts and the CLI: a file of `NAME SHA256-HEX-OF-TOKEN` lines (`#` starts a
 * comment), so the file itself holds no token. A caller sends `Authorization: Bearer TOKEN`; the gateway hashes
 * it and looks the hash up. The file is read again every `reloadMs` (10 s by default) and when it changes, so a
 * token removed from it stops working within seconds, without a restart. A reading that fails (the file
 * unreadable for a moment, descriptors exhausted, EMFILE) keeps the last good list and says so in the log; a file
 * that is gone (ENOENT) is a removed list: nobody is let in, and the log says so.
 *
 *   printf '%s' "$TOKEN" | sha256sum      # the hash to put on the token's line
 */
import { createHash } from "node:crypto";
import { promises as fs, watch, type FSWatcher } from "node:fs";
import { basename, dirname } from "node:path";
import { realTimers, type Timers } from "../../client";
import { repeat } from "../clock";
import { fileProblem } from "../key-file";
import type { Caller, Verifier } from "./verifier";

/** A name: what logs and metrics show for the caller. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}$/;
const HASH = /^[0-9a-fA-F]{64}$/;
/** Largest tokens file read: 1 MB is thousands of people. */
const MAX_BYTES = 1_048_576;

interface TokensFileOptions {
  path: string;
  /** The clock and timers of the periodic reading (tests drive them). Default: the real ones. */
  now?: () => number;
  timers?: Timers;
  /** How often the file is read again (ms). Default 10 s: a removed token stops working within that. */
  reloadMs?: number;
  /** Where the notes go (a line skipped, the file unreadable); never a token or a hash. */
  log?: (level: "info" | "warn" | "error", message: string) => void;
}

interface ParsedTokens {
  byHash: Map<string, string>;
  /** Lines skipped, by number, with why. */
  problems: string[];
}

/** The tokens file's lines as hash -> name. */
function parseTokens(text: string): ParsedTokens {
  const byHash = new Map<string, string>();
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/#.*$/, "").trim();
    if (line === "") return;
    const parts = line.split(/\s+/);
    if (parts.length !== 2) {
      problems.push(`line ${i + 1}: expected "NAME SHA256-HEX", skipped`);
      return;
    }
    const [name, hash] = parts;
    if (!NAME.test(name)) {
      problems.push(`line ${i + 1}: the name must be 1-64 letters, digits or . _ @ + -, skipped`);
      return;
    }
    if (!HASH.test(hash)) {
      problems.push(`line ${i + 1}: the hash must be 64 hexadecimal digits (sha256sum), skipped`);
      return;
    }
    byHash.set(hash.toLowerCase(), name);
  });
  return { byHash, problems };
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

async function readBounded(path: string): Promise<string> {
  const handle = await fs.open(path, "r");
  try {
    const { size } = await handle.stat();
    if (size > MAX_BYTES) throw new Error(`it is over ${MAX_BYTES} bytes`);
    const buffer = Buffer.alloc(size);
    const { bytesRead } = await handle.read(buffer, 0, size, 0);
    return buffer.subarray(0, bytesRead).toString("utf8");
  } finally {
    await handle.close();
  }
}

export class TokensFile implements Verifier {
  readonly name = "tokens-file";
  private byHash = new Map<string, string>();
  private stopReading: (() => void) | undefined;
  private watcher: FSWatcher | undefined;
  private loadedAt = 0;
  private failedAt = 0;
  private reading: Promise<void> | undefined;
  /** The one reading asked for while another was under way: it starts when that one ends. */
  private readingAgain: Promise<void> | undefined;

  private log: NonNullable<TokensFileOptions["log"]>;

  private constructor(private readonly options: TokensFileOptions) {
    this.log = options.log ?? (() => undefined);
  }

  /** Where notes go from now on (the gateway's log, once it exists). */
  logTo(log: NonNullable<TokensFileOptions["log"]>): void {
    this.log = log;
  }

  /** Reads the file (refusing to start without it), then keeps it fresh. */
  static async open(options: TokensFileOptions): Promise<TokensFile> {
    const file = new TokensFile(options);
    let text: string;
    try {
      text = await readBounded(options.path);
    } catch (error) {
      throw new Error(`the tokens file ${options.path} cannot be read: ${fileProblem(error)}`);
    }
    file.apply(text);
    file.stopReading = repeat(options.timers ?? realTimers, options.reloadMs ?? 10_000, () =>
      file.reload()
    );
    try {
      // Editors replace the file (rename): watch its directory, and read it again on any change of its name.
      file.watcher = watch(dirname(options.path), (_event, changed) => {
        if (changed === null || changed === basename(options.path)) void file.reload();
      });
      file.watcher.on("error", () => undefined);
      file.watcher.unref();
    } catch {
      // No watching here (some file systems): the periodic reading is enough.
    }
    return file;
  }

  get size(): number {
    return this.byHash.size;
  }

  verify(credential: string): Promise<Caller | undefined> {
    const user = this.byHash.get(hashToken(credential));
    return Promise.resolve(
      user === undefined ? undefined : { user, via: "token", person: user.toLowerCase() }
    );
  }

  describe(): Record<string, unknown> {
    return {
      tokens: this.byHash.size,
      loadedAt: new Date(this.loadedAt).toISOString(),
      ...(this.failedAt > 0 ? { lastReloadFailed: new Date(this.failedAt).toISOString() } : {}),
    };
  }

  /**
   * Reads the file again now (the timer and the watcher call this). A reading under way may have read the file
   * before the change that asks for this one (an editor's save just after the timer's reading began): then one
   * more reading follows it, shared by every call made meanwhile, so that no change waits for the next period.
   */
  reload(): Promise<void> {
    if (this.reading) {
      this.readingAgain ??= this.reading.then(() => {
        this.readingAgain = undefined;
        return this.reload();
      });
      return this.readingAgain;
    }
    this.reading = (async () => {
      try {
        this.apply(await readBounded(this.options.path));
        this.failedAt = 0;
      } catch (error) {
        const gone = (error as { code?: unknown }).code === "ENOENT";
        if (gone) {
          if (this.byHash.size > 0)
            this.log(
              "error",
              `the tokens file ${this.options.path} is gone: no token is accepted until it is back`
            );
          this.byHash = new Map();
        } else {
          if (this.failedAt === 0)
            this.log(
              "error",
              `the tokens file ${this.options.path} cannot be read (${fileProblem(error)}): the ${this.byHash.size} token(s) read last stay in force until it can`
            );
          this.failedAt = (this.options.now ?? Date.now)();
        }
      } finally {
        this.reading = undefined;
      }
    })();
    return this.reading;
  }

  private apply(text: string): void {
    const { byHash, problems } = parseTokens(text);
    for (const problem of problems)
      this.log("warn", `tokens file ${this.options.path}: ${problem}`);
    const changed =
      byHash.size !== this.byHash.size || [...byHash].some(([h, n]) => this.byHash.get(h) !== n);
    if (changed && this.loadedAt > 0)
      this.log("info", `tokens file reloaded: ${byHash.size} token(s)`);
    this.byHash = byHash;
    this.loadedAt = (this.options.now ?? Date.now)();
  }

  close(): void {
    this.stopReading?.();
    this.watcher?.close();
  }
}

/** Tokens given directly (npm start's demo token), for a verifier with no file. */
export class FixedTokens implements Verifier {
  readonly name = "fixed-tokens";
  private readonly byHash: Map<string, string>;

  constructor(tokens: ReadonlyArray<{ name: string; token: string }>) {
    this.byHash = new Map(tokens.map(({ name, token }) => [hashToken(token), name]));
  }

  verify(credential: string): Promise<Caller | undefined> {
    const user = this.byHash.get(hashToken(credential));
    return Promise.resolve(
      user === undefined ? undefined : { user, via: "token", person: user.toLowerCase() }
    );
  }

  describe(): Record<string, unknown> {
    return { tokens: this.byHash.size };
  }

  close(): void {
    // Nothing to stop.
  }
}
