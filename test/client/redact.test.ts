import { base64Forms, containsSecret, redact, REDACTED, snippet } from "../../src/client/redact";
import { echoVariants, longestKeyRun } from "../harness/hostile/echo";
import { exposedKeyRun, hiddenVariants } from "../harness/hostile/hidden-key";

// 64 characters: every truncation from 8 to 64 is a different text.
const KEY = "cm_live_7Qx9Tb2LmZ4pRv8Wn3Ks6Hd1Yf5Gc0Je7Ua2Oi9Pl4Xt6Bq8Nw3Mr5Vz";

describe("redaction of the key", () => {
  it("leaves no run of 8 of the key's characters from any echo: whole, cut at 8..64 from either end, upper-cased, split by whitespace", () => {
    const variants = echoVariants(KEY);
    expect(variants.length).toBeGreaterThan(100);
    for (const variant of variants) {
      const text = `the service said: ${variant} (end)`;
      const clean = redact(text, [KEY]);
      // The variant in the comparison names the echo that leaked, if one does.
      expect([variant, longestKeyRun(clean, KEY) < 8]).toEqual([variant, true]);
      expect(clean).toContain(REDACTED);
      expect(clean.startsWith("the service said: ")).toBe(true);
      expect(clean.endsWith(" (end)")).toBe(true);
      expect(containsSecret(text, [KEY])).toBe(true);
    }
  });

  it("keeps text that shares fewer than 8 characters in a row with the key", () => {
    const text = "cm_live is a prefix; 7Qx9Tb2 is seven; Project aave, fees 2024-01-01";
    expect(redact(text, [KEY])).toBe(text);
    expect(containsSecret(text, [KEY])).toBe(false);
  });

  it("redacts a key split by control and invisible characters too", () => {
    const split = [...KEY].join("\u0000");
    expect(longestKeyRun(redact(`x ${split} y`, [KEY]).split("\u0000").join(""), KEY)).toBeLessThan(
      8
    );
    const zeroWidth = [...KEY].join("\u200b");
    expect(redact(zeroWidth, [KEY])).toBe(REDACTED);
  });

  it("redacts a whole short key and any bearer token", () => {
    expect(redact("key abcd efgh abcd", ["abcd"])).toBe(`key ${REDACTED} efgh ${REDACTED}`);
    expect(redact("Authorization: Bearer other-token-1", [KEY])).toBe(
      `Authorization: Bearer ${REDACTED}`
    );
  });

  it("redacts before it cuts: a snippet never ends on a stretch of the key", () => {
    for (let lead = 0; lead < 90; lead++) {
      const text = `${"x".repeat(lead)}${KEY}${"y".repeat(100)}`;
      const cut = snippet(text, [KEY], 80);
      expect(longestKeyRun(cut, KEY)).toBeLessThan(8);
    }
  });
});

describe("redaction of a hidden key", () => {
  it("leaves no run of 8 key characters when the key is split by invisible characters, full-width or base64-encoded", () => {
    const variants = hiddenVariants(KEY);
    expect(variants.length).toBeGreaterThan(15);
    for (const variant of variants) {
      const text = `debug: ${variant} (end)`;
      // The oracle sees the key in the text...
      expect([variant, exposedKeyRun(text, KEY)]).toEqual([variant, KEY.length]);
      const clean = redact(text, [KEY]);
      // ...and no run of 8 of its characters, however decoded, once redacted.
      expect([variant, exposedKeyRun(clean, KEY) < 8]).toEqual([variant, true]);
      expect(clean).toContain(REDACTED);
      expect(clean.startsWith("debug: ")).toBe(true);
      expect(containsSecret(text, [KEY])).toBe(true);
    }
  });

  it("redacts a soft-hyphenated key whole, leaving the words around it", () => {
    const shy = [...KEY].join("\u00ad");
    expect(redact(`key=${shy};`, [KEY])).toBe(`key=${REDACTED};`);
  });

  it("finds the key's base64 at each of the three byte alignments, standard and URL-safe", () => {
    const forms = base64Forms(KEY);
    expect(forms).toHaveLength(6);
    for (const lead of ["", "x", "xy", "xyz"]) {
      const encoded = Buffer.from(`${lead}${KEY}tail`).toString("base64");
      expect(exposedKeyRun(redact(encoded, [KEY]), KEY)).toBeLessThan(8);
      const url = Buffer.from(`${lead}${KEY}tail`).toString("base64url");
      expect(exposedKeyRun(redact(url, [KEY]), KEY)).toBeLessThan(8);
    }
  });

  it("keeps base64 and hex data that is not the key, and numbers, as they are", () => {
    const other = Buffer.from(
      "another secret entirely, 64 characters long for the comparison!"
    ).toString("base64");
    const body = `{"address":"0x52908400098527886e0f7030069857d2e4169ee7","blob":"${other}","fees":232787544.26598746}`;
    expect(redact(body, [KEY])).toBe(body);
    expect(containsSecret(body, [KEY])).toBe(false);
  });
});
