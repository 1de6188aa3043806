/**
 * References between the preview sheet's cells, as Excel keeps them: a formula reads what another cell
 * shows now (`=A1.Symbol` reads the card in A1), and computes again when that cell's result changes.
 * A formula reading a cell still being computed shows #BUSY! until the result arrives; a formula reading
 * itself is a circular reference (#REF!). One change recomputes each formula at most once, so formulas
 * reading each other in a circle end.
 */
import { EMPTY, errorCell, type Cell } from "../sheet/cells";
import { parseFormula } from "../sheet/formula";
import { rangePositions } from "../sheet/addresses";
import { referencesIn, type ReferenceReader } from "../sheet/nested";
import {
  addressOf,
  positionKey,
  positionOf,
  type Entry,
  type Position,
  type SheetModel,
} from "./sheet-model";

/**
 * What a formula in `from` reads: a cell, a range (each of its cells as shown now), or a spill (`A1#`: the
 * whole result of the formula in A1; #REF! when A1 holds none). A read that covers the formula's own cell is
 * a circular reference.
 */
export function cellReader(model: SheetModel, from: Position): ReferenceReader {
  const layout = model.layout();
  const one = (at: Position, address: string): Cell => {
    if (positionKey(at) === positionKey(from))
      return errorCell("#REF!", `circular reference: ${addressOf(from)} reads itself`);
    const shown = layout.get(positionKey(at));
    if (!shown) return EMPTY;
    if (shown.cell === "pending") return errorCell("#BUSY!", `${address} is still being computed`);
    return shown.cell;
  };
  return (target) => {
    if (target.kind === "range")
      return rangePositions(target.from, target.to).map((row) =>
        row.map((at) => one(at, addressOf(at)))
      );
    const at = positionOf(target.address);
    if (!at) return [[errorCell("#REF!", `${target.address} is not a cell of this sheet`)]];
    if (target.kind === "cell") return [[one(at, target.address)]];
    const entry = model.entryAt(at);
    if (!entry || entry.state.kind === "refused")
      return [
        [
          errorCell(
            "#REF!",
            `${target.address}# reads a result, but ${target.address} holds no formula`
          ),
        ],
      ];
    if (entry.state.kind === "pending")
      return [[errorCell("#BUSY!", `${target.address} is still being computed`)]];
    const shown = layout.get(positionKey(at));
    if (shown?.cell !== "pending" && shown?.cell.kind === "error" && shown.cell.code === "#SPILL!")
      return [[shown.cell]];
    return entry.state.grid.map((row, r) =>
      row.map((cell, c) =>
        positionKey({ row: at.row + r, column: at.column + c }) === positionKey(from)
          ? errorCell("#REF!", `circular reference: ${addressOf(from)} reads itself`)
          : cell
      )
    );
  };
}

/** The cells a formula's result covers now (its own cell at least), as position keys. */
export function coveredBy(model: SheetModel, at: Position): Set<string> {
  const covered = new Set([positionKey(at)]);
  for (const [key, shown] of model.layout()) {
    if (positionKey(shown.origin) === positionKey(at)) covered.add(key);
  }
  return covered;
}

function reads(entry: Entry): string[] {
  try {
    return referencesIn(parseFormula(entry.formula)).flatMap((address) => {
      const at = positionOf(address);
      return at ? [positionKey(at)] : [];
    });
  } catch {
    return []; // a formula that does not parse reads nothing
  }
}

/** The formulas reading any of `changed`, except those this change already recomputed (`done`). */
export function dependents(
  model: SheetModel,
  changed: ReadonlySet<string>,
  done: ReadonlySet<string>
): Entry[] {
  return model
    .all()
    .filter(
      (entry) => !done.has(positionKey(entry.at)) && reads(entry).some((key) => changed.has(key))
    );
}
