/** The targets of Excel at scale (scale.ts), checked against one run, and the lines the report prints. */
import { MAX_RECORD_BYTES } from "../../runtime/diagnostics";
import { formatBytes, formatCount, formatDuration } from "./format";
import type { TargetCheck } from "./results";
import type { BigWorkbookResult, CardsResult, PreviewResult, ScaleResults } from "./scale";

const SCALE_TARGETS = {
  /** A preview never asks the service. */
  previewRequests: 0,
  /** What a warm workbook leaves on the heap per formula cell (1 kB = 1,000 bytes, as the bundle sizes). */
  retainedBytesPerCell: 1_000,
} as const;

/** Heap and ArrayBuffers the workbook left behind, per formula. */
function retainedPerCell(w: BigWorkbookResult): number {
  const { before, after } = w.heap;
  const retained = after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers);
  return retained / w.cells;
}

function previewChecks(p: PreviewResult): TargetCheck[] {
  const cold = p.cold.requests === SCALE_TARGETS.previewRequests;
  const warm = p.warm.requests === 0 && p.warm.sameAsEntered === p.previews;
  return [
    {
      label: `${p.previews} formula previews, nothing cached: requests`,
      measured: `${formatCount(p.cold.requests)} (${formatCount(p.cold.placeholders)} placeholders)`,
      target: "0",
      met: cold,
      ...(cold
        ? {}
        : {
            note:
              "a preview asked the service: every function must answer a call with isInValuePreview from " +
              "what the engine holds (its cache-only view) or with the placeholder",
          }),
    },
    {
      label: `${p.previews} formula previews after Enter: requests, same as entered`,
      measured: `${formatCount(p.warm.requests)}, ${formatCount(p.warm.sameAsEntered)} of ${formatCount(p.previews)}`,
      target: `0, ${formatCount(p.previews)} of ${formatCount(p.previews)}`,
      met: warm,
      ...(warm
        ? {}
        : {
            note:
              "a preview of a formula whose answers are all held showed something else than the entered " +
              "formula: compare the two grids in the results JSON",
          }),
    },
  ];
}

/**
 * The memory target, per cell of the sheet. A VALUE formula is one cell; a METRIC formula spills a year of
 * dates and values (730 cells), which the cache must hold to recalculate without asking: 365 values are 2.9 kB
 * at 8 bytes each before anything else, so a spill is judged per cell it shows, and its cost per formula is
 * reported beside it.
 */
function memoryChecks(w: BigWorkbookResult): TargetCheck[] {
  const perFormula = retainedPerCell(w);
  const spills = w.valuesShown > w.cells;
  const perCell = spills ? (perFormula * w.cells) / w.valuesShown : perFormula;
  const met = perCell <= SCALE_TARGETS.retainedBytesPerCell;
  const check: TargetCheck = {
    label: `${w.title}: retained heap per warm cell${spills ? " (each cell of the spills)" : ""}`,
    measured: spills ? `${perCell.toFixed(1)} B` : formatBytes(Math.round(perCell)),
    target: `≤ ${formatBytes(SCALE_TARGETS.retainedBytesPerCell)}`,
    met,
    ...(met
      ? {}
      : {
          note:
            "take a heap snapshot after the warm recalculations (node --expose-gc, v8.writeHeapSnapshot) and " +
            "look at the largest retainers: the series cache's snapshots (SeriesStore), the diagnostics " +
            "records (Diagnostics.cells), the catalogue and keyed caches (KeyedCache)",
        }),
  };
  if (!spills) return [check];
  return [
    check,
    {
      label: `${w.title}: retained heap per formula`,
      measured: formatBytes(Math.round(perFormula)),
      target: "reported (a year of values: 2.9 kB at 8 bytes each)",
      met: true,
    },
  ];
}

function bigChecks(w: BigWorkbookResult): TargetCheck[] {
  const coldMet = w.cold.requests <= w.minimumRequests;
  const warmUs = (w.warm.medianMs * 1000) / w.cells;
  return [
    {
      label: `${w.title}, cold: requests`,
      measured: formatCount(w.cold.requests),
      target: `≤ ${formatCount(w.minimumRequests)} (one per metric and chunk, + 2 catalogues)`,
      met: coldMet,
      ...(coldMet
        ? {}
        : {
            note:
              "more requests than the plan's minimum: a cell that reached the engine after the batching " +
              "window closed, a retried request, or a series evicted before it was read (see the engine's " +
              "points against the cache's bound)",
          }),
    },
    {
      label: `${w.title}, warm: requests`,
      measured: formatCount(w.warm.requests),
      target: "0",
      met: w.warm.requests === 0,
      ...(w.warm.requests === 0
        ? {}
        : {
            note:
              "a warm recalculation asked the service again: the series cache's bound is below what the " +
              "workbook reads, so it evicted series the workbook still shows",
          }),
    },
    {
      label: `${w.title}, warm: time per cell`,
      measured: `${warmUs.toFixed(1)} µs`,
      target: "reported",
      met: true,
    },
    ...memoryChecks(w),
    {
      label: `${w.title}: diagnostics record`,
      measured: `${formatCount(w.diagnostics.cells)} cells, ${formatBytes(w.diagnostics.bytes)}`,
      target: `≤ 6,250 cells, ≤ ${formatBytes(MAX_RECORD_BYTES)}`,
      met: w.diagnostics.cells <= 6_250 && w.diagnostics.bytes <= MAX_RECORD_BYTES,
    },
  ];
}

function cardChecks(c: CardsResult): TargetCheck[] {
  const met = c.withCards.requests === c.withIds.requests && c.sameOutcomes === c.cells;
  return [
    {
      label: `${formatCount(c.cells)} cells taking a card: requests`,
      measured: `${formatCount(c.withCards.requests)} (with ids: ${formatCount(c.withIds.requests)}; same outcomes: ${formatCount(c.sameOutcomes)})`,
      target: "= with ids",
      met,
      ...(met
        ? {}
        : {
            note:
              "a card argument planned differently from its id: VALUE must read the card's Id field and " +
              "then take the id's path",
          }),
    },
  ];
}

export function scaleChecks(s: ScaleResults | undefined): TargetCheck[] {
  if (!s) return [];
  return [
    ...(s.preview ? previewChecks(s.preview) : []),
    ...(s.values ? bigChecks(s.values) : []),
    ...(s.spills ? bigChecks(s.spills) : []),
    ...(s.cards ? cardChecks(s.cards) : []),
  ];
}

function bigLine(w: BigWorkbookResult): string {
  const perCell = retainedPerCell(w);
  const retained = perCell * w.cells;
  const { before, after } = w.heap;
  const us = (ms: number) => ((ms * 1000) / w.cells).toFixed(1);
  return (
    `${w.title} (${formatCount(w.projects)} projects × ${w.metrics} metrics; ${formatCount(w.valuesShown)} ` +
    `cells shown): cold ${formatCount(w.cold.requests)} requests (minimum ${formatCount(w.minimumRequests)}; ` +
    `${formatCount(w.cold.rateLimited)} answered 429, ${formatCount(w.cold.retries)} retries) in ` +
    `${formatDuration(w.cold.wallMs)}, ${formatCount(w.cold.outcomes.numbers)} numbers, ` +
    `${formatCount(w.cold.outcomes.tables)} tables, ` +
    `${
      Object.entries(w.cold.outcomes.errors)
        .map(([code, n]) => `${formatCount(n)} ${code}`)
        .join(", ") || "no errors"
    }; warm ${formatCount(w.warm.requests)} requests, ` +
    `${formatDuration(w.warm.medianMs)} = ${us(w.warm.medianMs)} µs per cell (runs ` +
    `${w.warm.runsMs.map((ms) => us(ms)).join(", ")} µs). Retained: ${formatBytes(Math.round(retained))} = ` +
    `${formatBytes(Math.round(perCell))} per cell, ${(retained / Math.max(1, w.valuesShown)).toFixed(1)} B per ` +
    `cell shown (heap ${formatBytes(before.heapUsed)} → ${formatBytes(after.heapUsed)}, ArrayBuffers ` +
    `${formatBytes(before.arrayBuffers)} → ${formatBytes(after.arrayBuffers)}` +
    `${w.heap.forcedGc ? ", GC forced" : ", no forced GC"}). Engine: ${formatCount(w.engine.series)} series, ` +
    `${formatCount(w.engine.points)} points. Diagnostics: ${formatCount(w.diagnostics.cells)} cells ` +
    `(${formatBytes(w.diagnostics.bytes)}), ${formatCount(w.diagnostics.errors)} errors.`
  );
}

export function scaleLines(s: ScaleResults | undefined): string[] {
  if (!s) return [];
  const lines: string[] = [];
  const p = s.preview;
  if (p)
    lines.push(
      `Formula previews (Excel calls a function while its formula is typed, isInValuePreview): ` +
        `${p.previews} formulas, every function at least once. Nothing cached: ${formatCount(p.cold.requests)} ` +
        `requests, ${formatCount(p.cold.placeholders)} placeholders, ${formatDuration(p.cold.wallMs)}. After ` +
        `Enter: ${formatCount(p.warm.requests)} requests, ${formatCount(p.warm.sameAsEntered)} of ` +
        `${formatCount(p.previews)} the entered value, ${formatDuration(p.warm.wallMs)}.`
    );
  if (s.values) lines.push(bigLine(s.values));
  if (s.spills) lines.push(bigLine(s.spills));
  const c = s.cards;
  if (c)
    lines.push(
      `Cards as arguments: ${formatCount(c.cells)} cells =CRYPTO.VALUE(A1,metric[,date]) over ` +
        `${formatCount(c.cards)} PROJECT cards (built with ${formatCount(c.cardRequests)} requests, unmeasured ` +
        `below), each run from the catalogues alone: with cards ${formatCount(c.withCards.requests)} requests in ` +
        `${formatDuration(c.withCards.wallMs)}, with ids ${formatCount(c.withIds.requests)} in ` +
        `${formatDuration(c.withIds.wallMs)}; ${formatCount(c.sameOutcomes)} of ${formatCount(c.cells)} ` +
        `outcomes the same.`
    );
  return lines;
}
