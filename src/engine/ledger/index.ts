/** The restatement ledger's door (README.md beside this file). */
export { compareRange, type HeldFigure } from "./compare";
export { hmacSeal } from "./codec";
export { MAX_LEDGER_BYTES, RestatementLedger, type LedgerOptions } from "./ledger";
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
export {
  MemoryLedgerStore,
  linesBytes,
  newestWithin,
  utf8Bytes,
  type LedgerSegmentInfo,
  type LedgerStore,
} from "./store";
export { cellId, type Change, type SeriesRef } from "./types";
export { changeText, newestChanges } from "./describe";
export { notKnownMessage, parseVintage, type Vintage } from "./vintage";
