/**
 * Keeping the API key out of everything the client lets escape: messages, causes, events, logs.
 * The key only ever travels in the Authorization header handed to fetch; everything else that could
 * carry it (a server echoing headers in an error body, a fetch error quoting a request) goes through here.
 *
 * A service that echoes the key rarely echoes it whole and exactly: a debug page cuts it, a log excerpt
 * upper-cases it, a wrapped line breaks it. So what is redacted is every run of 8 or more of the key's
 * characters in order (any stretch of the key, not only the whole of it), compared without case, with
 * whitespace, control and invisible formatting characters between them ignored. A key shorter than 8
 * characters is redacted when it appears whole. Texts are redacted before they are shortened (snippet).
 */

export const REDACTED = "[REDACTED]";

// Secrets shorter than this would redact ordinary words; real keys are far longer.
const MIN_SECRET_LENGTH = 4;
/** The longest stretch of the key that may remain in a text: 7 characters give nothing away. */
const MIN_RUN = 8;

/** Whitespace, C0/C1 controls, zero-width and bidirectional formatting characters: skipped inside a run. */
function isSeparator(c: number): boolean {
  return (
    c <= 0x20 ||
    (c >= 0x7f && c <= 0xa0) ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200f) ||
    (c >= 0x2028 && c <= 0x202f) ||
    (c >= 0x205f && c <= 0x206f) ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

function fold(c: number): number {
  if (c >= 0x41 && c <= 0x5a) return c + 0x20;
  if (c < 0x80) return c;
  return String.fromCharCode(c).toLowerCase().charCodeAt(0);
}

/** Where each character occurs in the key, as flat arrays (the scan's hot loop allocates nothing). */
interface KeyIndex {
  /** Positions of folded character c are positions[first[c] .. first[c + 1]) for ASCII c. */
  first: Int32Array;
  positions: Int32Array;
  /** Positions of other characters (keys are ASCII in practice). */
  other: Map<number, Int32Array>;
  ascii: boolean;
  /** Most occurrences of one character: the most runs alive at once. */
  most: number;
}

function indexKey(key: readonly number[]): KeyIndex {
  const first = new Int32Array(0x81);
  const other = new Map<number, number[]>();
  for (const c of key) {
    if (c < 0x80) first[c + 1]++;
    else other.set(c, []);
  }
  for (let c = 0; c < 0x80; c++) first[c + 1] += first[c];
  const positions = new Int32Array(first[0x80]);
  const fill = first.slice(0, 0x80);
  key.forEach((c, i) => {
    if (c < 0x80) positions[fill[c]++] = i;
    else other.get(c)?.push(i);
  });
  let most = 1;
  for (let c = 0; c < 0x80; c++) most = Math.max(most, first[c + 1] - first[c]);
  for (const list of other.values()) most = Math.max(most, list.length);
  return {
    first,
    positions,
    other: new Map([...other].map(([c, list]) => [c, Int32Array.from(list)])),
    ascii: other.size === 0,
    most,
  };
}

const NONE = new Int32Array(0);

/**
 * Calls `found(start, end)` for every maximal run of the secret in `text` (see the module comment; runs
 * may overlap and come in any order); stops early when `found` returns true. Linear in the text: the runs
 * alive after a character are at most its occurrences in the key (one per key position; of two runs
 * expecting the same position, the longer wins), kept in typed arrays swapped at each step.
 */
function scanRuns(
  text: string,
  secret: string,
  found: (start: number, end: number) => boolean | void
): void {
  const key = Array.from(secret, (ch) => fold(ch.charCodeAt(0)));
  const minRun = Math.min(MIN_RUN, key.length);
  const index = indexKey(key);
  const { first, positions } = index;
  // Runs alive before (prev*) and after (cur*) the current character: the key index each expects next,
  // its length, its span in the text.
  let prevNext = new Int32Array(index.most);
  let prevLen = new Int32Array(index.most);
  let prevStart = new Int32Array(index.most);
  let prevEnd = new Int32Array(index.most);
  let curNext = new Int32Array(index.most);
  let curLen = new Int32Array(index.most);
  let curStart = new Int32Array(index.most);
  let curEnd = new Int32Array(index.most);
  const extended = new Uint8Array(index.most);
  let prevCount = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const raw = text.charCodeAt(i);
    if (isSeparator(raw)) continue;
    let from = 0;
    let to = 0;
    let list = positions;
    if (raw < 0x80) {
      const c = fold(raw);
      from = first[c];
      to = first[c + 1];
    } else if (!index.ascii) {
      // With an ASCII key no other character can match: every run breaks here.
      list = index.other.get(fold(raw)) ?? NONE;
      to = list.length;
    }
    for (let q = 0; q < prevCount; q++) extended[q] = 0;
    let count = 0;
    for (let k = from; k < to; k++) {
      const p = list[k];
      let length = 1;
      let start = i;
      for (let q = 0; q < prevCount; q++) {
        if (prevNext[q] === p) {
          length = prevLen[q] + 1;
          start = prevStart[q];
          extended[q] = 1;
        }
      }
      curNext[count] = p + 1;
      curLen[count] = length;
      curStart[count] = start;
      curEnd[count] = i + 1;
      count++;
    }
    for (let q = 0; q < prevCount; q++) {
      if (extended[q] === 0 && prevLen[q] >= minRun && found(prevStart[q], prevEnd[q]) === true)
        return;
    }
    let swap = prevNext;
    prevNext = curNext;
    curNext = swap;
    swap = prevLen;
    prevLen = curLen;
    curLen = swap;
    swap = prevStart;
    prevStart = curStart;
    curStart = swap;
    swap = prevEnd;
    prevEnd = curEnd;
    curEnd = swap;
    prevCount = count;
  }
  for (let q = 0; q < prevCount; q++) {
    if (prevLen[q] >= minRun && found(prevStart[q], prevEnd[q]) === true) return;
  }
}

function usable(secrets: readonly (string | undefined)[]): string[] {
  return secrets.filter((s): s is string => !!s && s.length >= MIN_SECRET_LENGTH);
}

/** Replace every run of each secret (see the module comment) with a marker. */
export function redactRuns(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of usable(secrets)) {
    const found: Array<[number, number]> = [];
    scanRuns(out, secret, (start, end) => void found.push([start, end]));
    if (found.length === 0) continue;
    const parts: string[] = [];
    let from = 0;
    for (const [start, end] of found.sort((a, b) => a[0] - b[0])) {
      if (end <= from) continue;
      if (start >= from) parts.push(out.slice(from, start), REDACTED);
      from = end;
    }
    parts.push(out.slice(from));
    out = parts.join("");
  }
  return out;
}

/** True when a run of any secret (as redactRuns finds them) appears in the text. */
export function hasSecretRun(text: string, secrets: readonly (string | undefined)[]): boolean {
  for (const secret of usable(secrets)) {
    let hit = false;
    scanRuns(text, secret, () => (hit = true));
    if (hit) return true;
  }
  return false;
}

/** Replace every run of each secret, and any `Bearer <token>`, with a marker. */
export function redact(text: string, secrets: readonly (string | undefined)[] = []): string {
  // A bearer token is a secret even when we do not know it (a key that was replaced at runtime).
  return redactRuns(text, secrets).replace(/(Bearer)\s+[^\s"',;]+/gi, `$1 ${REDACTED}`);
}

/** True when any secret (a run of it, as redact finds them) or a bearer token appears in the text. */
export function containsSecret(text: string, secrets: readonly (string | undefined)[]): boolean {
  return hasSecretRun(text, secrets) || /Bearer\s+[^\s"',;]+/i.test(text);
}

/**
 * A short, single-line, printable excerpt of an untrusted body for an error message: secrets redacted
 * first (on the whole text, so that cutting cannot leave a stretch of the key behind), then control
 * characters dropped, whitespace collapsed, and cut at `max` characters.
 */
export function snippet(text: string, secrets: readonly (string | undefined)[], max = 80): string {
  // eslint-disable-next-line no-control-regex
  const flat = redact(text, secrets).replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ");
  const collapsed = flat.replace(/\s+/g, " ").trim();
  return collapsed.length > max ? `${collapsed.slice(0, max)}…` : collapsed;
}

/**
 * The cause to attach to an error. The original is kept (its class and stack help debugging) unless
 * the key shows anywhere in it or its own causes; then a redacted copy stands in for it.
 */
export function sanitizeCause(cause: unknown, secrets: readonly (string | undefined)[]): unknown {
  if (usable(secrets).length === 0) return cause;
  return sanitizeAt(cause, secrets, 0);
}

function sanitizeAt(
  cause: unknown,
  secrets: readonly (string | undefined)[],
  depth: number
): unknown {
  if (cause === undefined || cause === null) return cause;
  if (typeof cause === "string") return redact(cause, secrets);
  if (!(cause instanceof Error)) {
    const text = safeStringify(cause);
    return containsSecret(text, secrets) ? redact(text, secrets) : cause;
  }
  const inner = depth < 4 ? sanitizeAt(cause.cause, secrets, depth + 1) : undefined;
  const leaks =
    containsSecret(cause.message, secrets) ||
    containsSecret(cause.stack ?? "", secrets) ||
    inner !== cause.cause;
  if (!leaks) return cause;
  const copy = new Error(
    redact(cause.message, secrets),
    inner === undefined ? {} : { cause: inner }
  );
  copy.name = cause.name;
  copy.stack = redact(cause.stack ?? "", secrets);
  return copy;
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
