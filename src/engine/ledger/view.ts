/**
 * The ledger as loaded (ledger.ts): every change once, by figure, and newest first. Held in columns (typed arrays,
 * 44 bytes a change) with series, members and requests named once each: a year of daily restatements of every
 * figure of a 1,000-cell model is 365,000 changes, which as one object each (and a text key each to count them
 * once) took 196 MB of heap and 5.5 s to read back; Change objects are made only for what a look-up returns.
 */
import { knownAt, type HeldNow, type Known } from "./timeline";
import { seriesId, type CellRef, type Change, type FigureValue, type SeriesRef } from "./types";

export interface ChangeFilter {
  /** Project ids (any when absent). */
  projects?: ReadonlySet<string>;
  metrics?: ReadonlySet<string>;
}

/** A growable column of numbers. */
class Column<A extends Float64Array | Int32Array> {
  length = 0;
  constructor(
    public data: A,
    private readonly make: (n: number) => A
  ) {}

  push(value: number): number {
    if (this.length === this.data.length) {
      const next = this.make(Math.max(16, this.data.length * 2));
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length] = value;
    return this.length++;
  }
}

const floats = (): Column<Float64Array> =>
  new Column(new Float64Array(0), (n) => new Float64Array(n));
const ints = (): Column<Int32Array> => new Column(new Int32Array(0), (n) => new Int32Array(n));

/** null travels as NaN in the value columns: no service value is NaN. */
const pack = (v: FigureValue): number => (v === null ? NaN : v);
const unpack = (v: number): FigureValue => (Number.isNaN(v) ? null : v);
/** Packed values equal: NaN (null) to NaN, and 0 to -0 (one figure, as sameValue has it). */
const samePacked = (a: number, b: number): boolean =>
  a === b || (Number.isNaN(a) && Number.isNaN(b));

export class LedgerView {
  private readonly series: SeriesRef[] = [];
  private readonly seriesIndex = new Map<string, number>();
  /** Series objects already indexed (one per decoded line's series): no key text made per change. */
  private readonly seriesOf = new WeakMap<SeriesRef, number>();
  private readonly requests: string[] = [];
  private readonly requestIndex = new Map<string, number>();
  private readonly cellIndex = new Map<string, number>();
  /** Each series' cells, for the days a look-up over a range must consider beyond those held. */
  private readonly cellsOfSeries = new Map<number, number[]>();
  private readonly cellSeries = ints();
  private readonly cellDay = ints();
  private readonly cellDim: string[] = [];
  /** The newest change of each cell; each change links to the one before it (-1: none). */
  private readonly cellHead = ints();
  /** 1 while a cell's changes came in the order they were seen (its look-up for a copy can stop early). */
  private readonly cellOrdered = ints();
  private readonly cell = ints();
  private readonly before = floats();
  private readonly after = floats();
  private readonly beforeSeenAt = floats();
  private readonly seenAt = floats();
  private readonly request = ints();
  private readonly previous = ints();
  private order: Int32Array | undefined;

  constructor(
    /** The instant before which changes were dropped to bound the ledger (-Infinity: none was). */
    public keptSince = -Infinity
  ) {}

  get size(): number {
    return this.cell.length;
  }

  private seriesNumber(s: SeriesRef): number {
    let n = this.seriesOf.get(s);
    if (n !== undefined) return n;
    const id = seriesId(s);
    n = this.seriesIndex.get(id);
    if (n === undefined) {
      n = this.series.length;
      this.series.push({ ...s });
      this.seriesIndex.set(id, n);
    }
    this.seriesOf.set(s, n);
    return n;
  }

  private cellKey(series: number, dim: string, day: number): string {
    // Two numbers, then the member: unambiguous whatever the member holds.
    return `${series}\u0000${day}\u0000${dim}`;
  }

  private cellNumber(c: CellRef, create: boolean): number | undefined {
    const s = create ? this.seriesNumber(c.series) : this.seriesIndex.get(seriesId(c.series));
    if (s === undefined) return undefined;
    const key = this.cellKey(s, c.dim, c.day);
    let n = this.cellIndex.get(key);
    if (n === undefined && create) {
      n = this.cellSeries.push(s);
      this.cellDay.push(c.day);
      this.cellDim.push(c.dim);
      this.cellHead.push(-1);
      this.cellOrdered.push(1);
      this.cellIndex.set(key, n);
      const list = this.cellsOfSeries.get(s);
      if (list) list.push(n);
      else this.cellsOfSeries.set(s, [n]);
    }
    return n;
  }

  private requestNumber(text: string): number {
    let n = this.requestIndex.get(text);
    if (n === undefined) {
      n = this.requests.length;
      this.requests.push(text);
      this.requestIndex.set(text, n);
    }
    return n;
  }

  /**
   * Adds changes, once each: a change two processes recorded (the same figure, values and `before` instant) counts
   * once, at its first sighting. Returns how many were new.
   */
  add(changes: readonly Change[]): number {
    let added = 0;
    for (const c of changes) {
      const cell = this.cellNumber(c, true)!;
      const before = pack(c.before);
      const after = pack(c.after);
      let same = -1;
      const head = this.cellHead.data[cell];
      for (let i = head; i >= 0; i = this.previous.data[i]) {
        // A copy of this change was seen at or after its `before` was: in a cell whose changes came in time
        // order, none is older than that.
        if (this.seenAt.data[i] < c.beforeSeenAt && this.cellOrdered.data[cell] === 1) break;
        if (
          this.beforeSeenAt.data[i] === c.beforeSeenAt &&
          samePacked(this.before.data[i], before) &&
          samePacked(this.after.data[i], after)
        ) {
          same = i;
          break;
        }
      }
      if (same >= 0) {
        if (c.seenAt < this.seenAt.data[same]) {
          this.seenAt.data[same] = c.seenAt;
          this.request.data[same] = this.requestNumber(c.request);
          this.order = undefined;
        }
        continue;
      }
      if (head >= 0 && c.seenAt < this.seenAt.data[head]) this.cellOrdered.data[cell] = 0;
      const i = this.cell.push(cell);
      this.before.push(before);
      this.after.push(after);
      this.beforeSeenAt.push(c.beforeSeenAt);
      this.seenAt.push(c.seenAt);
      this.request.push(this.requestNumber(c.request));
      this.previous.push(this.cellHead.data[cell]);
      this.cellHead.data[cell] = i;
      this.order = undefined;
      added++;
    }
    return added;
  }

  private changeAt(i: number): Change {
    const cell = this.cell.data[i];
    return {
      series: this.series[this.cellSeries.data[cell]],
      dim: this.cellDim[cell],
      day: this.cellDay.data[cell],
      before: unpack(this.before.data[i]),
      after: unpack(this.after.data[i]),
      beforeSeenAt: this.beforeSeenAt.data[i],
      seenAt: this.seenAt.data[i],
      request: this.requests[this.request.data[i]],
    };
  }

  /** The recorded changes of one figure, oldest first. */
  changesOf(ref: CellRef): Change[] {
    const cell = this.cellNumber(ref, false);
    if (cell === undefined) return [];
    const out: Change[] = [];
    for (let i = this.cellHead.data[cell]; i >= 0; i = this.previous.data[i])
      out.push(this.changeAt(i));
    return out.sort((a, b) => a.seenAt - b.seenAt);
  }

  /** The days of a series' member in [start, end] with a recorded change, ascending. */
  changedDays(series: SeriesRef, dim: string, start: number, end: number): number[] {
    const s = this.seriesIndex.get(seriesId(series));
    if (s === undefined) return [];
    const days: number[] = [];
    for (const cell of this.cellsOfSeries.get(s) ?? []) {
      const day = this.cellDay.data[cell];
      if (this.cellDim[cell] === dim && day >= start && day <= end) days.push(day);
    }
    return days.sort((a, b) => a - b);
  }

  /** The figure as known at `at`, with the value held now (undefined: none held). */
  known(ref: CellRef, held: HeldNow | undefined, at: number): Known {
    return knownAt(this.changesOf(ref), held, at, this.keptSince);
  }

  /** Changes seen at or after `since` of the filter's projects and metrics, newest first. */
  since(since: number, filter: ChangeFilter = {}): Change[] {
    const order = (this.order ??= this.sortedOrder());
    const wanted = this.series.map(
      (s) =>
        (!filter.projects || filter.projects.has(s.projectId)) &&
        (!filter.metrics || filter.metrics.has(s.metricId))
    );
    const out: Change[] = [];
    for (const i of order) {
      if (this.seenAt.data[i] < since) break;
      if (wanted[this.cellSeries.data[this.cell.data[i]]]) out.push(this.changeAt(i));
    }
    return out;
  }

  /** Newest seen first; among equals by project, product, metric, filter, member and day: a stable table. */
  private sortedOrder(): Int32Array {
    const order = Int32Array.from({ length: this.size }, (_, i) => i);
    const seen = this.seenAt.data;
    const text = (i: number): string[] => {
      const cell = this.cell.data[i];
      const s = this.series[this.cellSeries.data[cell]];
      return [s.projectId, s.productId, s.metricId, s.filter, this.cellDim[cell]];
    };
    return order.sort((a, b) => {
      if (seen[a] !== seen[b]) return seen[b] - seen[a];
      const ka = text(a);
      const kb = text(b);
      for (let k = 0; k < ka.length; k++) if (ka[k] !== kb[k]) return ka[k] < kb[k] ? -1 : 1;
      return this.cellDay.data[this.cell.data[a]] - this.cellDay.data[this.cell.data[b]];
    });
  }
}
