/**
 * `npm run faults`: every fault of scenarios.ts against a workbook of hundreds of formulas, over real HTTP
 * on loopback, on virtual time (minutes of backoff and deadlines cost no real time). Prints the fault table
 * and each broken guarantee, writes test-results/faults.json, and exits 1 when any guarantee is broken.
 *
 *   npm run faults                         # every fault, the full workbook
 *   npm run faults -- --only 429 --projects 12
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { setLogSink } from "../../client";
import { createDataset } from "../../simulator";
import { LAB_START, openLab } from "./lab";
import { formatTable, formatViolations } from "./report";
import { healthyBaseline, runScenario, type FaultRow } from "./run";
import { SCENARIOS } from "./scenarios";
import { buildWorkbook } from "./workbook";

const USAGE = `usage: npm run faults -- [--only TEXT] [--projects N] [--out FILE]
  --only TEXT     run only the faults whose name contains TEXT (repeatable)
  --projects N    build the workbook over the first N projects (default: all, 305 formulas)
  --out FILE      where the JSON report goes (default test-results/faults.json)
`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      only: { type: "string", multiple: true },
      projects: { type: "string" },
      out: { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const projects = values.projects === undefined ? Infinity : Number(values.projects);
  if (!(projects >= 1)) {
    process.stderr.write(`faults: --projects takes a positive number\n${USAGE}`);
    return 2;
  }
  const only = values.only ?? [];
  const scenarios = SCENARIOS.filter(
    (s) => only.length === 0 || only.some((o) => s.name.toLowerCase().includes(o.toLowerCase()))
  );
  if (scenarios.length === 0) {
    process.stderr.write(`faults: no fault matches ${only.join(", ")}\n`);
    return 2;
  }
  // The client's own warnings would interleave with the table; the table says what matters.
  setLogSink(() => undefined);

  const lab = await openLab();
  const rows: FaultRow[] = [];
  try {
    const formulas = buildWorkbook(
      createDataset(new Date(LAB_START).toISOString().slice(0, 10)),
      projects
    );
    process.stdout.write(`Workbook: ${formulas.length} formulas. Faults: ${scenarios.length}.\n`);
    const baseline = await healthyBaseline(lab, formulas);
    const broken = baseline.filter((c) => !c.ok);
    if (broken.length > 0) {
      process.stderr.write(
        `faults: ${broken.length} formulas fail on a healthy service, e.g. ${broken[0].address}: ${broken[0].ok ? "" : broken[0].message}\n`
      );
      return 1;
    }
    for (const scenario of scenarios) {
      const startedAt = Date.now();
      const row = await runScenario(lab, scenario, formulas, baseline);
      rows.push(row);
      process.stdout.write(
        `  ${row.violations.length === 0 ? "ok  " : "FAIL"} ${scenario.name} (${Date.now() - startedAt} ms)\n`
      );
    }
  } finally {
    await lab.close();
  }
  process.stdout.write(`\n${formatTable(rows)}`);
  const violations = formatViolations(rows);
  if (violations) process.stdout.write(`\nBroken guarantees:\n${violations}`);
  const out = resolve(values.out ?? "test-results/faults.json");
  mkdirSync(resolve(out, ".."), { recursive: true });
  writeFileSync(out, `${JSON.stringify({ rows }, null, 2)}\n`);
  process.stdout.write(`\nReport: ${out}\n`);
  return rows.some((r) => r.violations.length > 0) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `faults: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`
    );
    process.exit(1);
  }
);
