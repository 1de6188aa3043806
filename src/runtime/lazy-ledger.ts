/**
 * The runtime's record of restatements (src/engine/ledger's RestatementLedger), its code loaded the first time
 * it is used for more than listening: a change to record, or the record read (vintage=, CHANGES, a refresh
 * that waits for it). Most sessions restate nothing, and on the Excel page the ledger's code (its codec, its
 * view, the bound) is a chunk of its own rather than part of functions.js; under Node the import is a require.
 *
 * It keeps the ledger's promises: listeners hear each change as it is recorded, before it is written; record()
 * never rejects (a ledger whose code could not be loaded costs a note, never a cell); a view holds every change
 * recorded before it was asked for; flush() waits for every change recorded so far.
 */
import { Listeners } from "../client";
import type {
  Change,
  LedgerOptions,
  LedgerStore,
  LedgerView,
  MemoryLedgerStore,
  RestatementLedger,
} from "../engine";

/**
 * The ledger's options, its store optional: without one (no saved cache: a page that cannot keep one, a
 * test) the record lives in process memory, a MemoryLedgerStore made with the ledger's code.
 */
type LazyLedgerOptions = Omit<LedgerOptions, "store"> & { store?: LedgerStore };

/** Where a ledger without a store keeps its record (MemoryLedgerStore's location, a test holds them equal). */
export const IN_MEMORY = "process memory";

export class LazyLedger {
  private ledger: Promise<RestatementLedger> | undefined;
  /** Everything asked of the ledger so far, in order: a view or a flush waits for the records before it. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Listeners<readonly Change[]>();

  constructor(private readonly options: LazyLedgerOptions) {}

  get location(): string {
    return this.options.store?.location ?? IN_MEMORY;
  }

  /** Called with the changes recorded (the refresh's count, the taskpane's list). */
  subscribe(listener: (changes: readonly Change[]) => void): () => void {
    return this.listeners.add(listener);
  }

  /** Records changes; resolves when written or given up (a note says why), never rejects. */
  record(changes: readonly Change[]): Promise<void> {
    if (changes.length === 0) return this.flush();
    // A listener never stops the record.
    this.listeners.tell(changes);
    return this.then(
      (ledger) => ledger.record(changes),
      (error) =>
        this.note(`restatements not recorded: the ledger could not be loaded (${String(error)})`)
    );
  }

  /** Resolves once everything recorded so far is written. */
  flush(): Promise<void> {
    if (!this.ledger) return this.queue.then(() => undefined);
    return this.then(
      (ledger) => ledger.flush(),
      () => undefined
    );
  }

  /** The record as this computer holds it, with every change recorded before the call. */
  view(): Promise<LedgerView> {
    return this.then((ledger) => ledger.view());
  }

  /** Forgets the loaded view: the next view() reads the store again. */
  reload(): void {
    void this.ledger?.then(
      (ledger) => ledger.reload(),
      () => undefined
    );
  }

  /** An empty view to merge records into, changes kept from `keptSince` on. */
  async emptyView(keptSince: number): Promise<LedgerView> {
    const { LedgerView } = await this.module();
    return new LedgerView(keptSince);
  }

  /** Removes every namespace's record. */
  clear(): Promise<void> {
    return this.then((ledger) => ledger.clear());
  }

  /** `step` on the loaded ledger, after everything asked before it. */
  private then<T>(
    step: (ledger: RestatementLedger) => Promise<T>,
    failed?: (error: unknown) => T | Promise<T>
  ): Promise<T> {
    const ledger = this.load();
    const next = this.queue.then(() => ledger).then(step, failed);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private load(): Promise<RestatementLedger> {
    this.ledger ??= this.module().then(
      (m) =>
        new m.RestatementLedger({
          ...this.options,
          store: this.options.store ?? new m.MemoryLedgerStore(),
        }),
      (error: unknown) => {
        // Asked again next time: a chunk that failed to load once may load then.
        this.ledger = undefined;
        throw error;
      }
    );
    return this.ledger;
  }

  /** The ledger's own module, not the engine's door: the door would put the ledger in functions.js. */
  private module(): Promise<{
    RestatementLedger: typeof RestatementLedger;
    LedgerView: typeof LedgerView;
    MemoryLedgerStore: typeof MemoryLedgerStore;
  }> {
    return import(/* webpackChunkName: "ledger" */ "../engine/ledger/ledger");
  }

  private note(text: string): void {
    try {
      this.options.onNote?.(text);
    } catch {
      // A note never breaks a calculation.
    }
  }
}
