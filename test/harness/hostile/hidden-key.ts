/**
 * The key as a service could hide it from a naive redactor: interleaved with invisible characters (soft
 * hyphens, zero-width spaces and joiners, word joiners, bidirectional marks, variation selectors, tags),
 * in full-width letters, or base64-encoded (whole, inside HTTP Basic credentials, URL-safe, at every byte
 * alignment). And the measure of what of it is still shown: an oracle written independently of the
 * client's redactor (Unicode property escapes and Node's own base64 decoder, not its tables and windows).
 */
import { longestKeyRun } from "./echo";

const INVISIBLES = [
  "\u00ad",
  "\u200b",
  "\u200c",
  "\u200d",
  "\u2060",
  "\u200e",
  "\ufeff",
  "\u034f",
  "\ufe0f",
  "\u{e0020}",
];

export function hiddenVariants(key: string): string[] {
  const out: string[] = [];
  for (const invisible of INVISIBLES) out.push([...key].join(invisible));
  // One invisible after every other character, mixed: what a text filter's hyphenation leaves.
  out.push(
    [...key].map((c, i) => (i % 2 === 0 ? c : `${c}${INVISIBLES[i % INVISIBLES.length]}`)).join("")
  );
  out.push(key.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)));
  for (const prefix of ["", "u", "us", "user:"]) {
    const bytes = Buffer.from(`${prefix}${key}`);
    out.push(bytes.toString("base64"), bytes.toString("base64url"));
  }
  out.push(`Basic ${Buffer.from(`api:${key}`).toString("base64")}`);
  // Wrapped as MIME does, every 8 characters.
  out.push(
    (
      Buffer.from(key)
        .toString("base64")
        .match(/.{1,8}/g) ?? []
    ).join("\r\n")
  );
  return out;
}

/** Characters a reader does not see, or reads past: removed before looking for the key. */
const UNSEEN = /[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Cc}\p{Z}\s]/gu;

/**
 * The longest run of the key's characters found in `text` once invisible characters are removed and
 * full-width forms read as ASCII, or in any base64 (or base64url) stretch of it decoded at any offset.
 */
export function exposedKeyRun(text: string, key: string): number {
  const seen = text.normalize("NFKC").replace(UNSEEN, "");
  let best = longestKeyRun(seen, key);
  for (const stretch of seen.match(/[A-Za-z0-9+/_-]{8,}/g) ?? []) {
    for (let offset = 0; offset < 4; offset++) {
      const decoded = Buffer.from(
        stretch.slice(offset).replace(/-/g, "+").replace(/_/g, "/"),
        "base64"
      );
      best = Math.max(best, longestKeyRun(decoded.toString("latin1"), key));
    }
  }
  return best;
}
