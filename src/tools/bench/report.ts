/** The printed report of a run, and the markdown table the README's Performance section carries. */
import { gatewayLines } from "./gateway-report";
import { alignColumns, formatBytes, formatCount, formatDuration, formatRatio } from "./format";
import type { BenchResults, WorkloadResult } from "./results";
import type { CliSide } from "./cli-runs";
import { scaleLines } from "./scale-report";
import { ledgerLines } from "./ledger-size";

const BENCH_COMMAND = "npm run bench";

function ratio(naive: number, ours: number): number {
  return ours > 0 ? naive / ours : naive > 0 ? Infinity : NaN;
}

function requestRatio(w: WorkloadResult): string {
  return formatRatio(ratio(w.naive.requests, w.ours.requests));
}

function timeRatio(w: WorkloadResult): string {
  return formatRatio(ratio(w.naive.projection.projectedMs, w.ours.projection.projectedMs));
}

function settingsLine(r: BenchResults): string {
  const s = r.settings;
  const repeated = s.sheetRows - s.distinctProjects;
  return (
    `Sheets of ${s.sheetRows} rows hold the demo dataset's ${s.distinctProjects} projects` +
    (repeated > 0
      ? `, the first ${repeated} repeated (cells the add-in coalesces, the naive one does not)`
      : "") +
    `; the large model holds all ${formatCount(s.universe)} projects of the simulator's universe (the demo ` +
    `projects and synthetic ones, \`--projects ${s.universe}\`), one date, the same 20 metrics` +
    `. Simulator in-process on loopback, ${s.latencyMs[0]}–${s.latencyMs[1]} ms latency per request; rate limit ` +
    `60 requests per ${formatDuration(s.windowMs)} in the client's limiter and in the simulator (the real 60 ` +
    `per minute, ${s.scale}× faster; the client's limiter sets the pace, the simulator guards a ` +
    `${formatDuration(s.simulatorWindowMs)} window). Engine window ${s.engineWindowMs} ms, ≤ ` +
    `${s.maxIdsPerRequest} ids per request. The simulator is warmed first (it generates each series on first use).`
  );
}

function projectionExplained(scale: number): string {
  return (
    `Projected at 60/min = max(requests ÷ 60 per minute, wall time + throttled time × ${scale - 1}), where ` +
    `throttled time is the time calls waited on the rate limiter or a backoff (the only part that stretches ` +
    `at the real limit; latency does not). The first term is what the refresh costs of the minute's quota: ` +
    `one that sends fewer than 60 requests into an idle minute can finish sooner, but repeated refreshes and ` +
    `other open workbooks pay it.`
  );
}

function workloadTable(r: BenchResults): string[] {
  const header = [
    ["", "", "requests", "", "", "wall time", "", "projected at 60/min", "", ""],
    [
      "workload",
      "cells",
      "add-in",
      "naive",
      "naive÷",
      "add-in",
      "naive",
      "add-in",
      "naive",
      "naive÷",
    ],
  ];
  const rows = r.workloads.map((w) => [
    w.title,
    formatCount(w.cells),
    formatCount(w.ours.requests),
    formatCount(w.naive.requests),
    requestRatio(w),
    formatDuration(w.ours.wallMs),
    formatDuration(w.naive.wallMs),
    formatDuration(w.ours.projection.projectedMs),
    formatDuration(w.naive.projection.projectedMs),
    timeRatio(w),
  ]);
  return alignColumns([...header, ...rows]);
}

function notes(r: BenchResults): string[] {
  const sum = (f: (w: WorkloadResult) => number) => r.workloads.reduce((acc, w) => acc + f(w), 0);
  const compared = sum((w) => w.agreement.compared);
  const agree = sum((w) => w.agreement.agree);
  const firstDiff = r.workloads.find((w) => w.agreement.firstDifference);
  return [
    `Requests: HTTP requests the simulator received, retries included (429 answers: ` +
      `${sum((w) => w.ours.rateLimited + w.naive.rateLimited)}, retries: ` +
      `${sum((w) => w.ours.retries + w.naive.retries)}). The add-in starts each workload with the ` +
      `project and metric lists loaded, except cold open (every cache cleared) and warm refresh (the model ` +
      `sheet's cache); the naive baseline has no cache.`,
    projectionExplained(r.settings.scale),
    `Answers: the add-in and the naive baseline agree on ${formatCount(agree)} of ${formatCount(compared)} ` +
      `single-value cells` +
      (firstDiff?.agreement.firstDifference
        ? `; first difference in ${firstDiff.title}, cell ${firstDiff.agreement.firstDifference.index + 1}: ` +
          `add-in ${firstDiff.agreement.firstDifference.ours}, naive ${firstDiff.agreement.firstDifference.naive}.`
        : ".") +
      [outcomesOf(r, "model", "Model sheet"), outcomesOf(r, "large", "Large model")].join("") +
      (r.workloads.some((w) => w.id === "model" || w.id === "large")
        ? " (#N/A: pairs a project lacks, archived projects)."
        : ""),
  ];
}

function outcomesOf(r: BenchResults, id: WorkloadResult["id"], title: string): string {
  const w = r.workloads.find((x) => x.id === id);
  if (!w) return "";
  const errors = Object.entries(w.ours.outcomes.errors)
    .map(([code, n]) => `${formatCount(n)} ${code}`)
    .join(", ");
  return ` ${title}: ${formatCount(w.ours.outcomes.numbers)} numbers, ${errors || "no errors"}.`;
}

function wrap(text: string, width = 110, indent = ""): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = indent + word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

function targetLines(r: BenchResults): string[] {
  const rows = r.targets.map((t) => [t.label, t.measured, t.target, t.met ? "met" : "MISSED"]);
  const lines = alignColumns([["", "measured", "target", ""], ...rows]);
  for (const t of r.targets.filter((x) => !x.met && x.note))
    wrap(`${t.label}: ${t.note}`, 110, "    ").forEach((l, i) => lines.push(i ? l : `  ! ${l}`));
  return lines;
}

function hotLine(r: BenchResults): string {
  const h = r.hotPath;
  if (!h) return "Hot path: not run (--only).";
  const us = (ms: number) => ((ms * 1000) / h.cells).toFixed(1);
  const range = (runs: readonly number[]) =>
    `${us(runs.reduce((a, b) => Math.min(a, b)))}–${us(runs.reduce((a, b) => Math.max(a, b)))}`;
  return (
    `Hot path: ${formatCount(h.cells)} VALUE cells from a warm cache, ${h.requests} requests; median of ` +
    `${h.cellPathRunsMs.length} runs (range in µs per cell): engine ${formatDuration(h.enginePathMs)} = ` +
    `${us(h.enginePathMs)} µs per cell (${range(h.enginePathRunsMs)}; catalogue lookups and cached series); ` +
    `through CRYPTO.VALUE (functions layer and engine) ${formatDuration(h.cellPathMs)} = ` +
    `${us(h.cellPathMs)} µs per cell (${range(h.cellPathRunsMs)}).`
  );
}

function heapLine(r: BenchResults): string {
  if (!r.heap) return "Heap: not measured (the model sheet was not run).";
  const { beforeBytes, afterBytes, forcedGc } = r.heap;
  return (
    `Heap used after the model sheet: ${formatBytes(afterBytes)} (before: ${formatBytes(beforeBytes)}, ` +
    `${afterBytes >= beforeBytes ? "+" : "−"}${formatBytes(Math.abs(afterBytes - beforeBytes))}); ` +
    (forcedGc ? "GC forced before each reading" : "no forced GC (run node with --expose-gc)") +
    "; no target set."
  );
}

function smallTimingLines(r: BenchResults): string[] {
  const t = r.smallTimings;
  if (!t) return [];
  const search = t.catalogueSearch;
  const keys = search.keystrokes.map((k) => `"${k.query}" ${k.ms.toFixed(1)} ms`).join(", ");
  const [first, ...memoised] = t.simulatorSeries.callsMs;
  return [
    `Catalogue search over ${formatCount(search.projects)} projects: index built in ` +
      `${formatDuration(search.indexMs)}; per keystroke ${keys}; no target (typing feels instant under 50 ms).`,
    `Simulator: 5 years × 10 daily metrics (${formatCount(t.simulatorSeries.rows)} rows) in ` +
      `${first.toFixed(1)} ms generated, then ${memoised.map((ms) => ms.toFixed(1)).join(" ms, ")} ms memoised.`,
  ];
}

/** The two runs across sessions and processes: reopen same day, and 10 CLI runs against a naive loop. */
function persistenceLines(r: BenchResults): string[] {
  const lines: string[] = [];
  const reopen = r.persistence?.reopen;
  if (reopen) {
    lines.push(
      `Reopen same day: a workbook of ${formatCount(reopen.cells)} cells (the model sheet, the history sheet and ` +
        `20 statements) calculated in one session (${formatCount(reopen.first.requests)} requests, ` +
        `${formatDuration(reopen.first.wallMs)}), then opened again ${formatDuration(reopen.laterMs)} later in a ` +
        `new session over the same saved cache (IndexedDB through idb; fake-indexeddb in Node, so times are a ` +
        `floor): ${formatCount(reopen.reopen.requests)} requests, ${formatDuration(reopen.reopen.wallMs)}, ` +
        `${formatCount(reopen.reopen.restoredCells)} cells flagged as from the saved cache; ` +
        `${formatCount(reopen.agreement.agree)} of ${formatCount(reopen.agreement.compared)} single-value cells ` +
        `equal to the first session's. Saved cache: ${formatCount(reopen.store.entries)} entries, ` +
        `${formatBytes(reopen.store.bytes)}.`
    );
  }
  const cli = r.persistence?.cliRuns;
  if (cli) {
    const side = (name: string, s: CliSide) =>
      `${name}: ${formatCount(s.requests)} requests, ${formatCount(s.rateLimited)} answered 429, ` +
      `${formatDuration(s.wallMs)} in all (runs ${s.runsMs.map((ms) => formatDuration(ms)).join(", ")}), ` +
      `${s.failedRuns} runs with a formula in error, ${formatCount(s.errorCells)} error cells`;
    lines.push(
      `10 CLI runs: the built CLI run ${cli.runs} times in a row on a ${cli.formulasPerRun}-formula file ` +
        `(190 values on another day each run, 10 statements in another view), against a simulator enforcing ` +
        `60 requests per ${formatDuration(cli.windowMs)} for the key (the minute ${cli.scale}× faster, in ` +
        `the client too), ${cli.latencyMs[0]}–${cli.latencyMs[1]} ms latency. ` +
        `${side("Add-in (one cache directory: saved answers, shared rate budget)", cli.ours)}. ` +
        `${side("Naive loop (separate processes, no cache, no shared budget)", cli.naive)}. ` +
        `Same output in ${cli.sameOutput} of ${cli.runs} runs.`
    );
  }
  return lines;
}

function bundleLines(r: BenchResults): string[] {
  const lines = [
    `Bundles (gzip, zlib's default level; 1 kB = 1,000 bytes): functions.js ` +
      `${formatBytes(r.bundles.functions.gzipBytes)} (${formatBytes(r.bundles.functions.bytes)} raw).`,
  ];
  const onDemand = r.bundles.onDemand ?? [];
  if (onDemand.length > 0)
    lines.push(
      `Loaded on a function's first call: ` +
        onDemand
          .map((c) => `${c.file.replace(/\.[0-9a-f]{8}\.js$/, "")} ${formatBytes(c.gzipBytes)}`)
          .join(", ") +
        `; ${formatBytes(onDemand.reduce((n, c) => n + c.gzipBytes, 0))} in all.`
    );
  r.bundles.pages.forEach((page, i) => {
    const scripts = page.scripts.map((s) => `${s.file} ${formatBytes(s.gzipBytes)}`).join(", ");
    const excluded = page.excluded.map((e) => `${e.src} (${e.reason})`).join("; ");
    const text =
      `${page.page}${i === 0 ? " (the shared runtime)" : " (no target)"}: ` +
      `${formatBytes(page.gzipBytes)} in ${page.scripts.length} scripts` +
      (scripts ? ` (${scripts})` : "") +
      (excluded ? `; not counted: ${excluded}` : "");
    wrap(text, 108, "    ").forEach((l, j) => lines.push(j === 0 ? `  ${l}` : l));
  });
  return lines;
}

export function formatReport(r: BenchResults, written: readonly string[]): string {
  const e = r.environment;
  const met = r.targets.filter((t) => t.met).length;
  return [
    `Cryptometrics for Excel: benchmark (${BENCH_COMMAND})`,
    `${r.startedAt} · node ${e.node} · ${e.platform} · ${e.cpus} × ${e.cpuModel} · load average ` +
      `${e.loadAverage.toFixed(1)} at the start${e.loadAverage > e.cpus ? " (a busy machine: times are noisy)" : ""}`,
    ...wrap(settingsLine(r)),
    "",
    ...workloadTable(r),
    "",
    ...notes(r).flatMap((n) => wrap(n)),
    "",
    ...wrap(hotLine(r)),
    ...wrap(heapLine(r)),
    ...smallTimingLines(r).flatMap((l) => wrap(l)),
    ...scaleLines(r.scale).flatMap((l) => ["", ...wrap(l)]),
    ...persistenceLines(r).flatMap((l) => ["", ...wrap(l)]),
    ...gatewayLines(r.persistence?.gateway).flatMap((l, i) => (i === 0 ? ["", ...wrap(l)] : [l])),
    ...ledgerLines(r.ledger).flatMap((l) => ["", ...wrap(l)]),
    ...bundleLines(r),
    "",
    `Targets: ${met} of ${r.targets.length} met`,
    ...targetLines(r),
    "",
    ...written.map((f) => `Written: ${f}`),
    `Ran in ${formatDuration(r.durationMs)}.`,
  ].join("\n");
}

/** The README's Performance section: the table, the targets and the command, as markdown. */
export function formatMarkdown(r: BenchResults): string {
  const row = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  const table = [
    row([
      "workload",
      "cells",
      "requests: add-in / naive",
      "projected at 60 req/min: add-in / naive",
      "naive ÷ add-in (time)",
    ]),
    row(["---", "---:", "---:", "---:", "---:"]),
    ...r.workloads.map((w) =>
      row([
        w.title,
        formatCount(w.cells),
        `${formatCount(w.ours.requests)} / ${formatCount(w.naive.requests)}`,
        `${formatDuration(w.ours.projection.projectedMs)} / ${formatDuration(w.naive.projection.projectedMs)}`,
        timeRatio(w),
      ])
    ),
  ];
  const targets = [
    row(["target", "measured", "goal", ""]),
    row(["---", "---:", "---", "---"]),
    ...r.targets.map((t) => row([t.label, t.measured, t.target, t.met ? "met" : "**missed**"])),
  ];
  return [
    "## Performance",
    "",
    `\`${BENCH_COMMAND}\` refreshes real-sized workbooks as Excel recalculates them (every cell's function called at ` +
      `once) through the add-in's engine, side by side with a naive add-in that sends one request per cell ` +
      `(same client and rate limiter, no batching, no cache). ${settingsLine(r)}`,
    "",
    ...table,
    "",
    projectionExplained(r.settings.scale),
    "",
    ...targets,
    "",
    [hotLine(r), heapLine(r), ...smallTimingLines(r)].join(" "),
    "",
    ...scaleLines(r.scale).flatMap((l) => [l, ""]),
    ...persistenceLines(r).flatMap((l) => [l, ""]),
    // The gateway's table in a code block: its columns are aligned with spaces.
    ...gatewayLines(r.persistence?.gateway).flatMap((l, i) => (i === 0 ? [l, "", "```text"] : [l])),
    ...(r.persistence?.gateway && !r.persistence.gateway.skipped ? ["```", ""] : []),
    ...ledgerLines(r.ledger).flatMap((l) => [l, ""]),
    `Measured ${r.startedAt.slice(0, 10)} on ${r.environment.cpus} × ${r.environment.cpuModel}, node ` +
      `${r.environment.node}. Times vary by machine; request counts do not (they are asserted in test/bench).`,
    "",
  ].join("\n");
}
