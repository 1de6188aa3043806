/** Human figures: durations from ms to hours, counts with separators, ratios, sizes in kB (1,000 bytes). */

export function formatCount(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

export function formatDuration(ms: number): string {
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  const s = ms / 1_000;
  if (s < 10) return `${s.toFixed(2)} s`;
  if (s < 60) return `${s.toFixed(1)} s`;
  const totalS = Math.round(s);
  const h = Math.floor(totalS / 3_600);
  const m = Math.floor((totalS % 3_600) / 60);
  const rest = totalS % 60;
  if (h > 0) return `${h} h ${String(m).padStart(2, "0")} min`;
  return rest === 0 ? `${m} min` : `${m} min ${String(rest).padStart(2, "0")} s`;
}

/** "50×"; an infinite ratio (the add-in sent nothing) is shown as such. */
export function formatRatio(ratio: number | null): string {
  if (ratio === null || Number.isNaN(ratio)) return "—";
  if (!Number.isFinite(ratio)) return "∞";
  if (ratio >= 100) return `${formatCount(ratio)}×`;
  return `${ratio.toFixed(ratio >= 10 ? 0 : 1)}×`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1_000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1_000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(2)} MB`;
}

/** Left-aligned first column, right-aligned others. */
export function alignColumns(rows: readonly (readonly string[])[], gap = 2): string[] {
  const widths: number[] = [];
  for (const row of rows)
    row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
  return rows.map((row) =>
    row
      .map((cell, i) => {
        const pad = " ".repeat(widths[i] - [...cell].length);
        return i === 0 ? cell + pad : pad + cell;
      })
      .join(" ".repeat(gap))
      .trimEnd()
  );
}
