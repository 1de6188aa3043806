/**
 * Per-user service keys: a signed-in user registers their own key once (some data plans tie a key to one
 * person); the gateway keeps it encrypted at rest and uses it for that user's requests only. Never returned:
 * the API says whether a key is registered, since when, and its last four characters, nothing more.
 *
 * Encryption: AES-256-GCM (node:crypto), a fresh 12-byte IV per record, the user's id as additional data (a
 * record copied onto another user fails to decrypt). The key-encryption key (32 bytes, base64 or hex) comes
 * from a file or an environment variable, never from the command line, and never reaches Redis. Records live
 * in a Redis hash shared by every process (or in process memory for a one-process gateway).
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import type { RedisLink } from "../store/redis-link";

/** Where records are kept: a Redis hash, or a Map in process memory. */
export interface KeyRecords {
  get(user: string): Promise<string | undefined>;
  set(user: string, record: string): Promise<void>;
  delete(user: string): Promise<void>;
}

export class MemoryKeyRecords implements KeyRecords {
  private readonly map = new Map<string, string>();
  get(user: string): Promise<string | undefined> {
    return Promise.resolve(this.map.get(user));
  }
  set(user: string, record: string): Promise<void> {
    this.map.set(user, record);
    return Promise.resolve();
  }
  delete(user: string): Promise<void> {
    this.map.delete(user);
    return Promise.resolve();
  }
}

export class RedisKeyRecords implements KeyRecords {
  constructor(
    private readonly link: RedisLink,
    private readonly hash = "cm:gw:1:user-keys"
  ) {}
  async get(user: string): Promise<string | undefined> {
    return (await this.link.main.hget(this.hash, user)) ?? undefined;
  }
  async set(user: string, record: string): Promise<void> {
    await this.link.main.hset(this.hash, user, record);
  }
  async delete(user: string): Promise<void> {
    await this.link.main.hdel(this.hash, user);
  }
}

/** What a user may know of their registered key. */
export interface KeyInfo {
  registered: boolean;
  /** ISO time of registration. */
  since?: string;
  /** The key's last four characters (the taskpane's "••••1a2b"). */
  last4?: string;
}

interface Sealed {
  v: 1;
  iv: string;
  tag: string;
  data: string;
  at: number;
  last4: string;
}

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
  let text: string;
  try {
    if (statSync(file).size > 1_024) throw new Error("it is over 1 KB: not a key file");
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new Error(
      `the key-encryption key file ${file} cannot be read: ${code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : (error as Error).message}`
    );
  }
  return parseKek(text, `the key-encryption key file ${file}`);
}

/** What a key may look like: what the service's keys look like, bounded. */
export function serviceKeyProblem(key: string): string | undefined {
  if (key === "") return "The key is empty: paste your service key.";
  if (key.length > 512) return "That is too long to be a service key.";
  if (!/^[\x21-\x7e]+$/.test(key))
    return "The key contains spaces or other characters a service key has not: paste it exactly as shown on your account page.";
  return undefined;
}

export class UserKeys {
  /** user -> (record version, key id) for a second: one Redis read per user, not per request. */
  private readonly ids = new Map<string, { at: number; id: string | undefined }>();

  constructor(
    private readonly records: KeyRecords,
    private readonly kek: Buffer,
    private readonly now: () => number = Date.now,
    /**
     * How long a process trusts what it read: another process may register or forget a key meanwhile. A second
     * keeps Redis to one read per user per second under a refresh, and a change applies everywhere within it.
     */
    private readonly freshMs = 1_000
  ) {
    if (kek.length !== 32) throw new Error("the key-encryption key must be 32 bytes");
  }

  private seal(user: string, key: string): Sealed {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.kek, iv);
    cipher.setAAD(Buffer.from(user, "utf8"));
    const data = Buffer.concat([cipher.update(key, "utf8"), cipher.final()]);
    return {
      v: 1,
      iv: iv.toString("base64"),
      tag: cipher.getAuthTag().toString("base64"),
      data: data.toString("base64"),
      at: this.now(),
      last4: key.slice(-4),
    };
  }

  private static parse(text: string | undefined): Sealed | undefined {
    if (text === undefined) return undefined;
    try {
      const parsed = JSON.parse(text) as Sealed;
      return parsed.v === 1 && typeof parsed.iv === "string" ? parsed : undefined;
    } catch {
      return undefined;
    }
  }

  /** Registers (or replaces) `user`'s key. */
  async register(user: string, key: string): Promise<void> {
    const problem = serviceKeyProblem(key);
    if (problem) throw new Error(problem);
    await this.records.set(user, JSON.stringify(this.seal(user, key)));
    this.ids.delete(user);
  }

  async remove(user: string): Promise<void> {
    await this.records.delete(user);
    this.ids.delete(user);
  }

  async info(user: string): Promise<KeyInfo> {
    const sealed = UserKeys.parse(await this.records.get(user));
    return sealed
      ? { registered: true, since: new Date(sealed.at).toISOString(), last4: sealed.last4 }
      : { registered: false };
  }

  /**
   * The id of the lane serving `user`'s key, or undefined when none is registered. The id changes when the
   * key is replaced (it names the record's IV), so every process moves to the new key on its next read.
   */
  async idFor(user: string): Promise<string | undefined> {
    const known = this.ids.get(user);
    if (known && this.now() - known.at < this.freshMs) return known.id;
    const sealed = UserKeys.parse(await this.records.get(user));
    const id = sealed
      ? `user:${createHash("sha256").update(`${user}\n${sealed.iv}`).digest("hex").slice(0, 24)}`
      : undefined;
    this.ids.set(user, { at: this.now(), id });
    return id;
  }

  /** The key itself, for the gateway's upstream calls only; undefined when none (or it cannot be decrypted). */
  async reveal(user: string): Promise<string | undefined> {
    const sealed = UserKeys.parse(await this.records.get(user));
    if (!sealed) return undefined;
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.kek, Buffer.from(sealed.iv, "base64"));
      decipher.setAAD(Buffer.from(user, "utf8"));
      decipher.setAuthTag(Buffer.from(sealed.tag, "base64"));
      return Buffer.concat([
        decipher.update(Buffer.from(sealed.data, "base64")),
        decipher.final(),
      ]).toString("utf8");
    } catch {
      // Another key-encryption key, or a record altered: the key is unusable (the user registers it again).
      return undefined;
    }
  }
}
