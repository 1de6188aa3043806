/**
 * What each audience is told about each kind of failure: ONE table, a row per error kind (ERROR_KINDS) and a
 * column per audience. Every place that puts a failure into words derives them from here:
 *
 * | column       | who reads it                          | used by                               |
 * |--------------|---------------------------------------|---------------------------------------|
 * | `label`      | developers, logs: the client's message | src/client/http/response.ts          |
 * | `cell`       | a person looking at a failing cell    | src/functions/edge.ts                 |
 * | `taskpane`   | a person in the taskpane              | src/taskpane/model/plain-errors.ts    |
 * | `gateway`    | the add-in behind a team gateway      | src/gateway/errors.ts                 |
 * | `connection` | a person pressing "Test connection"   | src/runtime/connection-test.ts        |
 *
 * Why here: the table must be importable by the functions, the taskpane, the gateway and the runtime, and the
 * client is the one layer all of them stand on (its rules: no Office, no DOM, nothing above it). So the cell
 * column holds the Excel error's *name* as data ("#VALUE!", "#N/A"), and only src/functions turns it into a
 * CustomFunctions.Error; the hints that depend on where the words are read (Excel's Refresh or the CLI's flags)
 * are handed in by the caller. Each column is a mapped type over ErrorKind: a kind missing from a column does not
 * compile, and test/client/error-words.test.ts says so at run time too.
 *
 * Written by column, a module per audience (labels.ts, cell.ts, pane.ts, gateway.ts, connection.ts; this file
 * holds the row's frame), so that each bundle carries only its audience's words: functions.js, which Excel loads
 * for every workbook, holds the labels and the cell column, not the taskpane's, the gateway's or the connection
 * test's (about 2 kB gzipped; webpack keeps a module whole, so columns in one module would all ship). table.ts
 * reads the same table by rows, for its test.
 *
 * Where an audience's words vary with the failure (a key missing or refused, an address that is not the service),
 * the column is a small function of the error's facts; the words themselves stay here.
 */
import type { CryptometricsError } from "../errors";

/** The audiences, in the table's column order. */
export const AUDIENCES = ["label", "cell", "taskpane", "gateway", "connection"] as const;

/** Excel errors by their name in Excel; src/functions makes the CustomFunctions.Error. */
export type ExcelErrorName = "#VALUE!" | "#N/A";

/** Where a cell's words are read: Excel (the taskpane, Refresh) or the command line (its flags). */
export interface CellHints {
  /** Where the key is set: "set your API key in the Cryptometrics taskpane (Settings)". */
  settings: string;
  /** Where the service address is set. */
  address: string;
  /** How to ask again; `when` ends the sentence ("in a minute"). */
  retry(when: string): string;
}

/** A cell's text: the client's message with advice `before` and `after` it (advice survives clipping), or fixed text. */
export type CellText = { before: string; after: string } | { text: string };

export interface CellWords {
  excel: ExcelErrorName;
  /**
   * Whether the message keeps the words of what was asked ("the fees breakdown for aave: …"): not for a missing
   * or refused key, which is the same whatever was asked.
   */
  call: boolean;
  says(hints: CellHints, error: CryptometricsError): CellText;
}

export type PaneAction = "retry" | "settings";

export interface PaneWords {
  message: string;
  actions: PaneAction[];
}

/** What the taskpane knows when it speaks: "Could not <doing>", and the client's message cleaned of its labels. */
export interface PaneFacts {
  could: string;
  reason: string;
}

export interface GatewayWords {
  /** The status answered when the service failed this way (the gateway's own business: 5xx). */
  status: number;
  /** The service's own 4xx is passed on instead, when it gave one (its 400, 404, 410). */
  passStatus?: true;
  /** Fixed text: never anything the caller sent, never the service's text (src/gateway/errors.ts). */
  text: string;
  /** With the caller's own registered key: their key, their business. */
  ownKey?: { status: number; text: string };
  /** Retry-After (seconds) when the error carries none. */
  retryAfterSeconds?: number;
}

export type Verdict =
  | "valid"
  | "key-rejected"
  | "subscription"
  | "unreachable"
  | "not-configured"
  | "wrong-address"
  | "service-problem";

export interface ConnectionWords {
  verdict: Verdict;
  message: string;
}

/** A row of the table: a kind's words for every audience. */
export interface KindWords {
  label: string;
  cell: CellWords;
  taskpane(error: CryptometricsError, facts: PaneFacts): PaneWords;
  gateway: GatewayWords;
  connection(error: CryptometricsError, where: string): ConnectionWords;
}

/**
 * A time-out with no attempt made: the call waited for a turn in the request budget (other calls or runs of the
 * key may hold it) and the service was never asked. Not "could not be reached", in any audience.
 */
export function waitedForBudget(error: CryptometricsError): boolean {
  return error.kind === "timeout" && error.attempts === 0;
}
