/**
 * Odd answers that must never become a wrong figure: rows split by a breakdown member nobody asked for,
 * timestamps with an offset, rows dated after any day the service can have, a body whose gzip is corrupt.
 * Each runs a few formulas through the shared runtime on virtual time against a healthy service and against
 * the odd one (the simulator's reading switches and faults, behind the hostile service), and holds when the
 * answers are the same (and, for the corrupt body, when the cell says the answer could not be read, at once).
 */
import { isDeepStrictEqual } from "node:util";
import { setLogSink, type LogRecord } from "../../../src/client";
import { formatDay } from "../../../src/client/data/days";
import { DATE_FORMAT } from "../../../src/functions/edge";
import { serialToDay } from "../../../src/sheet/excel-dates";
import { createDataset, type Readings } from "../../../src/simulator";
import { LAB_START } from "../faults/lab";
import { evaluate, type CellResult, type Formula } from "../faults/workbook";
import { message, runtimeResult, value, type AttackResult, type HostileAttack } from "./attacks";
import type { HostileLab, RuntimeOutcome } from "./lab";

/** The lab's dataset, for the figures a healthy service gives. */
const dataset = createDataset(new Date(LAB_START).toISOString().slice(0, 10));

/** The formulas under `readings` (the other switches at their defaults), then the switches reset. */
async function under(
  lab: HostileLab,
  readings: Partial<Readings>,
  formulas: readonly Formula[]
): Promise<RuntimeOutcome> {
  lab.virtual.setKnobs({ readings: undefined });
  lab.virtual.setKnobs({ readings });
  try {
    return await lab.runtime(formulas, { kind: "none" });
  } finally {
    lab.virtual.setKnobs({ readings: undefined });
  }
}

/** A cell as the table shows it: a date cell as its day, an error as its code and message. */
function shown(c: CellResult): string {
  if (!c.ok) return `${c.code} ${c.message.slice(0, 60)}`;
  const v = c.value as { numberFormat?: unknown; basicValue?: unknown } | null;
  if (
    v &&
    typeof v === "object" &&
    typeof v.basicValue === "number" &&
    v.numberFormat === DATE_FORMAT
  ) {
    const day = serialToDay(v.basicValue);
    if (day !== undefined) return formatDay(day);
  }
  return JSON.stringify(c.value).slice(0, 40);
}

/** Cells that differ between two runs, described. */
function differences(healthy: RuntimeOutcome, odd: RuntimeOutcome): string[] {
  const out: string[] = [];
  healthy.cells.forEach((h, i) => {
    const o = odd.cells[i];
    const same =
      h.ok && o.ok
        ? isDeepStrictEqual(h.value, o.value)
        : !h.ok && !o.ok && h.code === o.code && h.message === o.message;
    if (!same) out.push(`${h.address}: healthy ${shown(h)}, here ${shown(o)}`);
  });
  return out;
}

function daySum(projectId: string, metricId: string, start: string, end: string): number {
  return dataset
    .daily(projectId, metricId, { start, end })
    .reduce((sum, p) => sum + (p.value ?? 0), 0);
}

/** Rows split unasked, met through each batching plan: beside another metric of aave (§4.3) and alone (§4.11). */
function splitAttack(member: Readings["unaskedSplit"]): HostileAttack {
  const name = `rows split by ${member} nobody asked for`;
  return {
    name,
    bound: "added up: the healthy figures, whatever the batching plan",
    run: async (lab): Promise<AttackResult> => {
      const beside: Formula[] = [
        value("P!A1", "aave", "fees", "2024-01-15", "chains=ethereum,base"),
        value("P!A2", "aave", "tvl", "2024-01-15", "chains=ethereum,base"),
        value("P!A3", "aave", "fees", "2024-03-31", "period=quarter"),
        value("P!A4", "aave", "revenue", "2024-01-15"),
        value("P!A5", "aave", "fees", "2024-03-31", "period=quarter; chains=ethereum,base"),
      ];
      const alone: Formula[] = [
        value("P!B1", "aave", "fees", "2024-01-15", "chains=ethereum,base"),
      ];
      const healthy = await under(lab, { timestamps: "utc" }, beside);
      const split = await under(lab, { timestamps: "utc", unaskedSplit: member }, beside);
      const single = await under(lab, { timestamps: "utc", unaskedSplit: member }, alone);
      const v = differences(healthy, split);
      if (
        !isDeepStrictEqual(
          single.cells[0].ok && single.cells[0].value,
          split.cells[0].ok && split.cells[0].value
        )
      )
        v.push(`alone ${shown(single.cells[0])}, beside ${shown(split.cells[0])}`);
      const quarter = daySum("aave", "fees", "2024-01-01", "2024-03-31");
      const q = split.cells[2];
      if (!q.ok || typeof q.value !== "number" || Math.abs(q.value - quarter) > 1e-6 * quarter)
        v.push(`Q1 fees ${shown(q)}, expected ${quarter.toFixed(2)}`);
      return runtimeResult(
        name,
        split,
        lab.key,
        v.length === 0
          ? `the healthy figures (fees on chains ${shown(split.cells[0])}, their Q1 ${shown(split.cells[4])}), alone or beside`
          : `${v.length} figures differ: ${v[0]}`,
        v
      );
    },
  };
}

export const READING_ATTACKS: readonly HostileAttack[] = [
  ...(["chain", "version", "business_line", "product_id"] as const).map(splitAttack),
  {
    name: "timestamps with an offset (00:00+02:00)",
    bound: "a day is the date it writes: the healthy figures",
    run: async (lab) => {
      const formulas: Formula[] = [
        value("T!A1", "aave", "fees", "2024-01-02"),
        value("T!A2", "aave", "revenue", "2024-03-31", "period=quarter"),
        { address: "T!A3", name: "STATEMENT", args: ["aave", "quarter"] },
        { address: "T!A4", name: "METRIC", args: ["aave", "fees", "2024-01-01", "2024-01-03"] },
      ];
      const healthy = await under(lab, { timestamps: "utc" }, formulas);
      const offset = await under(lab, { timestamps: "offset" }, formulas);
      const v = differences(healthy, offset);
      const expected = daySum("aave", "fees", "2024-01-02", "2024-01-02");
      const day = offset.cells[0];
      if (!day.ok || day.value !== expected)
        v.push(`fees on 2024-01-02: ${shown(day)}, expected ${expected}`);
      return runtimeResult(
        "timestamps with an offset (00:00+02:00)",
        offset,
        lab.key,
        v.length === 0
          ? `fees on 2024-01-02 ${shown(day)}, Q1 revenue and the statement's columns as with UTC midnight`
          : `${v.length} differ: ${v[0]}`,
        v
      );
    },
  },
  {
    name: "a row dated 2099-12-31 in every series",
    bound: "ignored and noted: the healthy latest values",
    run: async (lab) => {
      const formulas: Formula[] = [
        { address: "F!A1", name: "ASOF", args: ["aave", "tvl"] },
        value("F!A2", "aave", "tvl", null, "maxage=3d"),
        { address: "F!A3", name: "COMPS", args: ["aave,uniswap", "tvl,fees:30d"] },
      ];
      const healthy = await under(lab, {}, formulas);
      const future = await under(lab, { futureRows: "far" }, formulas);
      const v = differences(healthy, future);
      const noted = lab.virtual.runtime.diagnostics
        .notes()
        .some((n) => /dated after .* ignored \(2099-12-31\)/.test(n.text));
      if (!noted) v.push("no note of the ignored rows in the diagnostics");
      return runtimeResult(
        "a row dated 2099-12-31 in every series",
        future,
        lab.key,
        v.length === 0
          ? `as of ${shown(future.cells[0])}; the rows ignored and noted for the diagnostics`
          : `${v.length} problems: ${v[0]}`,
        v
      );
    },
  },
  {
    name: "a corrupt gzip body",
    bound: "an answer that could not be read: each request once, no retry",
    run: async (lab) => {
      // Straight to the simulator: a proxy would have to decompress the body to pass it on.
      lab.virtual.setKnobs({ fault: "corrupt-gzip" });
      let out: RuntimeOutcome;
      try {
        out = await atSimulator(lab, [value("G!A1", "aave", "fees")]);
      } finally {
        lab.virtual.setKnobs({ fault: null });
      }
      const v: string[] = [];
      const cell = out.cells[0];
      if (
        cell.ok ||
        !/^The service's answer could not be read: .*unusable response: its compressed body is corrupt/.test(
          cell.message
        )
      )
        v.push(`cell: ${message(out)}`);
      // The catalogues the cell needs, each asked once: no retry of an answer that cannot be read.
      const paths = out.starts.map((s) => s.path);
      if (new Set(paths).size !== paths.length) v.push(`asked again: ${paths.join(", ")}`);
      return runtimeResult("a corrupt gzip body", out, lab.key, message(out).slice(0, 100), v);
    },
  },
];

/** The formulas through the shared runtime on virtual time, talking to the lab's simulator directly. */
async function atSimulator(lab: HostileLab, formulas: readonly Formula[]): Promise<RuntimeOutcome> {
  const runtime = lab.virtual.reset({ baseUrl: lab.virtual.sim.url, apiKey: lab.key });
  const logs: LogRecord[] = [];
  const previous = setLogSink((record) => logs.push(record));
  const startedAt = lab.virtual.time.now();
  try {
    const cells = await evaluate(lab.virtual, formulas);
    return {
      cells,
      starts: lab.virtual.starts.map((s) => ({
        ms: s.at - startedAt,
        path: new URL(s.url).pathname,
      })),
      visible: [
        JSON.stringify(cells),
        JSON.stringify(logs),
        JSON.stringify(lab.virtual.events),
        JSON.stringify(runtime.diagnostics.export()),
      ].join("\n"),
    };
  } finally {
    setLogSink(previous);
  }
}
