/**
 * Which service and key a saved answer belongs to. The namespace is the service's origin (shown by `cache
 * info`) and a SHA-256 hash of the base URL and the API key: answers fetched with one key are never served
 * to another, and the key itself is written nowhere (the hash of a random key reveals nothing of it).
 */
import type { ApiKeySource } from "../client";

/** Hex digest of a text; SHA-256 from Web Crypto by default (browsers and Node alike). */
export type Digest = (text: string) => Promise<string>;

const sha256Hex: Digest = async (text) => {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error("this runtime has no Web Crypto (crypto.subtle)");
  const bytes = new Uint8Array(await subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
};

/** 128 bits of the hash: collisions between a user's keys are out of the question, entries stay short. */
const HASH_CHARS = 32;

async function cacheNamespace(
  baseUrl: string,
  apiKey: string,
  digest: Digest = sha256Hex
): Promise<string> {
  const hash = await digest(`cryptometrics saved cache\n${baseUrl}\n${apiKey}`);
  return `${new URL(baseUrl).origin}#${hash.slice(0, HASH_CHARS)}`;
}

/**
 * The namespace of the key in use now (the taskpane's key is read afresh for every request, so a key pasted
 * later writes to its own namespace). No key: undefined, and nothing is read or saved.
 */
export function namespaceSource(
  baseUrl: string,
  apiKey: ApiKeySource,
  digest: Digest = sha256Hex
): () => Promise<string | undefined> {
  let last: { key: string; ns: Promise<string> } | undefined;
  return async () => {
    const key = typeof apiKey === "function" ? await apiKey() : apiKey;
    if (!key) return undefined;
    if (last?.key !== key) last = { key, ns: cacheNamespace(baseUrl, key, digest) };
    return last.ns;
  };
}
