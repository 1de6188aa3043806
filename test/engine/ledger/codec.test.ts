import fc from "fast-check";
import {
  CHANGES_PER_LINE,
  decodeLine,
  encodeLines,
  hmacSeal,
  isWritable,
  LINE_LIMITS,
  sha256Seal,
} from "../../../src/engine/ledger/codec";
import type { Change } from "../../../src/engine/ledger/types";
import { propertyRuns } from "../../support/property-runs";

const NOW = Date.UTC(2026, 10, 24, 9, 30);

const value = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer().map((n) => n),
  fc.constant(null)
);

/** Changes as the ledger records them, with ids and members the code has never seen. */
const change: fc.Arbitrary<Change> = fc
  .record({
    projectId: fc.string({ minLength: 1, maxLength: 40, unit: "binary" }),
    productId: fc.oneof(fc.constant(""), fc.string({ maxLength: 20, unit: "binary" })),
    metricId: fc.string({ minLength: 1, maxLength: 30 }),
    filter: fc.oneof(fc.constant(""), fc.string({ maxLength: 60 })),
    dim: fc.oneof(fc.constant(""), fc.constant("__proto__"), fc.string({ maxLength: 20 })),
    day: fc.integer({ min: 0, max: 84_000 }),
    before: value,
    after: value,
    agoMs: fc.integer({ min: 0, max: 400 * 86_400_000 }),
    seenAgo: fc.integer({ min: 0, max: 30 * 86_400_000 }),
    request: fc.string({ maxLength: 400, unit: "binary" }),
  })
  .filter((c) => c.before !== c.after)
  .map((c) => ({
    series: {
      projectId: c.projectId,
      productId: c.productId,
      metricId: c.metricId,
      filter: c.filter,
    },
    dim: c.dim,
    day: c.day,
    before: c.before,
    after: c.after,
    seenAt: NOW - c.seenAgo,
    beforeSeenAt: NOW - c.seenAgo - c.agoMs,
    request: c.request,
  }));

async function roundTrip(changes: Change[], seal = sha256Seal): Promise<Change[]> {
  const { lines, skipped } = await encodeLines(changes, seal);
  expect(skipped).toBe(0);
  const out: Change[] = [];
  for (const line of lines) {
    expect(line).not.toMatch(/[\n\r\u2028\u2029]/);
    const decoded = await decodeLine(line, seal, NOW);
    if (!("changes" in decoded)) throw new Error(`refused: ${decoded.fault}`);
    for (const c of decoded.changes) out.push(c);
  }
  return out;
}

describe("the ledger's lines", () => {
  it("read back every change as written, its `before` instant never earlier than it was (within a second)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 20 }), async (changes) => {
        const back = await roundTrip(changes);
        expect(back).toHaveLength(changes.length);
        const key = (c: Change) =>
          JSON.stringify([c.series, c.dim, c.day, c.before, c.after, c.seenAt]);
        const byKey = new Map(back.map((c) => [key(c), c]));
        for (const c of changes) {
          const b = byKey.get(key(c));
          expect(b).toBeDefined();
          expect(b!.beforeSeenAt).toBeGreaterThanOrEqual(c.beforeSeenAt);
          expect(b!.beforeSeenAt - c.beforeSeenAt).toBeLessThan(1000);
          // A request's description is kept to its bound, on one line.
          expect(b!.request.length).toBeLessThanOrEqual(LINE_LIMITS.requestChars);
        }
      }),
      { numRuns: propertyRuns(200) }
    );
  });

  it("write ids holding line and paragraph separators on one line, and read them back as they were", async () => {
    const odd: Change = {
      series: { projectId: "a\u2028b", productId: "\u2029", metricId: "fees", filter: "" },
      dim: "chain\u2028x",
      day: 20_000,
      before: 1,
      after: 2,
      seenAt: NOW,
      beforeSeenAt: NOW - 86_400_000,
      request: "GET /projects",
    };
    const back = await roundTrip([odd]);
    expect(back.map((c) => [c.series, c.dim])).toEqual([[odd.series, odd.dim]]);
  });

  it("refuse a line with any one character changed, dropped or added", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(change, { minLength: 1, maxLength: 3 }),
        fc.nat(),
        fc.constantFrom("change", "drop", "add"),
        fc.string({ minLength: 1, maxLength: 1 }),
        async (changes, at, how, ch) => {
          const [line] = (await encodeLines(changes, sha256Seal)).lines;
          const i = at % line.length;
          const damaged =
            how === "drop"
              ? line.slice(0, i) + line.slice(i + 1)
              : how === "add"
                ? line.slice(0, i) + ch + line.slice(i)
                : line.slice(0, i) + (line[i] === ch ? "\u0001" : ch) + line.slice(i + 1);
          fc.pre(damaged !== line);
          expect(await decodeLine(damaged, sha256Seal, NOW)).toHaveProperty("fault");
        }
      ),
      { numRuns: propertyRuns(200) }
    );
  });

  it("refuse well-sealed lines whose members are out of bounds, as a tampered store would hold them", async () => {
    const good = {
      v: 1,
      t: NOW,
      r: "GET /v2/metrics/fees for 2 projects",
      s: [
        ["aave", "fees"],
        ["gmx", "fees", "", "chains=base"],
      ],
      c: [
        [0, 20_000, 1, 2, 60],
        [1, 20_000, 3, null, 60, "base"],
      ],
    };
    const sealed = async (json: unknown) => {
      const text = JSON.stringify(json);
      return `${await sha256Seal(text)} ${text}`;
    };
    expect(await decodeLine(await sealed(good), sha256Seal, NOW)).toEqual({
      changes: [
        expect.objectContaining({
          series: expect.objectContaining({ projectId: "aave" }),
          dim: "",
        }),
        expect.objectContaining({
          series: expect.objectContaining({ projectId: "gmx" }),
          dim: "base",
        }),
      ],
    });
    const one = (change: unknown[]) => ({ ...good, s: [good.s[0]], c: [change] });
    const bad: Array<[string, unknown]> = [
      ["another version", { ...good, v: 2 }],
      ["a change seen tomorrow and more", { ...good, t: NOW + 2 * 86_400_000 }],
      ["a change seen before 2000", { ...good, t: Date.UTC(1999, 0, 1) }],
      ["no project", { ...good, s: [["", "fees"], good.s[1]] }],
      ["no metric", { ...good, s: [["aave"], good.s[1]] }],
      ["five ids", { ...good, s: [["aave", "fees", "", "", "x"], good.s[1]] }],
      ["an empty id written out at the end", { ...good, s: [["aave", "fees", ""], good.s[1]] }],
      ["an id past its bound", { ...good, s: [["a".repeat(201), "fees"], good.s[1]] }],
      ["a series named twice", { ...good, s: [good.s[0], good.s[0]] }],
      ["a series no change uses", { ...good, s: [...good.s, ["uniswap", "fees"]] }],
      ["a change of a series not named", one([1, 20_000, 1, 2, 60])],
      ["no change", { ...good, c: [] }],
      ["a day that is no day", one([0, 20_000.5, 1, 2, 60])],
      ["a value that is text", one([0, 20_000, "1", 2, 60])],
      ["a change to the same value", one([0, 20_000, 2, 2, 60])],
      ["a first sighting after the change was seen (age -2)", one([0, 20_000, 1, 2, -2])],
      ["an empty member written out", one([0, 20_000, 1, 2, 60, ""])],
      ["a member that is not text", one([0, 20_000, 1, 2, 60, 7])],
      ["a list, not an object", [good]],
    ];
    for (const [why, json] of bad) {
      const decoded = await decodeLine(await sealed(json), sha256Seal, NOW);
      expect([why, decoded]).toEqual([why, { fault: expect.any(String) }]);
    }
    expect(await decodeLine("no-seal-here", sha256Seal, NOW)).toEqual({ fault: "malformed" });
    expect(await decodeLine(`abc ${JSON.stringify(good)}`, sha256Seal, NOW)).toEqual({
      fault: "seal",
    });
  });

  it("under an HMAC seal, refuse lines sealed without the secret, or with another", async () => {
    const changes = fc.sample(change, 1);
    const mine = hmacSeal(new TextEncoder().encode("the gateway's secret"));
    const theirs = hmacSeal(new TextEncoder().encode("another secret"));
    const { lines } = await encodeLines(changes, mine);
    expect(await decodeLine(lines[0], mine, NOW)).toHaveProperty("changes");
    expect(await decodeLine(lines[0], theirs, NOW)).toEqual({ fault: "seal" });
    expect(await decodeLine(lines[0], sha256Seal, NOW)).toEqual({ fault: "seal" });
    const forged = (await encodeLines(changes, sha256Seal)).lines[0];
    expect(await decodeLine(forged, mine, NOW)).toEqual({ fault: "seal" });
  });

  it("leave out, and count, changes that could not be read back, so none of them costs its neighbours", async () => {
    const [ok] = fc.sample(change, { numRuns: 1, seed: 7 });
    const tooLong = { ...ok, series: { ...ok.series, projectId: "p".repeat(201) } };
    const noDay = { ...ok, day: -1 };
    const same = { ...ok, after: ok.before };
    const ancient = { ...ok, beforeSeenAt: Date.UTC(1990, 0, 1) };
    for (const c of [tooLong, noDay, same, ancient]) expect(isWritable(c)).toBe(false);
    const { lines, skipped } = await encodeLines([tooLong, ok, noDay, same, ancient], sha256Seal);
    expect(skipped).toBe(4);
    expect(lines).toHaveLength(1);
    expect(await decodeLine(lines[0], sha256Seal, NOW)).toEqual({ changes: [expect.anything()] });
  });

  it("group one answer's changes on a line, its series named once, and split a refill of years across lines", async () => {
    const [base] = fc.sample(change, { numRuns: 1, seed: 3 });
    const many: Change[] = Array.from({ length: CHANGES_PER_LINE + 10 }, (_, i) => ({
      ...base,
      dim: "",
      day: 10_000 + i,
      before: i,
      after: i + 0.5,
    }));
    const { lines } = await encodeLines(many, sha256Seal);
    expect(lines).toHaveLength(2);
    expect(await roundTrip(many)).toHaveLength(many.length);
  });
});
