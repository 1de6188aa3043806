import { containsSecret, redact, REDACTED, snippet } from "../../src/client/redact";
import { echoVariants, longestKeyRun } from "../../src/tools/hostile/echo";

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
