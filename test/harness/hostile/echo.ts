/**
 * The ways a service (a debug page, a proxy's error, a log excerpt) may quote the caller's key back: whole,
 * cut at every length from 8 to 64 characters from either end, upper-cased, and broken by whitespace. A
 * client that redacts only the exact key lets the others through.
 */
export function echoVariants(key: string): string[] {
  const out = new Set<string>([key, key.toUpperCase(), key.toLowerCase()]);
  for (let n = 8; n <= 64; n++) {
    out.add(key.slice(0, n));
    out.add(key.slice(-n));
  }
  for (const size of [3, 4, 5, 7]) {
    const parts = key.match(new RegExp(`.{1,${size}}`, "g")) ?? [];
    out.add(parts.join(" "));
    out.add(parts.join("\n"));
    out.add(parts.join("\t ").toUpperCase());
  }
  return [...out];
}

/** The longest run of the key's characters (case and whitespace ignored) found in `text`. */
export function longestKeyRun(text: string, key: string): number {
  const flat = text.replace(/\s+/g, "").toLowerCase();
  const k = key.toLowerCase();
  let best = 0;
  for (let start = 0; start < k.length; start++) {
    // Only runs longer than the best so far matter: grow from there.
    let len = best + 1;
    while (start + len <= k.length && flat.includes(k.slice(start, start + len))) {
      best = len;
      len++;
    }
  }
  return best;
}
