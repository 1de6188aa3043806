/**
 * Cell addresses as Excel writes them ("A1", "AB12"): the one place that turns them into positions (0-based
 * row and column) and back. The parser bounds a range's size with it, the preview page lays its cells out
 * with it.
 */

export interface Position {
  row: number;
  column: number;
}

const COLUMN_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** "A" for 0, "Z" for 25, "AA" for 26. */
export function columnName(index: number): string {
  let n = index + 1;
  let name = "";
  while (n > 0) {
    name = COLUMN_LETTERS[(n - 1) % 26] + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

export function addressOf(p: Position): string {
  return `${columnName(p.column)}${p.row + 1}`;
}

/** "B12" as a position; undefined for anything else. */
export function positionOf(address: string): Position | undefined {
  const match = /^([A-Z]{1,3})([1-9]\d*)$/.exec(address.toUpperCase());
  if (!match) return undefined;
  let column = 0;
  for (const letter of match[1]) column = column * 26 + (letter.charCodeAt(0) - 64);
  return { row: Number(match[2]) - 1, column: column - 1 };
}

/** The position of an address the tokenizer read (always well formed). */
export function positionOfAddress(address: string): Position {
  return positionOf(address) ?? { row: 0, column: 0 };
}

/** Every address of the rectangle between two corners, row by row (either corner first). */
export function rangePositions(from: string, to: string): Position[][] {
  const a = positionOfAddress(from);
  const b = positionOfAddress(to);
  const rows: Position[][] = [];
  for (let row = Math.min(a.row, b.row); row <= Math.max(a.row, b.row); row += 1) {
    const line: Position[] = [];
    for (
      let column = Math.min(a.column, b.column);
      column <= Math.max(a.column, b.column);
      column += 1
    )
      line.push({ row, column });
    rows.push(line);
  }
  return rows;
}
