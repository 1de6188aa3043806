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
}

/** Cells remembered: a big model has a few thousand formulas; older records go first. */
const MAX_CELLS = 5_000;
const MAX_ERRORS = 100;
const MAX_NOTES = 50;
const MINUTE = 60_000;

/** A cell's record, or how to make it when someone reads it (see recordCellLater). */
type CellEntry = CellRecord | (() => CellRecord);

export class Diagnostics {
  private readonly cells = new Map<string, CellEntry>();
  private readonly errors: ErrorRecord[] = [];
  private readonly notesList: NoteRecord[] = [];
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
    }
    this.changed();
  };

  recordCell(record: CellRecord): void {
    this.keep(record.address, record);
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
   */
  recordCellLater(address: string, describe: () => CellRecord): void {
    this.keep(address, describe);
    this.changed();
  }

  /** The newest record of the address, last in order; the oldest go past the bound. */
  private keep(address: string, entry: CellEntry): void {
    this.cells.delete(address);
    this.cells.set(address, entry);
    // Trim in bulk: deleting the oldest entry one at a time makes a Map skip ever more holes. The oldest
    // quarter goes by deleting its keys in insertion order (a new Map of the rest, every 1,250 cells of a
    // 10,000-cell recalculation, was garbage the hot path paid for).
    if (this.cells.size > MAX_CELLS * 1.25) {
      let excess = this.cells.size - MAX_CELLS;
      for (const address of this.cells.keys()) {
        if (excess-- <= 0) break;
        this.cells.delete(address);
      }
    }
  }

  /** The record under `address`, made now if it was deferred (and kept, in its place in the order). */
  private described(address: string): CellRecord | undefined {
    const entry = this.cells.get(address);
    if (typeof entry !== "function") return entry;
    const record = entry();
    this.cells.set(address, record);
    return record;
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
    return {
      requestsLastMinute: this.requestTimes.length,
      limitPerMinute: this.limitPerMinute,
      requestsTotal: this.totals.requests,
      retriesTotal: this.totals.retries,
      errorsTotal: this.totals.errors,
      simulated: this.simulated,
    };
  }

  /** How much the record holds, for bounds checks (soak, long sessions): it never grows with time. */
  retained(): { cells: number; errors: number; requestTimes: number; notes: number } {
    return {
      cells: this.cells.size,
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
