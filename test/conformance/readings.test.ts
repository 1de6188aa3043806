/**
 * Conformance: the same answers under every reading of the interface. The corpus (every function, every
 * option family: test/fixtures/conformance/corpus.json) runs as one recalculation against the simulator
 * under its default readings (the least helpful ones), then again under each other value of each reading
 * switch (src/simulator/readings.ts), and once more with every formula alone (another batching plan). Any
 * answer that differs from the default run's fails; the matrix prints as one table either way.
 *
 * Numbers are equal within 1e-9 relative: a day split into parts re-adds them in floating point.
 */
import corpus from "../fixtures/conformance/corpus.json";
import { installCliHost } from "../../src/cli/host";
import { configureRuntime, currentRuntime } from "../../src/runtime/runtime";
import {
  DEMO_API_KEY,
  READING_SWITCHES,
  READING_VALUES,
  startSimulator,
  type ReadingName,
  type RunningSimulator,
} from "../../src/simulator";
import {
  callFormula,
  FUNCTIONS,
  plain,
  type Formula,
  type Plain,
} from "../../src/tools/faults/workbook";

installCliHost();

/** The dataset's today is 2026-11-20; midday, so no run crosses a day. */
const NOW = Date.UTC(2026, 10, 20, 12);
const FORMULAS = corpus.formulas as unknown as ReadonlyArray<Formula & { id: string }>;

type Answer = { ok: true; value: Plain } | { ok: false; code: string; message: string };

interface Row {
  label: string;
  /** Formula id -> its answer. */
  answers: Map<string, Answer>;
  requests: number;
  ms: number;
  /** Formula ids whose answer differs from the default run's. */
  differs: string[];
  note?: string;
}

let sim: RunningSimulator;
let reference: Row;
const matrix: Row[] = [];

function configure(): void {
  configureRuntime({
    baseUrl: sim.url,
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

/** The corpus against a fresh runtime: all at once (one recalculation), or one formula at a time. */
async function run(label: string, together = true): Promise<Row> {
  configure();
  sim.clearLog();
  const started = performance.now();
  const answers = new Map<string, Answer>();
  if (together) {
    const all = await Promise.all(FORMULAS.map((f, i) => answer(f, i)));
    FORMULAS.forEach((f, i) => answers.set(f.id, all[i]));
  } else {
    for (const [i, f] of FORMULAS.entries()) {
      currentRuntime().engine.clear();
      answers.set(f.id, await answer(f, i));
    }
  }
  return {
    label,
    answers,
    requests: sim.requestLog.filter((r) => r.method === "GET").length,
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
  for (const f of FORMULAS)
    if (!sameAnswer(reference.answers.get(f.id)!, row.answers.get(f.id)!)) row.differs.push(f.id);
  return row;
}

/** Answers as the matrix quotes them; CONFORMANCE_FULL=1 quotes them whole (to find where they differ). */
function brief(a: Answer | undefined): string {
  const text = a === undefined ? "-" : a.ok ? JSON.stringify(a.value) : `${a.code} ${a.message}`;
  if (process.env.CONFORMANCE_FULL === "1") return text;
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

/** Every value of every switch but the default, in the README's order. */
const READINGS: Array<[ReadingName, string]> = READING_SWITCHES.flatMap((s) =>
  (READING_VALUES[s.name] as readonly string[])
    .slice(1)
    .map((v): [ReadingName, string] => [s.name, v])
);

const FAMILIES = [...new Set(FORMULAS.map((f) => f.name))].filter((n) => n in FUNCTIONS);

function printMatrix(): string {
  const header = ["reading", ...FAMILIES, "requests", "s"];
  const lines = matrix.map((row) => {
    const cells = FAMILIES.map((family) => {
      const ids = FORMULAS.filter((f) => f.name === family).map((f) => f.id);
      if (row.note) return "·";
      const n = ids.filter((id) => row.differs.includes(id)).length;
      return n === 0 ? "=" : `≠${n}`;
    });
    return [
      row.label,
      ...cells,
      row.note ? "-" : String(row.requests),
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
    row.differs
      .slice(0, 3)
      .map(
        (id) =>
          `${row.label} ${id}:\n    default: ${brief(reference.answers.get(id))}\n    here:    ${brief(row.answers.get(id))}`
      )
  );
  return [
    `Readings matrix: ${FORMULAS.length} formulas × ${matrix.length} runs ("=" every answer as under the default readings, "≠n" n answers differ).`,
    ...out,
    ...notes,
    ...(differences.length > 0 ? ["Differences (first 3 of each run):", ...differences] : []),
  ].join("\n");
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, now: () => NOW, rateLimit: null });
  reference = await run("default (least helpful everywhere)");
  matrix.push(reference);
}, 120_000);

afterAll(async () => {
  matrix.push({
    label: "preflight=none",
    answers: new Map(),
    requests: 0,
    ms: 0,
    differs: [],
    note: "the CORS preflight is the gateway's part (its same-origin npm start makes no preflight the default); a browser concern, not run here",
  });
  // One table in the test output, whatever passed.
  process.stdout.write(`\n${printMatrix()}\n\n`);
  await sim?.close();
});

describe("the corpus under every reading of the interface", () => {
  it("answers every formula under the default readings (no internal error, nothing left busy)", () => {
    const broken = FORMULAS.filter((f) => {
      const a = reference.answers.get(f.id)!;
      return !a.ok && (/internal error/.test(a.message) || a.code === "#BUSY!");
    });
    expect(broken.map((f) => `${f.id}: ${brief(reference.answers.get(f.id))}`)).toEqual([]);
  });

  it.each(READINGS)(
    "gives the same answers with %s=%s",
    async (name, value) => {
      sim.setKnobs({ readings: undefined });
      sim.setKnobs({ readings: { [name]: value } });
      try {
        const row = compare(await run(`${name}=${value}`));
        matrix.push(row);
        expect(
          row.differs.map(
            (id) =>
              `${id}: ${brief(row.answers.get(id))} (default: ${brief(reference.answers.get(id))})`
          )
        ).toEqual([]);
      } finally {
        sim.setKnobs({ readings: undefined });
      }
    },
    120_000
  );

  it("gives the same answers with every formula alone (another batching plan)", async () => {
    const row = compare(await run("each formula alone", false));
    matrix.push(row);
    expect(row.differs.map((id) => `${id}: ${brief(row.answers.get(id))}`)).toEqual([]);
  }, 240_000);
});
