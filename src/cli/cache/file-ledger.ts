/**
 * One rate budget per key across CLI processes: the rate limiter's record of recent request starts lives in
 * `<cache dir>/rate/<hash of the namespace>.json`, read and rewritten under a lock for every
 * burst of starts (a recalculation's queued requests claim their starts together: one lock turn each) and for
 * every batch of answers (a start counts until its request was answered: see claimSlots). Runs one
 * after another see the starts of the runs before them (the service still counts those); runs at the same
 * time take turns. A record that cannot be read (damaged, of another version) counts as empty; the limiter
 * leaves a ledger that fails aside and paces its own process (see rate-limiter.ts).
 *
 * The record heals (claimSlots): each open start names the process that claimed it (process-identity.ts),
 * and one of a process that is gone (killed, crashed) stops being held open; starts dated ahead of the
 * clock (a run whose clock was wrong) are dropped. A process that is interrupted reports its open starts
 * as answered before it exits (runtime-setup.ts). `cache clear` removes the records (clearLedgers).
 */
import { createHash } from "crypto";
import { promises as fs } from "fs";
import { join } from "path";
import {
  claimSlots,
  settleSlots,
  type Claimed,
  type ClaimTurn,
  type LedgerRecord,
  type StartLedger,
} from "../../client";
import { prepareCacheDir } from "./cache-dir";
import { withLock } from "./lock";
import { checkInnerDir } from "./ownership";
import { readNoFollow, writeNoFollow } from "./safe-fs";
import { isGone, thisProcess, type LedgerHealth, type ProcessIdentity } from "./process-identity";

/** 2: open starts (counted until their answer), see claimSlots. A record of version 1 counts as empty. */
const VERSION = 2;

/** A record holds at most `limit` starts and open starts (60 each by default): far less than this. */
const MAX_RECORD_BYTES = 1024 * 1024;

/** A record's file name: a hash of its service and key. */
const RECORD = /^[0-9a-f]{32}\.json$/;

/** The CLI's record: each open start names the process that claimed it. */
type ProcessRecord = LedgerRecord<ProcessIdentity>;

const empty = (): ProcessRecord => ({ starts: [], open: [], pausedUntil: 0 });

const finite = (t: unknown): t is number => typeof t === "number" && Number.isFinite(t);

/** The process of an open start as recorded, or undefined when there is none or it is malformed. */
function processOf(value: unknown): ProcessIdentity | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { pid, host, started } = value as Record<string, unknown>;
  return Number.isInteger(pid) && typeof host === "string" && typeof started === "string"
    ? { pid: pid as number, host, started }
    : undefined;
}

function parse(text: string): ProcessRecord {
  try {
    const json = JSON.parse(text) as Partial<Record<keyof LedgerRecord | "version", unknown>>;
    if (json.version !== VERSION) return empty();
    const starts = Array.isArray(json.starts) ? json.starts.filter(finite) : [];
    const open = Array.isArray(json.open)
      ? json.open.filter(
          (o): o is { owner: string; at: number; process?: unknown } =>
            typeof o === "object" &&
            o !== null &&
            typeof (o as { owner?: unknown }).owner === "string" &&
            finite((o as { at?: unknown }).at)
        )
      : [];
    const pausedUntil = finite(json.pausedUntil) ? json.pausedUntil : 0;
    return {
      starts,
      open: open.map(({ owner, at, process }) => {
        const p = processOf(process);
        return p ? { owner, at, process: p } : { owner, at };
      }),
      pausedUntil,
    };
  } catch {
    return empty();
  }
}

interface Place {
  file: string;
  lockPath: string;
}

export class FileStartLedger implements StartLedger {
  private place: Promise<Place | undefined> | undefined;

  /**
   * @param namespace the service and key (cache-namespace.ts): one budget per key. Without a key nothing is
   * recorded (no request can be sent anyway).
   */
  /**
   * @param health who claims (recorded with each open start) and how to tell that a claimer has gone: this
   * process and the system's process table by default.
   */
  constructor(
    private readonly dir: string,
    private readonly namespace: () => Promise<string | undefined>,
    private readonly health: LedgerHealth = { self: thisProcess(), isGone }
  ) {}

  private prepare(): Promise<Place | undefined> {
    this.place ??= (async () => {
      const ns = await this.namespace();
      if (ns === undefined) return undefined;
      prepareCacheDir(this.dir);
      checkInnerDir(join(this.dir, "rate"));
      const name = createHash("sha256").update(ns).digest("hex").slice(0, 32);
      const file = join(this.dir, "rate", `${name}.json`);
      return { file, lockPath: `${file}.lock` };
    })();
    return this.place;
  }

  private async read(file: string): Promise<ProcessRecord> {
    const read = await readNoFollow(file, MAX_RECORD_BYTES);
    return read && "text" in read ? parse(read.text) : empty();
  }

  private write(file: string, record: ProcessRecord): Promise<void> {
    return writeNoFollow(file, JSON.stringify({ version: VERSION, ...record }));
  }

  async claim(turn: ClaimTurn): Promise<Claimed> {
    const place = await this.prepare();
    // No key: no request will be sent, nothing to share.
    if (!place) return { granted: turn.wanted, waitMs: 0 };
    return withLock(place.lockPath, async () => {
      const record = await this.read(place.file);
      const claimed = claimSlots(record, turn, turn.now(), this.health);
      if (claimed.granted > 0) await this.write(place.file, record);
      return claimed;
    });
  }

  async settle(owner: string, count: number, now: () => number): Promise<void> {
    const place = await this.prepare();
    if (!place) return;
    await withLock(place.lockPath, async () => {
      const record = await this.read(place.file);
      settleSlots(record, owner, count, now());
      await this.write(place.file, record);
    });
  }

  async pauseUntil(atMs: number): Promise<void> {
    const place = await this.prepare();
    if (!place) return;
    await withLock(place.lockPath, async () => {
      const record = await this.read(place.file);
      if (atMs <= record.pausedUntil) return;
      record.pausedUntil = atMs;
      await this.write(place.file, record);
    });
  }
}

/** Forgets every shared record of request starts in the cache directory (`cache clear`). */
export async function clearLedgers(dir: string): Promise<number> {
  const rate = join(dir, "rate");
  let names: string[];
  try {
    names = await fs.readdir(rate);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  const records = names.filter((name) => RECORD.test(name));
  for (const name of records) await fs.unlink(join(rate, name)).catch(() => undefined);
  return records.length;
}
