/** The restatement ledger's door (README.md beside this file). */
export {
  compareRange,
  type HeldFigure,
  type RangeComparison,
  type RangeOutcome,
  type SentFigure,
} from "./compare";
export { hmacSeal, type LedgerSeal } from "./codec";
export { RestatementLedger, type LedgerOptions } from "./ledger";
export { LedgerView, type ChangeFilter } from "./view";
export {
  NO_RUNS,
  decodeRuns,
  encodeRuns,
  listRuns,
  seenAt,
  spliceRuns,
  type SeenRun,
  type SeenRuns,
} from "./seen";
export { MemoryLedgerStore, type LedgerSegmentInfo, type LedgerStore } from "./store";
export { type HeldNow, type Known } from "./timeline";
export { cellId, type CellRef, type Change, type FigureValue, type SeriesRef } from "./types";
export { changeText, newestChanges } from "./describe";
export { notKnownMessage, parseVintage, type Vintage } from "./vintage";
