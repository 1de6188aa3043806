/**
 * `npm run bench`: builds, then refreshes the README's performance workloads through the add-in and through a naive
 * per-cell baseline, prints the side-by-side table with every target, and writes the full results as JSON
 * (and the README's markdown table) under bench-results/, which git ignores.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import { setLogSink, type LogRecord } from "../../client";
import { projectRoot } from "./bundles";
import { EXCEL_PAYLOAD_LIMIT_BYTES, largestMetricSpill } from "../../functions/payload";

/** The largest METRIC spills that pass Excel's 5 MB payload limit, as the functions refuse the rest. */
function payloadLine(): string {
  const date = { type: "Double", basicValue: 45292, numberFormat: "yyyy-mm-dd" };
  const sample = [date, 232787544.26598746];
  const days = (projects: number): string =>
    `${projects} project${projects === 1 ? "" : "s"}: ${largestMetricSpill(projects, sample).toLocaleString("en-US")} days`;
  return `Largest METRIC spill under Excel's ${EXCEL_PAYLOAD_LIMIT_BYTES / 1_000_000} MB payload limit: ${[1, 20, 100, 500].map(days).join("; ")}`;
}
import { installExcelHost } from "./excel";
import { formatMarkdown, formatReport } from "./report";
import { BENCH_PARTS, type BenchPart } from "./results";
import { BENCH_DEFAULTS, runBench } from "./run";
import { messageOf } from "../../client";

const HELP = `Usage: npm run bench [-- options]
  --scale N        rate limit ${BENCH_DEFAULTS.scale}× faster than the real 60/min (60 per ${60_000 / BENCH_DEFAULTS.scale} ms); default ${BENCH_DEFAULTS.scale}
  --latency A-B    simulator latency per request in ms; default ${BENCH_DEFAULTS.latencyMs.join("-")}
  --hot-runs N     timed evaluations of the hot path (median reported); default 7
  --strict-window  the simulator checks exactly the client's window (shows the 429s its latency causes)
  --only LIST      run only these parts, comma-separated (results go to latest-partial.*):
                   ${BENCH_PARTS.join(", ")}
  --cli-scale N    "10 CLI runs": the service's minute N× faster; default ${BENCH_DEFAULTS.cliScale}
  --gateway-scale N  "team gateway": the service's minute N× faster; default ${BENCH_DEFAULTS.gatewayScale}
  --out DIR        where results go; default bench-results
  --help`;

/** A bad bench flag: reported with the usage text and exit code 2, as the CLI's usage errors are. */
class BenchOptionError extends Error {}

function positive(text: string, name: string): number {
  const n = Number(text);
  if (!(n > 0) || !Number.isFinite(n))
    throw new BenchOptionError(`${name} must be a positive number`);
  return n;
}

function parseLatency(text: string): [number, number] {
  const m = /^(\d+)(?:-(\d+))?$/.exec(text.trim());
  if (!m) throw new BenchOptionError(`--latency takes MS or MIN-MAX, got "${text}"`);
  const a = Number(m[1]);
  const b = m[2] === undefined ? a : Number(m[2]);
  if (b < a) throw new BenchOptionError(`--latency: ${b} is less than ${a}`);
  return [a, b];
}

function parseOnly(text: string): BenchPart[] {
  const ids = text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = ids.filter((id) => !(BENCH_PARTS as readonly string[]).includes(id));
  if (ids.length === 0 || unknown.length > 0)
    throw new BenchOptionError(
      `--only takes parts from ${BENCH_PARTS.join(", ")}${unknown.length ? `; not ${unknown.join(", ")}` : ""}`
    );
  return ids as BenchPart[];
}

function logToStderr(record: LogRecord): void {
  if (record.level === "debug" || record.level === "info") return;
  const data = record.data ? ` ${JSON.stringify(record.data)}` : "";
  process.stderr.write(`[${record.logger}] ${record.level}: ${record.message}${data}\n`);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      scale: { type: "string", default: String(BENCH_DEFAULTS.scale) },
      latency: { type: "string", default: BENCH_DEFAULTS.latencyMs.join("-") },
      "hot-runs": { type: "string", default: "7" },
      "strict-window": { type: "boolean", default: false },
      only: { type: "string" },
      "cli-scale": { type: "string", default: String(BENCH_DEFAULTS.cliScale) },
      "gateway-scale": { type: "string", default: String(BENCH_DEFAULTS.gatewayScale) },
      out: { type: "string", default: "bench-results" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const scale = positive(values.scale, "--scale");
  if (scale < 1) throw new BenchOptionError("--scale must be at least 1");
  const latencyMs = parseLatency(values.latency);
  const hotRuns = Math.round(positive(values["hot-runs"], "--hot-runs"));
  const only = values.only === undefined ? undefined : parseOnly(values.only);
  const cliScale = positive(values["cli-scale"], "--cli-scale");
  if (cliScale < 1) throw new BenchOptionError("--cli-scale must be at least 1");
  const gatewayScale = positive(values["gateway-scale"], "--gateway-scale");
  if (gatewayScale < 1) throw new BenchOptionError("--gateway-scale must be at least 1");
  const root = projectRoot();

  setLogSink(logToStderr);
  installExcelHost();
  process.stderr.write(
    "Benchmark: a few minutes (the naive baseline waits on the rate limiter)…\n"
  );
  const results = await runBench({
    scale,
    latencyMs,
    hotRuns,
    strictWindow: values["strict-window"],
    only,
    webDir: join(root, "dist", "web"),
    root,
    cliScale,
    gatewayScale,
    progress: (line) => process.stderr.write(`  ${line}\n`),
  });

  const outDir = join(root, values.out);
  mkdirSync(outDir, { recursive: true });
  const stamp = results.startedAt.replace(/[:.]/g, "-");
  // A partial run (--only) never replaces the full results the README's figures come from.
  const latest = only ? "latest-partial" : "latest";
  const files = {
    run: join(outDir, `bench-${stamp}.json`),
    latest: join(outDir, `${latest}.json`),
    markdown: join(outDir, `${latest}.md`),
  };
  const json = `${JSON.stringify(results, null, 2)}\n`;
  writeFileSync(files.run, json);
  writeFileSync(files.latest, json);
  writeFileSync(files.markdown, formatMarkdown(results));
  const shown = Object.values(files).map((f) => relative(root, f));
  process.stdout.write(`${formatReport(results, shown)}\n`);
  process.stdout.write(`${payloadLine()}\n`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const usage =
      error instanceof BenchOptionError ||
      (error as { code?: string })?.code?.startsWith("ERR_PARSE_ARGS");
    process.stderr.write(`bench: ${messageOf(error)}\n`);
    if (usage) process.stderr.write(`${HELP}\n`);
    process.exitCode = usage ? 2 : 1;
  }
);
