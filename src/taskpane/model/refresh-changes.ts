/**
 * What a Refresh all found (the taskpane's or the ribbon's: src/excel/refresh-changes.ts collects both): the
 * restatements the ledger records while the workbook recalculates after it (src/engine/ledger), counted and
 * listed in the Refresh view as they arrive, and a CHANGES formula for them in the builder. Excel recalculates
 * custom functions asynchronously, after its calculate request returns: the list follows the record, so it
 * grows while the formulas settle, and a later refresh starts a new one.
 */
import { changeText, newestChanges } from "../../engine";
import { clockTime } from "../../excel/refresh";
import type { FoundChanges } from "../../excel/refresh-changes";
import { emptyState, withValue, type BuilderState } from "./formula-builder";

/** Changes the view lists by name; the count says how many more there are (CHANGES lists them all). */
export const LISTED_CHANGES = 20;

/** "aave fees 2024-02-15: 1,030,419.38 → 1,288,024.23" (engine/ledger/describe.ts). */
export const changeLine = changeText;

interface ChangesFound {
  /** "2 figures changed since the refresh at 09:00:00 UTC." */
  summary: string;
  /** The newest first, at most LISTED_CHANGES. */
  lines: string[];
}

export function changesFound(found: FoundChanges): ChangesFound {
  const n = found.count;
  const since = `${found.source === "ribbon" ? "the ribbon's refresh" : "the refresh"} at ${clockTime(found.since)}`;
  const summary =
    n === 0
      ? `No figure has changed since ${since}.`
      : `${n} figure${n === 1 ? "" : "s"} changed since ${since}${n > LISTED_CHANGES ? ` (the newest ${LISTED_CHANGES} below)` : ""}.`;
  return { summary, lines: newestChanges(found.kept, LISTED_CHANGES).map(changeText) };
}

/** A CHANGES formula for the projects and metrics that changed (the builder's defaults when none did). */
export function changesFormula(found: FoundChanges | undefined): BuilderState {
  const state = emptyState("CHANGES");
  if (!found || found.count === 0) return state;
  return withValue(
    withValue(state, "projects", { kind: "ids", ids: [...found.projects] }),
    "metrics",
    {
      kind: "ids",
      ids: [...found.metrics],
    }
  );
}
