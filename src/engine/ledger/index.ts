/** The restatement ledger's door (README.md beside this file). */
export {
  compareRange,
  type HeldFigure,
  type RangeComparison,
  type RangeOutcome,
  type SentFigure,
} from "./compare";
export { CHANGES_PER_LINE, LINE_LIMITS, hmacSeal, sha256Seal, type LedgerSeal } from "./codec";
export { MAX_LEDGER_BYTES, RestatementLedger, type LedgerOptions } from "./ledger";
export { LedgerView, type ChangeFilter } from "./view";
export {
  MAX_SEEN_RUNS,
  NO_RUNS,
  decodeRuns,
  encodeRuns,
  listRuns,
  seenAt,
  spliceRuns,
  type SeenRun,
  type SeenRuns,
} from "./seen";
export {
  MemoryLedgerStore,
  linesBytes,
  newestWithin,
  utf8Bytes,
  type LedgerSegmentInfo,
  type LedgerStore,
} from "./store";
export { knownAt, type HeldNow, type Known } from "./timeline";
export {
  cellId,
  sameValue,
  seriesId,
  type CellRef,
  type Change,
  type FigureValue,
  type SeriesRef,
} from "./types";
export { changeText, newestChanges } from "./describe";
export { notKnownMessage, parseVintage, type Vintage } from "./vintage";
