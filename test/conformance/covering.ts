/**
 * A pairwise covering array: a few rows of values for many switches such that every pair of values of every
 * two switches appears in some row. Two loose readings that only bite together (a service that takes other
 * date names for the breakdown and ignores the ones it does not know) meet in some row, while the rows stay
 * near the largest product of two switches' value counts rather than every pair run on its own.
 *
 * Greedy and deterministic (the same rows on every run): each new row starts from the pair of values least
 * covered so far, then gives each other switch the value that covers the most pairs still uncovered with the
 * values chosen before it (ties: the value listed first, so defaults win where nothing is at stake).
 */
type Switches = ReadonlyArray<{ name: string; values: readonly string[] }>;
type Row = Readonly<Record<string, string>>;

function pairKey(a: number, va: number, b: number, vb: number): string {
  return a < b ? `${a}:${va}|${b}:${vb}` : `${b}:${vb}|${a}:${va}`;
}

export function coveringArray(switches: Switches): Row[] {
  const n = switches.length;
  const uncovered = new Set<string>();
  for (let a = 0; a < n; a++)
    for (let b = a + 1; b < n; b++)
      for (let va = 0; va < switches[a].values.length; va++)
        for (let vb = 0; vb < switches[b].values.length; vb++) uncovered.add(pairKey(a, va, b, vb));
  const rows: number[][] = [];
  while (uncovered.size > 0) {
    // Seed the row with one uncovered pair (the first in a fixed order), then fill the rest greedily.
    const [first] = uncovered;
    const [[a, va], [b, vb]] = first.split("|").map((p) => p.split(":").map(Number));
    const row: number[] = Array.from({ length: n }, () => -1);
    row[a] = va;
    row[b] = vb;
    for (let s = 0; s < n; s++) {
      if (row[s] >= 0) continue;
      let best = 0;
      let bestGain = -1;
      for (let v = 0; v < switches[s].values.length; v++) {
        let gain = 0;
        for (let t = 0; t < n; t++)
          if (t !== s && row[t] >= 0 && uncovered.has(pairKey(s, v, t, row[t]))) gain++;
        if (gain > bestGain) {
          best = v;
          bestGain = gain;
        }
      }
      row[s] = best;
    }
    for (let s = 0; s < n; s++)
      for (let t = s + 1; t < n; t++) uncovered.delete(pairKey(s, row[s], t, row[t]));
    rows.push(row);
  }
  return rows.map((row) =>
    Object.fromEntries(row.map((v, s) => [switches[s].name, switches[s].values[v]]))
  );
}

/** Whether every pair of values of every two switches is in some row (the tests hold the array to it). */
export function coversEveryPair(switches: Switches, rows: readonly Row[]): boolean {
  for (let a = 0; a < switches.length; a++)
    for (let b = a + 1; b < switches.length; b++)
      for (const va of switches[a].values)
        for (const vb of switches[b].values)
          if (!rows.some((r) => r[switches[a].name] === va && r[switches[b].name] === vb))
            return false;
  return true;
}
