/**
 * The ledger end to end against an oracle: a service whose figures change at random between answers, a cache
 * that holds what each answer said (compared first: compare.ts, seen.ts), the ledger recording and sealing every
 * change through a store and reading it back (ledger.ts, codec.ts), and for every figure and every instant, the
 * value known then (timeline.ts) held against what the cache really showed at that instant.
 */
import fc from "fast-check";
import { compareRange, type HeldFigure } from "../../../src/engine/ledger/compare";
import { RestatementLedger } from "../../../src/engine/ledger/ledger";
import { NO_RUNS, seenAt, spliceRuns, type SeenRuns } from "../../../src/engine/ledger/seen";
import { MemoryLedgerStore } from "../../../src/engine/ledger/store";
import type { FigureValue, SeriesRef } from "../../../src/engine/ledger/types";
import { propertyRuns } from "../../support/property-runs";

const T0 = Date.UTC(2026, 10, 20, 8);
const DAY0 = 20_400;
const DAYS = 24;

/** Something the service does between two answers: restate a day, blank it, drop it. */
const edit = fc.record({
  day: fc.integer({ min: 0, max: DAYS - 1 }),
  to: fc.oneof(
    fc.double({ min: -1e9, max: 1e9, noNaN: true, noDefaultInfinity: true }),
    fc.constant(null),
    fc.constant("gone" as const)
  ),
});

const step = fc.record({
  edits: fc.array(edit, { maxLength: 6 }),
  from: fc.integer({ min: 0, max: DAYS - 1 }),
  span: fc.integer({ min: 0, max: DAYS }),
  // Seconds after the previous answer (whole seconds: the ledger keeps `before` instants to the second).
  after: fc.integer({ min: 1, max: 90_000 }),
});

const seriesArb: fc.Arbitrary<SeriesRef> = fc.record({
  // Ids the code has never seen: any text, separators and quotes included.
  projectId: fc.string({ minLength: 1, maxLength: 12, unit: "binary" }),
  productId: fc.oneof(fc.constant(""), fc.string({ maxLength: 8 })),
  metricId: fc.string({ minLength: 1, maxLength: 10 }),
  filter: fc.oneof(fc.constant(""), fc.constant("chains=base|ethereum; bridged=false")),
});

describe("the value known at any instant", () => {
  it("is what the cache showed then, through restatements, blanks and dropped days, after a trip through the store", async () => {
    await fc.assert(
      fc.asyncProperty(
        seriesArb,
        fc.dictionary(
          fc.integer({ min: 0, max: DAYS - 1 }).map(String),
          fc.double({ min: -1e9, max: 1e9, noNaN: true, noDefaultInfinity: true })
        ),
        fc.array(step, { minLength: 1, maxLength: 10 }),
        async (series, initial, steps) => {
          let now = T0;
          const store = new MemoryLedgerStore();
          const ledger = new RestatementLedger({
            store,
            namespace: async () => "ns",
            now: () => now,
          });
          const truth = new Map<number, FigureValue>(
            Object.entries(initial).map(([d, v]) => [DAY0 + Number(d), v])
          );
          const held = new Map<number, FigureValue>();
          let runs: SeenRuns = NO_RUNS;
          // What the cache showed for each day: [instant, value] from each answer that changed it.
          const shown = new Map<number, Array<[number, FigureValue]>>();
          const answers: number[] = [];
          for (const s of steps) {
            now += s.after * 1000;
            for (const e of s.edits) {
              if (e.to === "gone") truth.delete(DAY0 + e.day);
              else truth.set(DAY0 + e.day, e.to);
            }
            const start = DAY0 + s.from;
            const end = Math.min(DAY0 + DAYS - 1, start + s.span);
            const sent = [...truth]
              .filter(([d]) => d >= start && d <= end)
              .sort(([a], [b]) => a - b)
              .map(([day, value]) => ({ day, value }));
            const heldNow: HeldFigure[] = [...held]
              .filter(([d]) => d >= start && d <= end)
              .sort(([a], [b]) => a - b)
              .map(([day, value]) => ({ day, value, seenAt: seenAt(runs, day)! }));
            const outcome = compareRange({
              series,
              dim: "",
              held: heldNow,
              sent,
              at: now,
              request: "GET /v2/metrics/fees for 1 project",
            });
            await ledger.record(outcome.changes);
            runs = spliceRuns(runs, start, end, outcome.seen);
            for (const d of [...held.keys()]) if (d >= start && d <= end) held.delete(d);
            for (const p of sent) held.set(p.day, p.value);
            for (let d = start; d <= end; d++) {
              const list = shown.get(d) ?? [];
              const before = list.length > 0 ? list[list.length - 1][1] : undefined;
              const after = held.has(d) ? held.get(d)! : before === undefined ? undefined : null;
              if (after !== undefined && after !== before) list.push([now, after]);
              shown.set(d, list);
            }
            answers.push(now);
          }
          // Read back from the store, as a later session would.
          const view = await new RestatementLedger({
            store,
            namespace: async () => "ns",
            now: () => now,
          }).view();
          const probes = answers.flatMap((t) => [t - 1, t, t + 500]).concat([T0 - 1]);
          const wrong: string[] = [];
          for (let d = DAY0; d < DAY0 + DAYS; d++) {
            const cell = { series, dim: "", day: d };
            const heldValue = held.has(d)
              ? { value: held.get(d)!, seenAt: seenAt(runs, d)! }
              : undefined;
            for (const q of probes) {
              const history = (shown.get(d) ?? []).filter(([t]) => t <= q);
              const expected = history.length > 0 ? history[history.length - 1][1] : undefined;
              const known = view.known(cell, heldValue, q);
              if (known.known) {
                if (expected === undefined || known.value !== expected)
                  wrong.push(
                    `day ${d} at ${q - T0}: ${String(known.value)}, shown ${String(expected)}`
                  );
              } else if (expected !== undefined && expected !== null) {
                // A value that was shown is known; only a blank that then vanished may be forgotten.
                wrong.push(`day ${d} at ${q - T0}: not known, shown ${expected}`);
              }
            }
          }
          expect(wrong).toEqual([]);
        }
      ),
      { numRuns: propertyRuns(150) }
    );
  });
});
