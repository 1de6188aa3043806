/**
 * Keeping the API key out of everything the client lets escape: messages, causes, events, logs.
 * The key only ever travels in the Authorization header handed to fetch; everything else that could
 * carry it (a server echoing headers in an error body, a fetch error quoting a request) goes through here.
 *
 * A service that echoes the key rarely echoes it whole and exactly: a debug page cuts it, a log excerpt
 * upper-cases it, a wrapped line breaks it, a proxy quotes it base64-encoded (as HTTP Basic credentials
 * are), a text filter hides soft hyphens or zero-width characters inside it. So what is redacted is every
 * run of 8 or more of the key's characters in order (any stretch of the key, not only the whole of it),
 * compared without case and with full-width letters read as their ASCII twins, with whitespace, control and
 * invisible characters between them ignored (every default-ignorable code point: soft hyphen, zero-width
 * and bidirectional formatting characters, variation selectors, tags...); and every run of 8 or more
 * characters of the key's base64 (standard or URL-safe, at any of the three byte alignments a key takes
 * inside a longer encoded text). A key shorter than 8 characters is redacted when it appears whole. Texts
 * are redacted before they are shortened (snippet).
 *
 * How: every window of 8 (non-ignorable) characters of the text is hashed as it slides and looked up
 * among the windows of the key and of its encoded forms (a bitmap first, then the characters): one pass,
 * a few table look-ups per character, whatever the number of forms. Measured on a 26 MB JSON body: 1.4 s
 * for the key alone with the former run-tracking scan, about 0.1 s for the key and its six base64 forms.
 * An ASCII character no form has (a quote, a colon, a comma) ends every window, and the scan jumps past
 * the characters before a later one (Horspool's skip): the simulator's answers (a long series, the
 * catalogues), 26.7 MB in all, took 241 ms before that skip and 98 ms after (plain Node, 2026-12).
 *
 * Where it runs: once per foreign text, where it enters what the client lets out (errors, events, logs, data):
 * each answer's body (http/response.ts: its excerpts are cut from the redacted text), each fetch failure taken
 * as a cause (http/transport.ts, http/exchange.ts), each server's Location (http/redirect.ts). The client's own
 * text (the URL it built, the caller's ids, its labels) never goes through a redactor that knows the key: the
 * key is kept out of it by structure (it only travels in the Authorization header, which nothing reports), and
 * a caller's text run through it would tell the caller whether a guess is part of the key. What is made of both
 * (an error's message) is not searched again: CryptometricsError only takes out `Bearer <token>`, by its shape.
 * test/client/redact-once.test.ts counts the passes: one per answer.
 */

export const REDACTED = "[REDACTED]";

// Secrets shorter than this would redact ordinary words; real keys are far longer.
const MIN_SECRET_LENGTH = 4;
/** The longest stretch of the key (or of its base64) that may remain in a text: 7 characters give nothing away. */
const MIN_RUN = 8;

/**
 * Characters skipped inside a run, BMP part: whitespace, C0/C1 controls and the default-ignorable and
 * format code points (Unicode's DerivedCoreProperties and category Cf), as ranges.
 */
const IGNORABLE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x0000, 0x0020],
  [0x007f, 0x00a0],
  [0x00ad, 0x00ad], // soft hyphen
  [0x034f, 0x034f], // combining grapheme joiner
  [0x0600, 0x0605],
  [0x061c, 0x061c],
  [0x06dd, 0x06dd],
  [0x070f, 0x070f],
  [0x0890, 0x0891],
  [0x08e2, 0x08e2],
  [0x115f, 0x1160],
  [0x1680, 0x1680],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x2000, 0x200f], // spaces, zero-width characters, LRM/RLM
  [0x2028, 0x202f], // separators, bidirectional embeddings and overrides
  [0x205f, 0x206f], // word joiner, invisible operators, bidirectional isolates
  [0x3000, 0x3000],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f], // variation selectors
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff0, 0xfffb],
];

let ignorableTable: Uint8Array | undefined;

/** 1 for each BMP code unit skipped inside a run (built once, on first use: 64 KB). */
function ignorable(): Uint8Array {
  if (ignorableTable) return ignorableTable;
  const table = new Uint8Array(0x10000);
  for (const [from, to] of IGNORABLE_RANGES) table.fill(1, from, to + 1);
  ignorableTable = table;
  return table;
}

/** Astral default-ignorable and format code points: musical formatting, shorthand controls, tags, selectors. */
function isIgnorableAstral(cp: number): boolean {
  return (
    (cp >= 0x1bca0 && cp <= 0x1bca3) ||
    (cp >= 0x1d173 && cp <= 0x1d17a) ||
    (cp >= 0xe0000 && cp <= 0xe0fff)
  );
}

/** Folded forms of non-ASCII code units, filled as met (0: not yet). */
const folded = new Uint16Array(0x10000);

/** The character as compared: lower case, full-width ASCII forms (U+FF01..U+FF5E) read as ASCII. */
function fold(c: number): number {
  if (c < 0x80) return c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
  if (c >= 0xff01 && c <= 0xff5e) return fold(c - 0xfee0);
  if (folded[c] === 0) folded[c] = String.fromCharCode(c).toLowerCase().charCodeAt(0);
  return folded[c];
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/**
 * The key's base64, standard and URL-safe, as it reads inside a longer encoded text: for each alignment
 * (0, 1 or 2 bytes before it), only the characters that depend on the key's bytes alone.
 */
export function base64Forms(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  const forms: string[] = [];
  for (let align = 0; align < 3; align++) {
    const padded = new Uint8Array(align + bytes.length);
    padded.set(bytes, align);
    let bits = "";
    for (const b of padded) bits += b.toString(2).padStart(8, "0");
    const first = Math.ceil((8 * align) / 6);
    const last = Math.floor(bits.length / 6);
    let text = "";
    for (let j = first; j < last; j++) text += BASE64[parseInt(bits.slice(6 * j, 6 * j + 6), 2)];
    forms.push(text, text.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return forms;
}

/** The folded texts whose windows are looked for: the secret and its encoded forms. */
function formsOf(secret: string): number[][] {
  const texts = secret.length >= MIN_RUN ? [secret, ...base64Forms(secret)] : [secret];
  return texts.map((t) => Array.from(t, (ch) => fold(ch.charCodeAt(0))));
}

const HASH_BASE = 0x01000193;

/** Hash of `width` folded characters, as the scan computes it while sliding. */
function hashOf(codes: ArrayLike<number>, from: number, width: number): number {
  let h = 0;
  for (let k = 0; k < width; k++) h = (Math.imul(h, HASH_BASE) + codes[from + k]) | 0;
  return h;
}

/**
 * Every window of `width` characters of the forms, by hash, with a bitmap of the hashes for a quick miss; and
 * the ASCII characters no form has (`stops`: 1 for each), which no window of a run can hold.
 */
interface WindowIndex {
  width: number;
  bitmap: Uint32Array;
  windows: Map<number, Array<{ form: number[]; at: number }>>;
  stops: Uint8Array;
}

const BITMAP_BITS = 1 << 16;

function indexWindows(forms: readonly number[][], width: number): WindowIndex {
  const bitmap = new Uint32Array(BITMAP_BITS / 32);
  const windows = new Map<number, Array<{ form: number[]; at: number }>>();
  for (const form of forms) {
    for (let at = 0; at + width <= form.length; at++) {
      const h = hashOf(form, at, width);
      const slot = h & (BITMAP_BITS - 1);
      bitmap[slot >>> 5] |= 1 << (slot & 31);
      const list = windows.get(h);
      if (list) list.push({ form, at });
      else windows.set(h, [{ form, at }]);
    }
  }
  // An ASCII character of the text that is not skipped (see `ignorable`) and that no form has, folded, ends
  // every run there: a JSON body's quotes, colons, commas and brackets, mostly. Other characters are never
  // taken as stops (always the safe side: a character that is no stop is only compared, and never matches).
  const inForms = new Set(forms.flat());
  const skip = ignorable();
  const stops = new Uint8Array(0x80);
  for (let c = 0; c < 0x80; c++) stops[c] = skip[c] === 0 && !inForms.has(fold(c)) ? 1 : 0;
  return { width, bitmap, windows, stops };
}

/** Whether the ring (its oldest character at `pos`) holds the form's window at `at`. */
function sameWindow(
  form: readonly number[],
  at: number,
  codes: Int32Array,
  pos: number,
  width: number
): boolean {
  for (let k = 0; k < width; k++) if (form[at + k] !== codes[(pos + k) % width]) return false;
  return true;
}

/** The index of the secret last asked for (a runtime has one key at a time; building one takes ~0.1 ms). */
let lastIndex: { secret: string; index: WindowIndex } | undefined;

function indexFor(secret: string): WindowIndex {
  if (lastIndex?.secret !== secret) {
    const width = Math.min(MIN_RUN, secret.length);
    lastIndex = { secret, index: indexWindows(formsOf(secret), width) };
  }
  return lastIndex.index;
}

/**
 * Calls `found(start, end)` for every stretch of `text` made of windows of the secret or its encoded forms
 * (overlapping windows merged, in text order); with `firstOnly`, for the first window found only.
 */
function scanRuns(
  text: string,
  secret: string,
  found: (start: number, end: number) => void,
  firstOnly = false
): void {
  const index = indexFor(secret);
  const width = index.width;
  const skip = ignorable();
  const { bitmap, windows, stops } = index;
  // The last `width` characters taken (folded) and where each starts in the text: a ring, `pos` its oldest.
  const codes = new Int32Array(width);
  const starts = new Int32Array(width);
  let pos = 0;
  // HASH_BASE^(width-1): what the oldest character weighs in the hash, to take it out.
  let outWeight = 1;
  for (let k = 1; k < width; k++) outWeight = Math.imul(outWeight, HASH_BASE);
  // Characters taken since the last stop: a window is looked up once it holds `width` of them only. (The
  // ring and the hash go on over a stop, consistent with what they were given; a window of the run is
  // whole once `run` reaches `width`.)
  let run = 0;
  let h = 0;
  let spanStart = -1;
  let spanEnd = -1;
  const n = text.length;
  // Read once: a global looked up in the loop costs ~30 times the loop's own work where the global object is
  // a proxy (jest's vm contexts, where the suite runs every answer through here).
  const imul = Math.imul;
  for (let i = 0; i < n; i++) {
    // Right after a stop, a stop `width - 1` further on is in every window that could start from here to
    // there (each takes at least `width` characters of the text): none of them is looked at.
    if (run === 0 && i + width - 1 < n) {
      const ahead = text.charCodeAt(i + width - 1);
      if (ahead < 0x80 && stops[ahead] === 1) {
        i += width - 1;
        continue;
      }
    }
    const raw = text.charCodeAt(i);
    if (skip[raw] === 1) continue;
    if (raw < 0x80 && stops[raw] === 1) {
      run = 0;
      continue;
    }
    const at = i;
    if (raw >= 0xd800 && raw <= 0xdbff && i + 1 < n) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        i++;
        if (isIgnorableAstral(((raw - 0xd800) << 10) + (low - 0xdc00) + 0x10000)) continue;
      }
    }
    const c = raw < 0x80 ? (raw >= 0x41 && raw <= 0x5a ? raw + 0x20 : raw) : fold(raw);
    // The oldest character leaves the window (its slot is the one written now), the new one enters.
    h = (imul((h - imul(codes[pos], outWeight)) | 0, HASH_BASE) + c) | 0;
    codes[pos] = c;
    starts[pos] = at;
    if (++pos === width) pos = 0;
    if (++run < width) continue;
    const bucket = h & (BITMAP_BITS - 1);
    if ((bitmap[bucket >>> 5] & (1 << (bucket & 31))) === 0) continue;
    const candidates = windows.get(h);
    if (!candidates || !candidates.some((w) => sameWindow(w.form, w.at, codes, pos, width)))
      continue;
    const start = starts[pos];
    const end = i + 1;
    if (firstOnly) return found(start, end);
    if (spanStart >= 0 && start < spanEnd) {
      spanEnd = end;
      continue;
    }
    if (spanStart >= 0) found(spanStart, spanEnd);
    spanStart = start;
    spanEnd = end;
  }
  if (spanStart >= 0) found(spanStart, spanEnd);
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
    scanRuns(text, secret, () => void (hit = true), true);
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
  // One pass over all the cause can show (messages and stacks down its chain): a copy is made on a hit only.
  // (The parts are joined by a line break, which a run skips: a run across two parts is found, and redacted
  // in each part as far as it reaches there.)
  if (!containsSecret(causeText(cause, 0), secrets)) return cause;
  return sanitizeAt(cause, secrets, 0);
}

/** Everything a cause can show, as sanitizeAt reads it. */
function causeText(cause: unknown, depth: number): string {
  if (cause === undefined || cause === null) return "";
  if (typeof cause === "string") return cause;
  if (!(cause instanceof Error)) return safeStringify(cause);
  const inner = depth < 4 ? causeText(cause.cause, depth + 1) : "";
  return `${cause.message}\n${cause.stack ?? ""}\n${inner}`;
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

/** A value as JSON for a message, or as String() when JSON has nothing for it or refuses it (a cycle, a BigInt). */
export function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
