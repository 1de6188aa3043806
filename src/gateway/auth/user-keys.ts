/**
 * Per-user service keys: a signed-in user registers their own key once (some data plans tie a key to one
 * person); the gateway keeps it encrypted at rest and uses it for that user's requests only. Never returned:
 * the API says whether a key is registered, since when, and its last four characters, nothing more.
 *
 * At rest: one record per user (`cm:gw:2:{user-keys}:k:<hash of the user>`), AES-256-GCM with a fresh 12-byte IV,
 * the whole record sealed (the key, when it was registered: nothing in plaintext) and authenticated with the
 * user's id as additional data (a record copied onto another user, or altered, opens to nothing). The
 * key-encryption key (32 bytes, base64 or hex) comes from a file or an environment variable, never from the
 * command line, and never reaches Redis. A removed key leaves a sealed tombstone behind (30 days), so that a
 * record gone missing can be told from one removed.
 *
 * Redis can fail, restart empty or be edited: a process keeps the sealed records it read (bounded), so a
 * signed-in user is served while Redis is away as a token user is; a user whose record is gone while this
 * process knew they had one (Redis restarted empty: its epoch changed) is told so, and is never silently
 * served with the team's key instead; registrations and removals are bounded per user per hour.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { LRUCache } from "lru-cache";
import {
  MAX_KEY_CHANGES_PER_HOUR,
  MAX_REMEMBERED_KEY_USERS,
  MAX_USER_KEY_LENGTH,
  MIN_USER_KEY_LENGTH,
} from "../bounds";
import { GatewayError } from "../errors";
import { readKeyFile } from "../key-file";
import { userKeyKeys } from "../store/keys";
import type { RedisLink } from "../store/redis-link";

/** Where records are kept: Redis (every process sees them), or this process's memory. */
export interface KeyRecords {
  /** The user's record and the group's epoch (a Redis that lost its data has another one). */
  get(user: string): Promise<{ record?: string; epoch: string }>;
  set(user: string, record: string, ttlMs?: number): Promise<void>;
  /** Counts a change of the user's key this hour; the count so far. */
  countChange(user: string, now: number): Promise<number>;
}

export class MemoryKeyRecords implements KeyRecords {
  private readonly map = new Map<string, { record: string; until?: number }>();
  private readonly changes = new LRUCache<string, { count: number; until: number }>({
    max: MAX_REMEMBERED_KEY_USERS,
  });
  constructor(private readonly now: () => number = Date.now) {}
  get(user: string): Promise<{ record?: string; epoch: string }> {
    const held = this.map.get(user);
    if (held?.until !== undefined && held.until <= this.now()) this.map.delete(user);
    const record = this.map.get(user)?.record;
    return Promise.resolve({ ...(record === undefined ? {} : { record }), epoch: "memory" });
  }
  set(user: string, record: string, ttlMs?: number): Promise<void> {
    this.map.set(user, { record, ...(ttlMs === undefined ? {} : { until: this.now() + ttlMs }) });
    return Promise.resolve();
  }
  countChange(user: string, now: number): Promise<number> {
    const held = this.changes.get(user);
    const next =
      held && held.until > now
        ? { count: held.count + 1, until: held.until }
        : { count: 1, until: now + 3_600_000 };
    this.changes.set(user, next);
    return Promise.resolve(next.count);
  }
}

export class RedisKeyRecords implements KeyRecords {
  constructor(private readonly link: RedisLink) {}
  async get(user: string): Promise<{ record?: string; epoch: string }> {
    const fresh = randomBytes(8).toString("hex");
    // The epoch is made when missing (a Redis new or emptied); both keys share one hash slot.
    await this.link.main.set(userKeyKeys.epoch, fresh, "NX");
    const [epoch, record] = await this.link.main.mget(userKeyKeys.epoch, userKeyKeys.record(user));
    return { ...(record ? { record } : {}), epoch: epoch ?? fresh };
  }
  async set(user: string, record: string, ttlMs?: number): Promise<void> {
    if (ttlMs === undefined) await this.link.main.set(userKeyKeys.record(user), record);
    else await this.link.main.set(userKeyKeys.record(user), record, "PX", ttlMs);
  }
  async countChange(user: string): Promise<number> {
    const key = userKeyKeys.changes(user);
    const [[, count]] = (await this.link.main
      .multi()
      .incr(key)
      .pexpire(key, 3_600_000, "NX")
      .exec()) as [[Error | null, number]];
    return Number(count);
  }
}

/** What a user may know of their registered key. */
interface KeyInfo {
  registered: boolean;
  /** ISO time of registration. */
  since?: string;
  /** The key's last four characters (the taskpane's "••••1a2b"). */
  last4?: string;
  /** Their key was registered, and the gateway's store lost it (register it again). */
  lost?: boolean;
  /** The store cannot be reached and this process has not seen the user's record: nothing can be said. */
  unknown?: boolean;
}

/** The key serving a user: theirs (with an id naming this record), none, or lost/unknown (see KeyInfo). */
type KeyState =
  | { state: "key"; id: string; key: string }
  | { state: "none" }
  | { state: "lost" }
  | { state: "unknown" };

interface Sealed {
  v: 2;
  iv: string;
  tag: string;
  data: string;
}

interface Opened {
  key?: string;
  at: number;
  removed?: boolean;
}

/** How long a removal is remembered (a record missing after that is simply none). */
const TOMBSTONE_TTL_MS = 30 * 86_400_000;

/** Reads the key-encryption key: 32 bytes as base64 or hex, from a file (preferred) or a variable's value. */
export function parseKek(text: string, where: string): Buffer {
  const t = text.trim();
  const bytes = /^[0-9a-f]{64}$/i.test(t) ? Buffer.from(t, "hex") : Buffer.from(t, "base64");
  if (bytes.length !== 32)
    throw new Error(
      `${where} must hold a 256-bit key (32 bytes as base64 or 64 hex digits; make one with: openssl rand -base64 32)`
    );
  return bytes;
}

export function readKekFile(file: string): Buffer {
  const text = readKeyFile(
    file,
    1,
    (why) => new Error(`the key-encryption key file ${file} cannot be read: ${why}`)
  );
  return parseKek(text, `the key-encryption key file ${file}`);
}

/**
 * What a key may look like: what the service's keys look like, bounded. At least MIN_USER_KEY_LENGTH and at least
 * as long as the team's own key (`minLength`): a four-character "key" is no key of the service.
 */
function serviceKeyProblem(key: string, minLength = MIN_USER_KEY_LENGTH): string | undefined {
  if (key === "") return "The key is empty: paste your service key.";
  if (key.length > MAX_USER_KEY_LENGTH) return "That is too long to be a service key.";
  if (!/^[\x21-\x7e]+$/.test(key))
    return "The key contains spaces or other characters a service key has not: paste it exactly as shown on your account page.";
  if (key.length < Math.max(MIN_USER_KEY_LENGTH, minLength))
    return `That is too short to be a service key (the service's keys have at least ${Math.max(MIN_USER_KEY_LENGTH, minLength)} characters): paste the whole key.`;
  return undefined;
}

export class UserKeys {
  /** Sealed records this process has read, by user: Redis away, a user is still served with their key. */
  private readonly seen: LRUCache<string, { record?: string; at: number }>;
  /** The epoch of the records' group when last read (another one: Redis lost its data). */
  private epoch: string | undefined;
  private readonly now: () => number;
  /** Shortest key accepted (the team's own key's length, at least MIN_USER_KEY_LENGTH). */
  readonly minKeyLength: number;

  constructor(
    private readonly records: KeyRecords,
    private readonly kek: Buffer,
    options: {
      now?: () => number;
      /**
       * How long a process trusts what it read: another process may register or forget a key meanwhile. A
       * second keeps Redis to one read per user per second under a refresh, and a change applies everywhere within it.
       */
      freshMs?: number;
      minKeyLength?: number;
      /** Told when the records' store was found emptied (its epoch changed). */
      onLost?: () => void;
    } = {}
  ) {
    this.onLost = options.onLost;
    if (kek.length !== 32) throw new Error("the key-encryption key must be 32 bytes");
    this.now = options.now ?? Date.now;
    this.freshMs = options.freshMs ?? 1_000;
    this.minKeyLength = Math.max(MIN_USER_KEY_LENGTH, options.minKeyLength ?? 0);
    this.seen = new LRUCache({ max: MAX_REMEMBERED_KEY_USERS });
  }

  private readonly freshMs: number;
  private readonly onLost: (() => void) | undefined;

  private aad(user: string): Buffer {
    return Buffer.from(`cryptometrics-gateway user key v2\n${user}`, "utf8");
  }

  private seal(user: string, opened: Opened): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.kek, iv);
    cipher.setAAD(this.aad(user));
    const data = Buffer.concat([cipher.update(JSON.stringify(opened), "utf8"), cipher.final()]);
    const sealed: Sealed = {
      v: 2,
      iv: iv.toString("base64"),
      tag: cipher.getAuthTag().toString("base64"),
      data: data.toString("base64"),
    };
    return JSON.stringify(sealed);
  }

  /** The record opened, or undefined when it is absent, damaged, another user's or under another KEK. */
  private open(user: string, text: string | undefined): Opened | undefined {
    if (text === undefined) return undefined;
    try {
      const sealed = JSON.parse(text) as Sealed;
      if (sealed.v !== 2) return undefined;
      const decipher = createDecipheriv("aes-256-gcm", this.kek, Buffer.from(sealed.iv, "base64"));
      decipher.setAAD(this.aad(user));
      decipher.setAuthTag(Buffer.from(sealed.tag, "base64"));
      const plain = Buffer.concat([
        decipher.update(Buffer.from(sealed.data, "base64")),
        decipher.final(),
      ]);
      const opened = JSON.parse(plain.toString("utf8")) as Opened;
      return typeof opened.at === "number" ? opened : undefined;
    } catch {
      return undefined;
    }
  }

  /** The user's record: Redis's (within freshMs of the last read), or the last one seen while it is away. */
  private async read(
    user: string,
    fresh = false
  ): Promise<{ record?: string; reachable: boolean; lost: boolean }> {
    const known = this.seen.get(user);
    if (!fresh && known && this.now() - known.at < this.freshMs)
      return {
        ...(known.record === undefined ? {} : { record: known.record }),
        reachable: true,
        lost: false,
      };
    let got: { record?: string; epoch: string };
    try {
      got = await this.records.get(user);
    } catch {
      return known
        ? {
            ...(known.record === undefined ? {} : { record: known.record }),
            reachable: false,
            lost: false,
          }
        : { reachable: false, lost: false };
    }
    if (this.epoch !== undefined && got.epoch !== this.epoch) this.onLost?.();
    this.epoch = got.epoch;
    // Gone without a removal, though this process knew a key: the store lost it (restarted empty, flushed).
    const hadKey = known?.record !== undefined && this.open(user, known.record)?.key !== undefined;
    const lost = got.record === undefined && hadKey;
    if (lost) return { reachable: true, lost: true };
    this.seen.set(user, {
      ...(got.record === undefined ? {} : { record: got.record }),
      at: this.now(),
    });
    return {
      ...(got.record === undefined ? {} : { record: got.record }),
      reachable: true,
      lost: false,
    };
  }

  private async change(user: string): Promise<void> {
    let count: number;
    try {
      count = await this.records.countChange(user, this.now());
    } catch {
      throw new GatewayError(
        503,
        "The team gateway cannot reach its store right now: your key cannot be changed; try again in a minute",
        30
      );
    }
    if (count > MAX_KEY_CHANGES_PER_HOUR)
      throw new GatewayError(
        429,
        `Your key was changed ${MAX_KEY_CHANGES_PER_HOUR} times in the last hour: try again later`,
        600
      );
  }

  /** Registers (or replaces) `user`'s key. Throws GatewayError (400, 429, 503) in the user's words. */
  async register(user: string, key: string): Promise<void> {
    const problem = serviceKeyProblem(key, this.minKeyLength);
    if (problem) throw new GatewayError(400, problem);
    await this.change(user);
    await this.keep(user, this.seal(user, { key, at: this.now() }), "registered");
  }

  /** Forgets `user`'s key (a tombstone, so that other processes see a removal, not a loss). */
  async remove(user: string): Promise<void> {
    await this.change(user);
    await this.keep(
      user,
      this.seal(user, { at: this.now(), removed: true }),
      "removed",
      TOMBSTONE_TTL_MS
    );
  }

  /**
   * Stores `user`'s new sealed record and holds it as seen. A store out of reach is a 503 telling the user
   * their key was not `done`.
   */
  private async keep(
    user: string,
    record: string,
    done: "registered" | "removed",
    ttlMs?: number
  ): Promise<void> {
    try {
      await this.records.set(user, record, ttlMs);
    } catch {
      throw new GatewayError(
        503,
        `The team gateway cannot reach its store right now: your key was not ${done}; try again in a minute`,
        30
      );
    }
    this.seen.set(user, { record, at: this.now() });
  }

  async info(user: string): Promise<KeyInfo> {
    const got = await this.read(user, true);
    if (got.lost) return { registered: false, lost: true };
    const opened = this.open(user, got.record);
    if (!got.reachable && got.record === undefined) return { registered: false, unknown: true };
    return opened?.key
      ? { registered: true, since: new Date(opened.at).toISOString(), last4: opened.key.slice(-4) }
      : { registered: false };
  }

  /** The key serving `user` (see KeyState); its id changes when the key is replaced (it names the record's IV). */
  async current(user: string): Promise<KeyState> {
    const got = await this.read(user);
    if (got.lost) return { state: "lost" };
    if (!got.reachable && got.record === undefined) return { state: "unknown" };
    const opened = this.open(user, got.record);
    if (!opened?.key) return { state: "none" };
    const id = `user:${createHash("sha256")
      .update(`${user}\n${got.record ?? ""}`)
      .digest("hex")
      .slice(0, 24)}`;
    return { state: "key", id, key: opened.key };
  }
}
