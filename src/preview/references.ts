/**
 * References between the preview sheet's cells, as Excel keeps them: a formula reads what another cell
 * shows now (`=A1.Symbol` reads the card in A1), and computes again when that cell's result changes.
 * A formula reading a cell still being computed shows #BUSY! until the result arrives; a formula reading
 * itself is a circular reference (#REF!). One change recomputes each formula at most once, so formulas
 * reading each other in a circle end.
 */
import { EMPTY, errorCell, type Cell } from "../sheet/cells";
import { parseFormula } from "../sheet/formula";
import { referencesIn } from "../sheet/nested";
import {
  addressOf,
  positionKey,
  positionOf,
  type Entry,
  type Position,
  type SheetModel,
} from "./sheet-model";

/** What a formula in `from` reads at `address`. */
export function cellReader(model: SheetModel, from: Position): (address: string) => Cell {
  return (address) => {
    const at = positionOf(address);
    if (!at) return errorCell("#REF!", `${address} is not a cell of this sheet`);
    if (positionKey(at) === positionKey(from))
      return errorCell("#REF!", `circular reference: ${addressOf(from)} reads itself`);
    const shown = model.layout().get(positionKey(at));
    if (!shown) return EMPTY;
    if (shown.cell === "pending") return errorCell("#BUSY!", `${address} is still being computed`);
    return shown.cell;
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
