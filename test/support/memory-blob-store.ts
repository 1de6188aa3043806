/**
 * A BlobStore held in a Map, for engine tests: the interface's behaviour without a bound (the adapters'
 * own tests cover eviction). `texts` is open so a test can damage an entry or plant a foreign one.
 */
import type { BlobStore, BlobStoreUsage } from "../../src/engine/persistence";

export class MemoryBlobStore implements BlobStore {
  readonly texts = new Map<string, string>();
  reads = 0;
  /** Set to make every operation fail (or hang, with "hang"). */
  failure: Error | "hang" | undefined;

  private async gate(): Promise<void> {
    if (this.failure === "hang") return new Promise<void>(() => undefined);
    if (this.failure) throw this.failure;
  }

  async getMany(keys: readonly string[]): Promise<Map<string, string>> {
    this.reads++;
    await this.gate();
    const out = new Map<string, string>();
    for (const k of keys) {
      const text = this.texts.get(k);
      if (text !== undefined) out.set(k, text);
    }
    return out;
  }

  async setMany(entries: ReadonlyMap<string, string>): Promise<void> {
    await this.gate();
    for (const [k, v] of entries) this.texts.set(k, v);
  }

  async deleteMany(keys: readonly string[]): Promise<void> {
    await this.gate();
    for (const k of keys) this.texts.delete(k);
  }

  async clear(): Promise<void> {
    await this.gate();
    this.texts.clear();
  }

  async usage(): Promise<BlobStoreUsage> {
    let bytes = 0;
    for (const [k, v] of this.texts) bytes += Buffer.byteLength(k) + Buffer.byteLength(v);
    return { entries: this.texts.size, bytes, maxBytes: Infinity, location: "memory" };
  }

  /** The keys of one section ("series", "entry"). */
  keysOf(section: string): string[] {
    return [...this.texts.keys()].filter((k) => k.split("\u001f")[1] === section);
  }
}
