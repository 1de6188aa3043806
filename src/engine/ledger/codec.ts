/**
 * The ledger as text: one line per answer (a request, at the instant it arrived), holding its changes of every
 * series it brought.
 *
 *   <seal> {"v":1,"t":SEEN_AT,"r":REQUEST,"s":[[PROJECT,METRIC(,PRODUCT(,FILTER))],…],"c":[[S,DAY,BEFORE,AFTER,AGO(,DIM)],…]}
 *
 * SEEN_AT is when the changes were seen (ms since epoch); S the index of the change's series in `s`; AGO how many
 * whole seconds before SEEN_AT's second its `before` had been first seen, that instant rounded up to its second:
 * read back, it is the end of the second it was first seen in, never earlier than the real one (a figure is never
 * claimed known before it was) and never later than a vintage= or a lineage row rounded up to the second after
 * it (a value shown at 09:30:12.4 is known at 09:30:13Z, as the row says); -1 when both fall in one second
 * (read back as SEEN_AT itself); DIM the breakdown member, left out
 * when "", as are a series' product and filter when "". One metric asked of fifty projects is one line, its
 * series named once each. The seal is a digest of
 * the JSON text exactly as written (the host's: SHA-256 on a laptop, an HMAC with the gateway's secret in Redis).
 *
 * Everything read back is untrusted: a line whose seal does not match, that does not parse, or whose members are
 * not exactly what is written here (finite values, whole days and instants within bounds, texts of bounded
 * length) is refused, and the caller drops the segment holding it (ledger.ts): a damaged ledger is never
 * trusted, in part or in whole.
 */
import { seriesId, type Change, type FigureValue, type SeriesRef } from "./types";

const LEDGER_LINE_VERSION = 1;

/** Makes a line's seal from its JSON text; sealed lines are checked with the same function. */
export type LedgerSeal = (text: string) => Promise<string>;

/** SHA-256 (Web Crypto: in every browser and in Node), hex, the first 128 bits: corruption, not attackers. */
export const sha256Seal: LedgerSeal = async (text) => {
  const digest = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return hex(new Uint8Array(digest)).slice(0, 32);
};

/** An HMAC-SHA-256 seal under `secret` (the gateway's): a line written by anyone without it is refused. */
export function hmacSeal(secret: Uint8Array<ArrayBuffer>): LedgerSeal {
  const key = globalThis.crypto.subtle.importKey(
    "raw",
    secret,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"]
  );
  return async (text) => {
    const mac = await globalThis.crypto.subtle.sign(
      "HMAC",
      await key,
      new TextEncoder().encode(text)
    );
    return hex(new Uint8Array(mac)).slice(0, 32);
  };
}

function hex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

/** Bounds of what a line may hold; anything beyond is refused as damaged. */
export const LINE_LIMITS = {
  /** A request's description (the engine's are under 150 characters). */
  requestChars: 300,
  /** An id, a filter text, a breakdown member. */
  idChars: 200,
  /** A line's text: CHANGES_PER_LINE changes of long ids and members. */
  lineChars: 8_000_000,
} as const;

/**
 * Changes written on one line at most: 5,000 (about 300 kB), so that a refill of years of days comes in lines a
 * segment can be trimmed by (ledger.ts), and a reader never holds one huge text.
 */
export const CHANGES_PER_LINE = 5_000;

/** Days the ledger accepts: 1970 to 2200 (a service day outside is no day of its data). */
const MAX_DAY = 84_000;
/** Instants: from 2000 on (no ledger was written before) to a day past the reader's clock. */
const MIN_INSTANT = Date.UTC(2000, 0, 1);
const CLOCK_SKEW_MS = 86_400_000;

/** [project, metric, product, filter], the empty ones at the end left out. */
type SeriesJson = string[];

function seriesJson(s: SeriesRef): SeriesJson {
  const out = [s.projectId, s.metricId, s.productId, s.filter];
  while (out[out.length - 1] === "") out.pop();
  return out;
}
type ChangeJson =
  | [number, number, FigureValue, FigureValue, number]
  | [number, number, FigureValue, FigureValue, number, string];

/**
 * Whether a change can be written so that it reads back: ids and members within their length, a day and
 * instants within bounds, two different values. What could not be read back is never written (one such line
 * would get its whole segment refused).
 */
export function isWritable(ch: Change): boolean {
  const s = ch.series;
  return (
    s.projectId !== "" &&
    s.metricId !== "" &&
    [s.projectId, s.productId, s.metricId, s.filter, ch.dim].every(
      (x) => x.length <= LINE_LIMITS.idChars
    ) &&
    Number.isInteger(ch.day) &&
    ch.day >= 0 &&
    ch.day <= MAX_DAY &&
    isValue(ch.before) &&
    isValue(ch.after) &&
    ch.before !== ch.after &&
    Number.isSafeInteger(ch.seenAt) &&
    ch.seenAt >= MIN_INSTANT &&
    Number.isFinite(ch.beforeSeenAt) &&
    ch.beforeSeenAt >= MIN_INSTANT &&
    ch.beforeSeenAt <= ch.seenAt
  );
}

/**
 * The changes as lines: one per (request, series, instant), in the order first met. Each change's `before`
 * instant travels as whole seconds before the line's second (see the module comment). Changes that could not be read back (isWritable)
 * are left out and counted.
 */
export async function encodeLines(
  changes: readonly Change[],
  seal: LedgerSeal
): Promise<{ lines: string[]; skipped: number }> {
  const groups = new Map<string, { t: number; r: string; changes: Change[] }>();
  let skipped = 0;
  for (const ch of changes) {
    if (!isWritable(ch)) {
      skipped++;
      continue;
    }
    const id = JSON.stringify([ch.request, ch.seenAt]);
    let g = groups.get(id);
    if (!g) {
      g = { t: ch.seenAt, r: boundedText(ch.request, LINE_LIMITS.requestChars), changes: [] };
      groups.set(id, g);
    }
    g.changes.push(ch);
  }
  const texts: string[] = [];
  for (const g of groups.values()) {
    for (let i = 0; i < g.changes.length; i += CHANGES_PER_LINE) {
      const s: SeriesJson[] = [];
      const index = new Map<string, number>();
      // Callers pass one series object for all the changes of a series: its key text is made once.
      const byObject = new Map<SeriesRef, number>();
      const c: ChangeJson[] = [];
      for (const ch of g.changes.slice(i, i + CHANGES_PER_LINE)) {
        let si = byObject.get(ch.series);
        if (si === undefined) {
          const id = seriesId(ch.series);
          si = index.get(id);
          if (si === undefined) {
            index.set(id, (si = s.length));
            s.push(seriesJson(ch.series));
          }
          byObject.set(ch.series, si);
        }
        // Whole seconds from the second `before` was first seen in, rounded up, to the line's second: -1 when
        // both fall in one second (read back as the line's own instant).
        const ago = Math.max(-1, Math.floor(ch.seenAt / 1000) - Math.ceil(ch.beforeSeenAt / 1000));
        c.push(
          ch.dim === ""
            ? [si, ch.day, ch.before, ch.after, ago]
            : [si, ch.day, ch.before, ch.after, ago, ch.dim]
        );
      }
      texts.push(oneLineJson({ v: LEDGER_LINE_VERSION, t: g.t, r: g.r, s, c }));
    }
  }
  // Sealed together: a seal is asynchronous (Web Crypto), and one after another they wait in turn.
  const seals = await Promise.all(texts.map((text) => seal(text)));
  return { lines: texts.map((text, i) => `${seals[i]} ${text}`), skipped };
}

/**
 * JSON on one line: JSON.stringify escapes CR and LF but leaves U+2028 and U+2029 as they are, and editors,
 * JavaScript and many line readers end a line at them. An id may hold any character (the service's, or a
 * caller's), so both are written as escapes, which JSON.parse reads back as the same characters.
 */
function oneLineJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u2028\u2029]/g, (ch) =>
    ch === "\u2028" ? "\\u2028" : "\\u2029"
  );
}

/** A description cut to `max` characters, control characters made spaces (a line is one line). */
function boundedText(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, " ");
  return clean.length <= max ? clean : `${clean.slice(0, max - 1)}…`;
}

/** Why a line was refused. */
export type LineFault = "seal" | "malformed" | "version";

type DecodedLine = { changes: Change[] } | { fault: LineFault };

/** The changes of one line, or why it cannot be trusted. `now`: the reader's clock (no change from later). */
export async function decodeLine(
  line: string,
  seal: LedgerSeal,
  now: number
): Promise<DecodedLine> {
  if (line.length > LINE_LIMITS.lineChars) return { fault: "malformed" };
  const space = line.indexOf(" ");
  if (space <= 0) return { fault: "malformed" };
  const text = line.slice(space + 1);
  if (line.slice(0, space) !== (await seal(text))) return { fault: "seal" };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { fault: "malformed" };
  }
  if (!isRecord(json)) return { fault: "malformed" };
  if (json.v !== LEDGER_LINE_VERSION) return { fault: "version" };
  const t = json.t;
  if (!isInstant(t, now)) return { fault: "malformed" };
  if (!isText(json.r, LINE_LIMITS.requestChars)) return { fault: "malformed" };
  const list = json.s;
  if (!Array.isArray(list) || list.length === 0 || list.length > CHANGES_PER_LINE)
    return { fault: "malformed" };
  const series: SeriesRef[] = [];
  for (const item of list as unknown[]) {
    if (
      !Array.isArray(item) ||
      item.length < 2 ||
      item.length > 4 ||
      !item.every((x) => isText(x, LINE_LIMITS.idChars))
    )
      return { fault: "malformed" };
    const [projectId, metricId, productId = "", filter = ""] = item;
    // Written without its empty last members: one written out is not what this writes.
    if (projectId === "" || metricId === "" || item[item.length - 1] === "")
      return { fault: "malformed" };
    series.push({ projectId, productId, metricId, filter });
  }
  const c = json.c;
  if (!Array.isArray(c) || c.length === 0 || c.length > CHANGES_PER_LINE)
    return { fault: "malformed" };
  const used = new Set<number>();
  const changes: Change[] = [];
  for (const item of c as unknown[]) {
    if (!Array.isArray(item) || (item.length !== 5 && item.length !== 6))
      return { fault: "malformed" };
    const [si, day, before, after, ago, dim = ""] = item as unknown[];
    if (!Number.isInteger(si) || (si as number) < 0 || (si as number) >= series.length)
      return { fault: "malformed" };
    if (!Number.isInteger(day) || (day as number) < 0 || (day as number) > MAX_DAY)
      return { fault: "malformed" };
    if (!isValue(before) || !isValue(after) || before === after) return { fault: "malformed" };
    if (!Number.isSafeInteger(ago) || (ago as number) < -1) return { fault: "malformed" };
    const beforeSeenAt = Math.min(t, Math.floor(t / 1000) * 1000 - (ago as number) * 1000);
    if (beforeSeenAt < MIN_INSTANT) return { fault: "malformed" };
    if (!isText(dim, LINE_LIMITS.idChars) || (item.length === 6 && dim === ""))
      return { fault: "malformed" };
    used.add(si as number);
    changes.push({
      series: series[si as number],
      dim,
      day: day as number,
      before,
      after,
      beforeSeenAt,
      seenAt: t,
      request: json.r,
    });
  }
  // Written lines name only the series their changes use, once each.
  if (used.size !== series.length) return { fault: "malformed" };
  if (new Set(series.map(seriesId)).size !== series.length) return { fault: "malformed" };
  return { changes };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isInstant(value: unknown, now: number): value is number {
  return (
    Number.isSafeInteger(value) &&
    (value as number) >= MIN_INSTANT &&
    (value as number) <= now + CLOCK_SKEW_MS
  );
}

function isText(value: unknown, max: number): value is string {
  return typeof value === "string" && value.length <= max;
}

function isValue(value: unknown): value is FigureValue {
  return value === null || (typeof value === "number" && Number.isFinite(value));
}
