/**
 * What the taskpane's diagnostics show: per cell, the parsed arguments, the requests that served it, its
 * partial-success errors and staleness; a list of recent errors with their cells; a usage meter. Nothing here
 * ever holds the API key: arguments are the user's formula arguments, messages come redacted from the client.
 */
import type { ClientEvent } from "../client";

export interface CellRecord {
  address: string;
  functionName: string;
  args: Readonly<Record<string, unknown>>;
  at: number;
  /** Requests whose answers made the result (from the engine's plans and the catalogue cache). */
  requests: string[];
  /** Partial-success errors and other notes that did not stop the result. */
  warnings: string[];
  stale?: { fetchedAt: number; reason: string };
  /** Set when the values came from the cache saved on this computer (an earlier session). */
  restored?: { fetchedAt: number };
  /** The cell's own error, when its whole result is one. */
  error?: { code: string; message: string };
  /** Metric definitions relevant to the cell, when known. */
  definitions?: Readonly<Record<string, string>>;
  /** The date ("YYYY-MM-DD") of each latest value the cell shows, by series ("aave tvl"). */
  asOf?: Readonly<Record<string, string>>;
}

export interface ErrorRecord {
  at: number;
  address: string;
  functionName: string;
  code: string;
  message: string;
}

/** Something about the saved cache a user may want to know (entries dropped, a store that failed). */
export interface NoteRecord {
  at: number;
  text: string;
}

export interface Usage {
  /** Requests started within the last minute. */
  requestsLastMinute: number;
  limitPerMinute: number;
  requestsTotal: number;
  retriesTotal: number;
  errorsTotal: number;
  simulated: boolean;
  /** Set when the counts are the team gateway's budget (as it reports it), not this computer's requests. */
  team?: { key: "team" | "own"; at: number };
}

/** The budget a team gateway reported (Team gateway mode): its window's starts against its limit. */
interface TeamBudget {
  limit: number;
  used: number;
  windowMs: number;
  key: "team" | "own";
  /** When it was reported. */
  at: number;
}

/** A team budget older than this is no longer shown (the gateway stopped answering, or the mode changed). */
const TEAM_BUDGET_FRESH_MS = 2 * 60_000;

/** Cells remembered: a big model has a few thousand formulas; older records go first. */
const MAX_CELLS = 5_000;
/**
 * And at most about this much (recordBytes, a rough size of what a record holds), whatever the workbook: a
 * record of a table with many notes or of a call with long arguments is larger than a VALUE cell's (about 500
 * bytes), and 5,000 of them must not grow with the workbook either. The newest record is always kept.
 */
export const MAX_RECORD_BYTES = 4_000_000;
/** What a record made on reading holds besides its arguments: the call's trace, the closure, the address. */
export const DEFERRED_RECORD_BYTES = 400;
const MAX_ERRORS = 100;
const MAX_NOTES = 50;
const MINUTE = 60_000;

/** A cell's record, or how to make it when someone reads it (see recordCellLater). */
type CellEntry = CellRecord | (() => CellRecord);

/**
 * A rough size in bytes of a value as a record holds it: strings by their length, numbers and flags at 8 bytes,
 * 16 per object or array and 8 per member. Only to bound the record (V8's real sizes differ by a small factor).
 */
export function recordBytes(value: unknown, depth = 0): number {
  if (typeof value === "string") return 16 + value.length;
  if (typeof value !== "object" || value === null) return 8;
  if (depth > 8) return 16;
  let n = 16;
  if (Array.isArray(value)) {
    for (const item of value) n += 8 + recordBytes(item, depth + 1);
    return n;
  }
  for (const key in value)
    n += 8 + key.length + recordBytes((value as Record<string, unknown>)[key], depth + 1);
  return n;
}

export class Diagnostics {
  private readonly cells = new Map<string, CellEntry>();
  /** recordBytes of each kept entry, and their total. */
  private readonly sizes = new Map<string, number>();
  private bytes = 0;
  private readonly errors: ErrorRecord[] = [];
  private readonly notesList: NoteRecord[] = [];
  /** Cells answered with kept (stale) values since the last takeStale(), newest last; bounded like cells. */
  private readonly staleAnswers = new Map<string, { fetchedAt: number; reason: string }>();
  private readonly requestTimes: number[] = [];
  private totals = { requests: 0, retries: 0, errors: 0 };
  private simulated = false;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly now: () => number,
    private limitPerMinute: number
  ) {}

  setLimit(limitPerMinute: number): void {
    this.limitPerMinute = limitPerMinute;
  }

  private teamBudget: TeamBudget | undefined;

  /** What the team gateway reports of the budget serving this user; undefined: back to this computer's count. */
  setTeamBudget(budget: TeamBudget | undefined): void {
    // Nothing to tell when there was none and is none (Settings shown in Your key mode): listeners re-render.
    if (budget === undefined && this.teamBudget === undefined) return;
    this.teamBudget = budget;
    this.changed();
  }

  /** Feed for the client's events (subscribe it to the client). */
  readonly onClientEvent = (event: ClientEvent): void => {
    if (event.type === "request") {
      this.totals.requests++;
      const now = this.now();
      this.requestTimes.push(now);
      // Only the last minute is ever shown: older times go now too, or a session that never shows the
      // usage meter keeps one number per request for as long as Excel runs.
      while (this.requestTimes[0] <= now - MINUTE) this.requestTimes.shift();
    } else if (event.type === "retry") {
      this.totals.retries++;
    } else if (event.type === "error") {
      this.totals.errors++;
    } else if (event.type === "response" && event.simulated) {
      this.simulated = true;
    } else if (event.type === "notice") {
      // What a call set aside (an unreadable entry, rows dated after any possible day): a note, once in a row.
      if (this.notesList[0]?.text !== event.message) this.recordNote(event.message);
    }
    this.changed();
  };

  recordCell(record: CellRecord): void {
    this.keep(record.address, record, recordBytes(record));
    if (record.error) {
      this.errors.unshift({
        at: record.at,
        address: record.address,
        functionName: record.functionName,
        code: record.error.code,
        message: record.error.message,
      });
      this.errors.length = Math.min(this.errors.length, MAX_ERRORS);
    }
    this.changed();
  }

  /**
   * Records a cell that succeeded, its record made only when first read (cell(), export()). A warm
   * recalculation answers thousands of cells whose records no one opens; the taskpane reads one, the
   * selected cell's. `describe` must give the record as it is now: what it reads may not change later.
   * `bytes`: what the waiting record holds (recordBytes of its arguments and DEFERRED_RECORD_BYTES).
   */
  recordCellLater(
    address: string,
    describe: () => CellRecord,
    bytes = DEFERRED_RECORD_BYTES
  ): void {
    this.keep(address, describe, bytes);
    this.changed();
  }

  /** The newest record of the address, last in order; the oldest go past the bounds. */
  private keep(address: string, entry: CellEntry, bytes: number): void {
    this.bytes += bytes - (this.sizes.get(address) ?? 0);
    this.sizes.set(address, bytes);
    this.cells.delete(address);
    this.cells.set(address, entry);
    if (this.cells.size > MAX_CELLS * 1.25 || this.bytes > MAX_RECORD_BYTES) this.trim();
  }

  /**
   * Trim in bulk: deleting the oldest entry one at a time makes a Map skip ever more holes. The oldest go, by
   * deleting their keys in insertion order (a new Map of the rest, every 1,250 cells of a 10,000-cell
   * recalculation, was garbage the hot path paid for), down to MAX_CELLS and 80 % of MAX_RECORD_BYTES; the
   * newest stays whatever its size.
   */
  private trim(): void {
    const bytesGoal = MAX_RECORD_BYTES * 0.8;
    for (const address of this.cells.keys()) {
      if ((this.cells.size <= MAX_CELLS && this.bytes <= bytesGoal) || this.cells.size <= 1) break;
      this.cells.delete(address);
      this.bytes -= this.sizes.get(address) ?? 0;
      this.sizes.delete(address);
    }
  }

  /** The record under `address`, made now if it was deferred (and kept, in its place in the order). */
  private described(address: string): CellRecord | undefined {
    const entry = this.cells.get(address);
    if (typeof entry !== "function") return entry;
    const record = entry();
    this.cells.set(address, record);
    const bytes = recordBytes(record);
    this.bytes += bytes - (this.sizes.get(address) ?? 0);
    this.sizes.set(address, bytes);
    return record;
  }

  /** Forgets every cell's record (usage, recent errors and notes stay): a new workbook's empty record. */
  clearCells(): void {
    this.cells.clear();
    this.sizes.clear();
    this.staleAnswers.clear();
    this.bytes = 0;
    this.changed();
  }

  /**
   * A cell was answered with values kept from before (stale-if-error, stale-if-slow). Noted as it happens,
   * for a host that marks every such cell (the CLI, on stderr); the cell's record says so too.
   */
  noteStale(address: string, stale: { fetchedAt: number; reason: string }): void {
    this.staleAnswers.delete(address);
    this.staleAnswers.set(address, stale);
    if (this.staleAnswers.size > MAX_CELLS) {
      const oldest = this.staleAnswers.keys().next();
      if (!oldest.done) this.staleAnswers.delete(oldest.value);
    }
  }

  /** The cells answered stale since the last call, by address; forgets them. */
  takeStale(): Map<string, { fetchedAt: number; reason: string }> {
    const taken = new Map(this.staleAnswers);
    this.staleAnswers.clear();
    return taken;
  }

  recordNote(text: string): void {
    this.notesList.unshift({ at: this.now(), text });
    this.notesList.length = Math.min(this.notesList.length, MAX_NOTES);
    this.changed();
  }

  /** Newest first. */
  notes(): readonly NoteRecord[] {
    return this.notesList;
  }

  cell(address: string): CellRecord | undefined {
    return this.described(address) ?? this.described(address.replace(/\$/g, ""));
  }

  recentErrors(): readonly ErrorRecord[] {
    return this.errors;
  }

  usage(): Usage {
    const since = this.now() - MINUTE;
    while (this.requestTimes.length > 0 && this.requestTimes[0] <= since) this.requestTimes.shift();
    const team = this.teamBudget;
    const teamNow = team && this.now() - team.at < TEAM_BUDGET_FRESH_MS ? team : undefined;
    return {
      requestsLastMinute: teamNow ? teamNow.used : this.requestTimes.length,
      limitPerMinute: teamNow ? teamNow.limit : this.limitPerMinute,
      ...(teamNow ? { team: { key: teamNow.key, at: teamNow.at } } : {}),
      requestsTotal: this.totals.requests,
      retriesTotal: this.totals.retries,
      errorsTotal: this.totals.errors,
      simulated: this.simulated,
    };
  }

  /**
   * How much the record holds, for bounds checks (soak, long sessions, big workbooks): it never grows with
   * time or with the workbook. `bytes`: the cells' records by recordBytes.
   */
  retained(): {
    cells: number;
    bytes: number;
    errors: number;
    requestTimes: number;
    notes: number;
  } {
    return {
      cells: this.cells.size,
      bytes: this.bytes,
      errors: this.errors.length,
      requestTimes: this.requestTimes.length,
      notes: this.notesList.length,
    };
  }

  /** Everything, for "export diagnostics" (a support request): serialisable, no key. */
  export(): {
    cells: CellRecord[];
    errors: readonly ErrorRecord[];
    notes: readonly NoteRecord[];
    usage: Usage;
  } {
    return {
      cells: [...this.cells.keys()].map((address) => this.described(address)!),
      errors: this.errors,
      notes: this.notesList,
      usage: this.usage(),
    };
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const l of this.listeners) {
      try {
        l();
      } catch {
        // The diagnostics view never breaks a calculation.
      }
    }
  }
}
