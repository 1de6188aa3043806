/**
 * Cached answers carry an HMAC (SHA-256) of their key and text under a secret of the gateway's, so that an entry
 * written into Redis by anyone else (a figure edited by hand, an entry moved under another key) is no entry: a
 * mismatch is a miss, and the answer is fetched again. The secret is derived (HKDF) from the team's service key,
 * which every process of the team holds and Redis never does: no new file to deploy, and changing the key
 * invalidates the cache with it.
 */
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";

export class Integrity {
  private readonly secret: Buffer;
  /** Entries refused (tests, metrics). */
  mismatches = 0;

  private readonly ledgerKey: Uint8Array<ArrayBuffer>;

  constructor(serviceKey: string) {
    this.ledgerKey = new Uint8Array(
      hkdfSync("sha256", serviceKey, "cryptometrics-gateway", "restatement ledger v1", 32)
    );
    this.secret = Buffer.from(
      hkdfSync("sha256", serviceKey, "cryptometrics-gateway", "cache entry integrity v2", 32)
    );
  }

  /**
   * The secret sealing the team's record of restatements (store/restatements.ts): derived apart from the
   * entries' secret, so that neither seal can stand for the other.
   */
  ledgerSecret(): Uint8Array<ArrayBuffer> {
    return this.ledgerKey;
  }

  private mac(key: string, text: string): string {
    return createHmac("sha256", this.secret).update(key).update("\n").update(text).digest("hex");
  }

  /** The text to store for `key`: its HMAC, then the text. */
  seal(key: string, text: string): string {
    return `${this.mac(key, text)}.${text}`;
  }

  /** The text stored for `key`, or undefined when its HMAC does not match (a miss). */
  open(key: string, sealed: string | undefined): string | undefined {
    if (sealed === undefined) return undefined;
    const dot = sealed.indexOf(".");
    if (dot !== 64) {
      this.mismatches++;
      return undefined;
    }
    const text = sealed.slice(dot + 1);
    const given = Buffer.from(sealed.slice(0, dot), "hex");
    const expected = Buffer.from(this.mac(key, text), "hex");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      this.mismatches++;
      return undefined;
    }
    return text;
  }
}
