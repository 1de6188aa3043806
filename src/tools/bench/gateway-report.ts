/** The team gateway's part of the bench report: one table, its setting, and the three claims checked. */
import { alignColumns, formatCount, formatDuration } from "./format";
import type { GatewayBenchResult } from "./gateway-bench";

export function gatewayLines(g: GatewayBenchResult | undefined): string[] {
  if (!g) return [];
  if (g.skipped) return [`Team gateway: not run (${g.skipped}).`];
  const header = [
    "team gateway",
    "upstream",
    "one analyst alone",
    "429",
    "cells equal to a direct run",
    `last cell (minute ÷${g.scale})`,
    "service's floor at 60/min",
  ];
  const rows = g.rows.map((r) => [
    r.title,
    formatCount(r.upstream),
    formatCount(r.alone),
    formatCount(r.rateLimited),
    `${formatCount(r.equalCells)} / ${formatCount(r.totalCells)}`,
    formatDuration(r.lastCellMs),
    // What the service's limit alone imposes on those requests at the real minute: 60 may start at once, then
    // 60 more each minute (a lower bound; latency comes on top).
    formatDuration(Math.max(0, Math.ceil(r.upstream / 60) - 1) * 60_000),
  ]);
  const same = g.rows.find((r) => r.models === "same" && r.fault === "none");
  const checks = same
    ? [
        `Same model, no fault: upstream ${formatCount(same.upstream)} ${same.upstream <= same.alone ? "≤" : ">"} ` +
          `${formatCount(same.alone)} for one analyst alone; ${formatCount(same.rateLimited)} answered 429; ` +
          `${same.equalCells === same.totalCells ? "every cell" : `${formatCount(same.totalCells - same.equalCells)} cells not`} equal to a direct run.`,
      ]
    : [];
  const outages = g.rows
    .filter((r) => r.fault !== "Redis stopped" && r.redisOutages > 0)
    .map(
      (r) =>
        `${r.title}: a gateway process took Redis as unreachable ${r.redisOutages} times (it then serves from its own memory).`
    );
  const differences = g.rows
    .filter((r) => r.firstDifference)
    .map((r) => `First difference (${r.title}): ${r.firstDifference}`);
  return [
    `Team gateway: ${g.analysts} analysts (an add-in's client and engine each), ${g.analysts / g.processes} on each ` +
      `of ${g.processes} gateway processes sharing one Redis, refresh at once against a simulator enforcing 60 ` +
      `requests per ${formatDuration(g.windowMs)} (the minute ${g.scale}× faster everywhere; the simulator checks ` +
      `that window exactly), ${g.latencyMs[0]}–${g.latencyMs[1]} ms latency. "One analyst alone": the same models ` +
      `run one analyst at a time, straight to the service. Faults strike once the service has seen a third of that. ` +
      `"Service's floor": how long the real limit (60 starts at once, then 60 a minute) holds those requests back.`,
    ...alignColumns([header, ...rows]),
    ...checks,
    ...outages,
    ...differences,
  ];
}
