/**
 * Instant search over a catalogue held in memory: every keystroke filters the whole list in one linear pass
 * (no sorting per keystroke), matching id, name and symbol. Exact matches come first, then prefix matches,
 * then the rest, each group in the catalogue's own (alphabetical) order.
 */

interface SearchFields {
  id: string;
  name: string;
  symbol?: string;
}

interface Entry<T> {
  item: T;
  id: string;
  name: string;
  symbol: string;
  /** All three, for the every-term-occurs test. */
  haystack: string;
  /** Every word of the three, each after a space: " lido finance lido-finance ldo". A prefix match is one includes(). */
  starts: string;
}

/** Lower case, accents removed, so "Lido" finds "lido-finance" and "ÆTHER" finds "aether". */
export function normalise(textValue: string): string {
  return textValue
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .trim();
}

/** " a b c": each field, and each word inside it ("Lido Finance" → "lido", "finance"), after a space. */
function wordStarts(fields: readonly string[]): string {
  const words = fields.flatMap((f) => (f ? [f, ...f.split(/[\s\-_.(]+/).filter(Boolean)] : []));
  return ` ${words.join(" ")}`;
}

export class CatalogueIndex<T> {
  private readonly entries: Entry<T>[];

  constructor(items: readonly T[], fields: (item: T) => SearchFields) {
    this.entries = items
      .map((item) => {
        const f = fields(item);
        const id = normalise(f.id);
        const name = normalise(f.name);
        const symbol = normalise(f.symbol ?? "");
        return {
          item,
          id,
          name,
          symbol,
          haystack: `${id}\u0001${name}\u0001${symbol}`,
          starts: wordStarts([id, name, symbol]),
        };
      })
      .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  }

  get size(): number {
    return this.entries.length;
  }

  /** Everything when the query is blank; otherwise entries where every word of the query occurs. */
  search(query: string, limit = Number.POSITIVE_INFINITY): T[] {
    const q = normalise(query);
    if (q === "") return this.entries.slice(0, limit).map((e) => e.item);
    const terms = q.split(/\s+/);
    const prefix0 = ` ${q}`;
    const exact: T[] = [];
    const prefix: T[] = [];
    const other: T[] = [];
    for (const e of this.entries) {
      if (!terms.every((t) => e.haystack.includes(t))) continue;
      if (e.id === q || e.symbol === q || e.name === q) exact.push(e.item);
      else if (e.starts.includes(prefix0)) prefix.push(e.item);
      else other.push(e.item);
    }
    return [...exact, ...prefix, ...other].slice(0, limit);
  }
}
