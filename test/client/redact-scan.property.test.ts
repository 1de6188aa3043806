/**
 * The redactor's scan against the rule it implements, written out the slow way: every stretch of 8 characters
 * of the text (skipping the ones a reader does not see, compared without case and with full-width letters as
 * ASCII) that is a stretch of the key or of one of its base64 forms is replaced, overlapping stretches as one.
 * No hashing, no ring, no characters skipped ahead: windows compared as strings. The texts mix pieces of the
 * key and of its base64 with JSON's punctuation, numbers, invisible characters, full-width and upper-cased
 * letters, and characters outside the BMP, so that the scan's short cuts (a bitmap of hashes, the characters
 * no form has) meet every kind of neighbour.
 */
import fc from "fast-check";
import { base64Forms, hasSecretRun, redactRuns, REDACTED } from "../../src/client/redact";
import { propertyRuns } from "../support/property-runs";

const WIDTH = 8;

/** Characters the rule skips (whitespace, controls, default-ignorable ones), a few of each kind. */
const UNSEEN = ["\u00ad", "\u200b", " ", "\n", "\u0000", "\ufeff", "\u{e0041}"];
const UNSEEN_SET = new Set(UNSEEN);

function foldCode(ch: string): string {
  const c = ch.codePointAt(0)!;
  if (c >= 0xff01 && c <= 0xff5e) return String.fromCharCode(c - 0xfee0).toLowerCase();
  // As compared: one code unit lower-cased ("İ" reads as "i"); a character outside the BMP as itself.
  return ch.length === 1 ? ch.toLowerCase()[0] : ch;
}

/** The rule, slowly: the text with every stretch of the key's forms replaced. */
function oracle(text: string, key: string): string {
  const forms = [key, ...base64Forms(key)].map((f) => [...f].map(foldCode).join(""));
  const windows = new Set<string>();
  for (const form of forms)
    for (let at = 0; at + WIDTH <= form.length; at++) windows.add(form.slice(at, at + WIDTH));
  // The characters read: each with where it starts and ends in the text.
  const seen: Array<{ code: string; start: number; end: number }> = [];
  for (let i = 0; i < text.length;) {
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    if (!UNSEEN_SET.has(ch)) seen.push({ code: foldCode(ch), start: i, end: i + ch.length });
    i += ch.length;
  }
  const spans: Array<[number, number]> = [];
  for (let k = 0; k + WIDTH <= seen.length; k++) {
    const window = seen
      .slice(k, k + WIDTH)
      .map((s) => s.code)
      .join("");
    if (!windows.has(window)) continue;
    const [start, end] = [seen[k].start, seen[k + WIDTH - 1].end];
    const last = spans.at(-1);
    if (last && start < last[1]) last[1] = end;
    else spans.push([start, end]);
  }
  let out = "";
  let from = 0;
  for (const [start, end] of spans) {
    out += text.slice(from, start) + REDACTED;
    from = end;
  }
  return out + text.slice(from);
}

const KEYS = [
  "cm_live_7Qx9Tb2LmZ4pRv8Wn3Ks6Hd1Yf5Gc0Je7Ua2Oi9Pl4Xt6Bq8Nw3Mr5Vz",
  "demo-key-0123456789",
  "A1b2C3d4E5",
];

/** A piece of a text: the key's or a form's, changed as a service might, or what a JSON body holds. */
function piece(key: string): fc.Arbitrary<string> {
  const forms = [key, ...base64Forms(key)];
  const slice = fc
    .tuple(fc.constantFrom(...forms), fc.nat(), fc.integer({ min: 1, max: 24 }))
    .map(([form, at, length]) => form.slice(at % form.length, (at % form.length) + length));
  const changed = fc
    .tuple(
      slice,
      fc.constantFrom("as is", "upper", "full-width", "split"),
      fc.constantFrom(...UNSEEN)
    )
    .map(([text, how, unseen]) => {
      if (how === "upper") return text.toUpperCase();
      if (how === "full-width")
        return text.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
      if (how === "split") return [...text].join(unseen);
      return text;
    });
  const json = fc.constantFrom(
    '{"',
    '":',
    '","',
    "},{",
    "[",
    "]",
    ".",
    ",",
    '"value":',
    "2024-01-01"
  );
  const other = fc.constantFrom("é", "中", "😀", "İ", "\u212a", "x", "Z", "_", "-", "+", "/", "=");
  const number = fc.double({ noNaN: true, noDefaultInfinity: true }).map(String);
  return fc.oneof(changed, changed, json, fc.constantFrom(...UNSEEN), other, number);
}

describe("the redactor's scan", () => {
  it.each(KEYS)("replaces exactly the stretches the rule names, in any text (key %s)", (key) => {
    fc.assert(
      fc.property(fc.array(piece(key), { maxLength: 40 }), (pieces) => {
        const text = pieces.join("");
        const expected = oracle(text, key);
        expect(redactRuns(text, [key])).toBe(expected);
        expect(hasSecretRun(text, [key])).toBe(expected !== text);
      }),
      { numRuns: propertyRuns(3000) }
    );
  });
});
