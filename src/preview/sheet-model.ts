/**
 * The preview page's little sheet: formulas by cell, their results, and where each result spills. Like
 * Excel, a result spills from its formula's cell down and right; a spill that would cover another formula
 * is blocked and the formula shows #SPILL! instead (the formula entered later loses).
 */
import { addressOf, columnName, positionOf, type Position } from "../sheet/addresses";
import { errorCell, type Cell, type Grid } from "../sheet/cells";

export type { Position };
export { addressOf, columnName, positionOf };

export type EntryState =
  { kind: "pending" } | { kind: "done"; grid: Grid } | { kind: "refused"; message: string };

export interface Entry {
  at: Position;
  formula: string;
  state: EntryState;
  /** Entry order: earlier formulas keep their spill. */
  seq: number;
}

export interface ShownCell {
  cell: Cell | "pending";
  /** The formula's cell this shows part of. */
  origin: Position;
  /** True for cells a result spilled into (not the formula's own cell). */
  spilled: boolean;
}

const key = (p: Position): string => `${p.row}:${p.column}`;

export class SheetModel {
  private readonly entries = new Map<string, Entry>();
  private seq = 0;

  constructor(
    public minRows = 30,
    public minColumns = 10
  ) {}

  /** Sets (or, with an empty formula, clears) a cell's formula; returns the new entry. */
  set(at: Position, formula: string): Entry | undefined {
    const trimmed = formula.trim();
    if (trimmed === "") {
      this.entries.delete(key(at));
      return undefined;
    }
    const entry: Entry = { at, formula: trimmed, state: { kind: "pending" }, seq: ++this.seq };
    this.entries.set(key(at), entry);
    return entry;
  }

  /**
   * The same formula to compute again (a cell it reads changed): it keeps its place among the spills, and
   * an evaluation still running for the old entry is ignored when it ends.
   */
  restart(entry: Entry): Entry | undefined {
    if (this.entries.get(key(entry.at)) !== entry) return undefined;
    const again: Entry = { ...entry, state: { kind: "pending" } };
    this.entries.set(key(entry.at), again);
    return again;
  }

  /** Records a result, unless the cell was changed since (a stale evaluation). */
  resolve(entry: Entry, state: EntryState): boolean {
    if (this.entries.get(key(entry.at)) !== entry) return false;
    entry.state = state;
    return true;
  }

  entryAt(at: Position): Entry | undefined {
    return this.entries.get(key(at));
  }

  all(): Entry[] {
    return [...this.entries.values()].sort((a, b) => a.seq - b.seq);
  }

  clear(): void {
    this.entries.clear();
  }

  /** What every non-empty cell shows, spills laid out and blocked spills turned into #SPILL!. */
  layout(): Map<string, ShownCell> {
    const shown = new Map<string, ShownCell>();
    const anchors = new Set(this.entries.keys());
    for (const entry of this.all()) {
      const origin = entry.at;
      if (entry.state.kind === "pending") {
        shown.set(key(origin), { cell: "pending", origin, spilled: false });
        continue;
      }
      if (entry.state.kind === "refused") {
        shown.set(key(origin), {
          cell: errorCell("#ERROR", entry.state.message),
          origin,
          spilled: false,
        });
        continue;
      }
      const grid = entry.state.grid;
      const blocker = this.blocker(origin, grid, anchors, shown);
      if (blocker) {
        shown.set(key(origin), {
          cell: errorCell(
            "#SPILL!",
            `the result needs ${grid.length}×${grid[0].length} cells from ${addressOf(origin)}, but ${addressOf(blocker)} is not empty`
          ),
          origin,
          spilled: false,
        });
        continue;
      }
      grid.forEach((row, r) =>
        row.forEach((cell, c) => {
          const at = { row: origin.row + r, column: origin.column + c };
          shown.set(key(at), { cell, origin, spilled: r > 0 || c > 0 });
        })
      );
    }
    return shown;
  }

  private blocker(
    origin: Position,
    grid: Grid,
    anchors: Set<string>,
    shown: Map<string, ShownCell>
  ): Position | undefined {
    for (let r = 0; r < grid.length; r += 1) {
      for (let c = 0; c < grid[r].length; c += 1) {
        if (r === 0 && c === 0) continue;
        const at = { row: origin.row + r, column: origin.column + c };
        if (anchors.has(key(at)) || shown.has(key(at))) return at;
      }
    }
    return undefined;
  }

  /** Rows and columns to draw: the minimum, or enough for every result plus a margin. */
  extent(): { rows: number; columns: number } {
    let rows = this.minRows;
    let columns = this.minColumns;
    for (const entry of this.entries.values()) {
      const grid = entry.state.kind === "done" ? entry.state.grid : [[null]];
      rows = Math.max(rows, entry.at.row + grid.length + 2);
      columns = Math.max(columns, entry.at.column + (grid[0]?.length ?? 1) + 1);
    }
    return { rows, columns };
  }
}

export function positionKey(p: Position): string {
  return key(p);
}
