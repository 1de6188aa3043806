/**
 * Conformance: the same answers under every reading of the interface, and under every two readings together.
 * The corpus (every function, every option family: test/fixtures/conformance/corpus.json) runs against the
 * simulator under its default readings (the least helpful ones), then under each row of a pairwise covering
 * array of the reading switches (src/simulator/readings.ts, covering.ts): every value of every switch, and
 * every pair of values of every two switches, meets the corpus in some row (two loose readings can bite only
 * together: a service that takes other date names for the breakdown and ignores the ones it does not know).
 * Each row runs twice, as one recalculation and with every formula alone (two batching plans). Any answer that
 * differs from the default run's (in one recalculation) fails; the matrix prints as one table either way.
 *
 * The simulator answers in process (src/simulator/in-process.ts, no socket): what is compared is the
 * answers, not the wire, and loopback's connections made the matrix minutes long.
 *
 * The rows are split over PARTS test files (readings.test.ts is part 1, readings.part2.test.ts …), each
 * running its own default reference first (in one recalculation; part 1 checks it alone too), so that jest's
 * two workers share the matrix: every row is a few seconds of honest work (about 335 requests, each answered
 * and read in full), and 29 of them in one file made it the run's longest. Part 1 also holds the checks of the default run and of the covering array.
 *
 * Numbers are equal within 1e-9 relative: a day split into parts re-adds them in floating point.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import corpus from "../fixtures/conformance/corpus.json";
import { installCliHost } from "../../src/cli/host";
import { configureRuntime, currentRuntime } from "../../src/runtime/runtime";
import {
  DEMO_API_KEY,
  READING_SWITCHES,
  READING_VALUES,
  type ReadingName,
  type Readings,
} from "../../src/simulator";
import { inProcessSimulator, type InProcessSimulator } from "../../src/simulator/in-process";
import {
  callFormula,
  FUNCTIONS,
  plain,
  type Formula,
  type Plain,
} from "../harness/faults/workbook";
import { coveringArray, coversEveryPair } from "./covering";

installCliHost();

/** The dataset's today is 2026-11-20; midday, so no run crosses a day. */
const NOW = Date.UTC(2026, 10, 20, 12);
const FORMULAS = corpus.formulas as unknown as ReadonlyArray<Formula & { id: string }>;

type Answer = { ok: true; value: Plain } | { ok: false; code: string; message: string };

interface Row {
  label: string;
  /** Formula id -> its answer, in one recalculation and with every formula alone. */
  together: Map<string, Answer>;
  alone: Map<string, Answer>;
  /** Requests of the two plans. */
  requests: [number, number];
  ms: number;
  /** Formula ids whose answer differs from the default run's, "(alone)" when in that plan. */
  differs: string[];
  note?: string;
}

let sim: InProcessSimulator;
/** The default readings' answers, all formulas in one recalculation: what every other run must give. */
let reference: Map<string, Answer>;
const matrix: Row[] = [];

function configure(): void {
  configureRuntime({
    baseUrl: sim.url,
    fetch: sim.fetch,
    apiKey: DEMO_API_KEY,
    now: () => NOW,
    // The simulator has no rate limit here: the client's own would only make the run slower.
    rateLimitPerMinute: 100_000,
    client: { retry: { baseDelayMs: 1, rateLimitedBaseDelayMs: 1, maxDelayMs: 5 } },
    engine: { windowMs: 5 },
  });
}

async function answer(formula: Formula & { id: string }, n: number): Promise<Answer> {
  try {
    const value = await callFormula(formula, {
      address: `Conformance!A${n + 1}`,
      functionName: formula.name,
    });
    return { ok: true, value: plain(value) };
  } catch (error) {
    const e = error as { code?: unknown; message?: unknown };
    return { ok: false, code: String(e.code), message: String(e.message) };
  }
}

const gets = (): number => sim.requestLog.filter((r) => r.method === "GET").length;

/**
 * The corpus against a fresh runtime twice: all at once (one recalculation, whose cells the engine plans
 * together), then one formula at a time with nothing cached (each planned alone): two batching plans.
 * Without `alone`, the first only (a reference whose other plan another part checks).
 */
async function run(label: string, alone = true): Promise<Row> {
  const started = performance.now();
  configure();
  sim.clearLog();
  const together = new Map<string, Answer>();
  const all = await Promise.all(FORMULAS.map((f, i) => answer(f, i)));
  FORMULAS.forEach((f, i) => together.set(f.id, all[i]));
  const requestsTogether = gets();
  sim.clearLog();
  const answersAlone = new Map<string, Answer>();
  for (const [i, f] of alone ? FORMULAS.entries() : []) {
    currentRuntime().engine.clear();
    answersAlone.set(f.id, await answer(f, i));
  }
  return {
    label,
    together,
    alone: answersAlone,
    requests: [requestsTogether, gets()],
    ms: performance.now() - started,
    differs: [],
  };
}

function same(a: Plain, b: Plain): boolean {
  if (typeof a === "number" && typeof b === "number") {
    if (a === b) return true;
    return Math.abs(a - b) / Math.max(1, Math.abs(a), Math.abs(b)) < 1e-9;
  }
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (
    a &&
    b &&
    typeof a === "object" &&
    typeof b === "object" &&
    !Array.isArray(a) &&
    !Array.isArray(b)
  ) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && same(a[k], b[k]));
  }
  return a === b;
}

function sameAnswer(a: Answer, b: Answer): boolean {
  if (a.ok && b.ok) return same(a.value, b.value);
  if (!a.ok && !b.ok) return a.code === b.code && a.message === b.message;
  return false;
}

function compare(row: Row): Row {
  for (const f of FORMULAS) {
    const expected = reference.get(f.id)!;
    if (!sameAnswer(expected, row.together.get(f.id)!)) row.differs.push(f.id);
    else if (!sameAnswer(expected, row.alone.get(f.id)!)) row.differs.push(`${f.id} (alone)`);
  }
  return row;
}

/** The id of a difference ("metric-by-product (alone)" → "metric-by-product"), and the answer it differs in. */
function differing(row: Row, entry: string): { id: string; here: Answer | undefined } {
  const alone = entry.endsWith(" (alone)");
  const id = alone ? entry.slice(0, -" (alone)".length) : entry;
  return { id, here: (alone ? row.alone : row.together).get(id) };
}

function brief(a: Answer | undefined): string {
  const text = a === undefined ? "-" : a.ok ? JSON.stringify(a.value) : `${a.code} ${a.message}`;
  if (process.env.CONFORMANCE_FULL === "1") return text;
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

const SWITCHES = READING_SWITCHES.map((s) => ({
  name: s.name,
  values: READING_VALUES[s.name],
}));

/**
 * The rows of the covering array, each the readings it sets (the defaults left out of its label); the row of
 * every default is the reference itself, so it is not run again.
 */
const ROWS: Array<{ label: string; readings: Partial<Readings> }> = coveringArray(SWITCHES)
  .map((row) => {
    const changed = Object.entries(row).filter(
      ([name, value]) => value !== READING_VALUES[name as ReadingName][0]
    );
    return {
      label: changed.map(([name, value]) => `${name}=${value}`).join(", "),
      readings: Object.fromEntries(changed),
    };
  })
  .filter((row) => row.label !== "");

const FAMILIES = [...new Set(FORMULAS.map((f) => f.name))].filter((n) => n in FUNCTIONS);

function printMatrix(part: number): string {
  const header = ["reading", ...FAMILIES, "requests (together / alone)", "s"];
  const lines = matrix.map((row) => {
    const cells = FAMILIES.map((family) => {
      const ids = FORMULAS.filter((f) => f.name === family).map((f) => f.id);
      if (row.note) return "·";
      const n = ids.filter((id) => row.differs.some((d) => differing(row, d).id === id)).length;
      return n === 0 ? "=" : `≠${n}`;
    });
    return [
      row.label,
      ...cells,
      row.note ? "-" : `${row.requests[0]} / ${row.alone.size > 0 ? row.requests[1] : "-"}`,
      row.note ? "-" : (row.ms / 1000).toFixed(1),
    ];
  });
  const widths = header.map((_, i) =>
    [header, ...lines].reduce((w, l) => Math.max(w, l[i].length), 0)
  );
  const fmt = (l: string[]): string => `| ${l.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  const out = [
    fmt(header),
    `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`,
    ...lines.map(fmt),
  ];
  const notes = matrix.filter((r) => r.note).map((r) => `${r.label}: ${r.note}`);
  const differences = matrix.flatMap((row) =>
    row.differs.slice(0, 3).map((entry) => {
      const { id, here } = differing(row, entry);
      return `${row.label} ${entry}:\n    default: ${brief(reference.get(id))}\n    here:    ${brief(here)}`;
    })
  );
  return [
    `Readings matrix, part ${part} of ${PARTS}: ${FORMULAS.length} formulas under ${matrix.filter((r) => !r.note).length} readings, each run in one recalculation and with every formula alone ("=" every answer as under the default readings in one recalculation, "≠n" n formulas differ in either plan).`,
    ...out,
    ...notes,
    ...(differences.length > 0 ? ["Differences (first 3 of each run):", ...differences] : []),
  ].join("\n");
}

/** Test files the rows are split over; the file of part k (see fileOfPart) calls readingsMatrix(k). */
const PARTS = 3;

/** The test file of a part: part 1 keeps the matrix's first name. */
function fileOfPart(part: number): string {
  return part === 1 ? "readings.test.ts" : `readings.part${part}.test.ts`;
}

/** The rows of a part (numbered from 1 across the whole matrix): contiguous, every row in exactly one part. */
function rowsOfPart(part: number): Array<[number, string, Partial<Readings>]> {
  const size = Math.ceil(ROWS.length / PARTS);
  return ROWS.map(
    (r, i) => [i + 1, r.label, r.readings] as [number, string, Partial<Readings>]
  ).slice((part - 1) * size, part * size);
}

/**
 * One part of the matrix: the default run (the reference), then the part's rows; part 1 also checks the
 * default run itself and that the rows of all the parts cover every pair.
 */
export function readingsMatrix(part: number): void {
  if (!Number.isInteger(part) || part < 1 || part > PARTS)
    throw new RangeError(`the readings matrix has parts 1 to ${PARTS}, not ${part}`);
  const rows = rowsOfPart(part);
  beforeAll(async () => {
    sim = inProcessSimulator({ now: () => NOW, rateLimit: null });
    // Each part needs the default readings' answers in one recalculation to compare its rows with; their other
    // plan (every formula alone) is part 1's check, not run again here.
    const row = await run(
      part === 1
        ? "default (least helpful everywhere)"
        : "default (least helpful everywhere; alone: see part 1)",
      part === 1
    );
    reference = row.together;
    matrix.push(part === 1 ? compare(row) : row);
  }, 240_000);

  afterAll(async () => {
    if (part === 1)
      matrix.push({
        label: "preflight=none",
        together: new Map(),
        alone: new Map(),
        requests: [0, 0],
        ms: 0,
        differs: [],
        note: "the CORS preflight is the gateway's part (its same-origin npm start makes no preflight the default); a browser concern, not run here",
      });
    // One table in the test output (this part's rows), whatever passed.
    process.stdout.write(`\n${printMatrix(part)}\n\n`);
    await sim?.close();
  });

  describe("the corpus under every reading of the interface", () => {
    if (part === 1) {
      it("answers every formula under the default readings (no internal error, nothing left busy)", () => {
        const broken = FORMULAS.filter((f) => {
          const a = reference.get(f.id)!;
          return !a.ok && (/internal error/.test(a.message) || a.code === "#BUSY!");
        });
        expect(broken.map((f) => `${f.id}: ${brief(reference.get(f.id))}`)).toEqual([]);
      });

      it("gives the same answers under the default readings with every formula alone (another batching plan)", () => {
        const row = matrix[0];
        expect(
          row.differs.map((entry) => `${entry}: ${brief(differing(row, entry).here)}`)
        ).toEqual([]);
      });

      it("runs every value of every switch and every pair of values of every two switches", () => {
        const covering = coveringArray(SWITCHES);
        expect(coversEveryPair(SWITCHES, covering)).toBe(true);
        expect(ROWS.length).toBeLessThan(60);
        // Every row runs in some part, and every part has its file.
        const parts = Array.from({ length: PARTS }, (_, k) => k + 1);
        expect(parts.flatMap((k) => rowsOfPart(k).map(([n]) => n))).toEqual(
          ROWS.map((_, i) => i + 1)
        );
        expect(parts.filter((k) => !existsSync(join(__dirname, fileOfPart(k))))).toEqual([]);
      });
    }

    it.each(rows)(
      "gives the same answers in row %i (%s), in one recalculation and alone",
      async (_i, label, readings) => {
        sim.setKnobs({ readings: undefined });
        sim.setKnobs({ readings });
        try {
          const row = compare(await run(label));
          matrix.push(row);
          expect(
            row.differs.map((entry) => {
              const { id, here } = differing(row, entry);
              return `${entry}: ${brief(here)} (default: ${brief(reference.get(id))})`;
            })
          ).toEqual([]);
        } finally {
          sim.setKnobs({ readings: undefined });
        }
      },
      240_000
    );
  });
}
