/** The covering array the readings matrix runs: every pair of values of every two switches, in few rows. */
import { READING_SWITCHES, READING_VALUES } from "../../src/simulator";
import { coveringArray, coversEveryPair } from "./covering";

const switches = READING_SWITCHES.map((s) => ({
  name: s.name,
  values: READING_VALUES[s.name],
}));

describe("the readings' covering array", () => {
  it("holds every pair of values of every two switches", () => {
    const rows = coveringArray(switches);
    expect(coversEveryPair(switches, rows)).toBe(true);
    // Every switch has each of its values somewhere (a pair implies it).
    for (const s of switches)
      for (const v of s.values) expect(rows.some((r) => r[s.name] === v)).toBe(true);
  });

  it("stays near the largest product of two switches' value counts, far below one run per pair", () => {
    const rows = coveringArray(switches);
    const counts = switches.map((s) => s.values.length).sort((a, b) => b - a);
    const pairs = switches.reduce(
      (n, s, i) =>
        n + switches.slice(i + 1).reduce((m, t) => m + s.values.length * t.values.length, 0),
      0
    );
    expect(rows.length).toBeGreaterThanOrEqual(counts[0] * counts[1]);
    expect(rows.length).toBeLessThanOrEqual(2 * counts[0] * counts[1]);
    expect(rows.length).toBeLessThan(pairs / 20);
  });

  it("is the same on every run", () => {
    expect(coveringArray(switches)).toEqual(coveringArray(switches));
  });

  it("finds a missing pair", () => {
    const small = [
      { name: "a", values: ["x", "y"] },
      { name: "b", values: ["p", "q"] },
    ];
    expect(
      coversEveryPair(small, [
        { a: "x", b: "p" },
        { a: "y", b: "q" },
      ])
    ).toBe(false);
    expect(coveringArray(small)).toHaveLength(4);
  });
});
