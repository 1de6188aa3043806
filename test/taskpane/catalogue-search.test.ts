import { CatalogueIndex, normalise } from "../../src/taskpane/model/catalogue-search";
import { KEYSTROKES, syntheticCatalogue } from "../../src/tools/bench/small-timings";

interface P {
  id: string;
  name: string;
  symbol?: string;
}

const projects: P[] = [
  { id: "lido-finance", name: "Lido Finance", symbol: "LDO" },
  { id: "aave", name: "Aave", symbol: "AAVE" },
  { id: "tick-and-tock", name: `Tick & Tock "Perps" <beta> 'v2'`, symbol: "TICK" },
  { id: "uniswap", name: "Uniswap", symbol: "UNI" },
  { id: "aether", name: "Æther Protocol" },
  { id: "maker", name: "Sky (formerly Maker)", symbol: "MKR" },
  { id: "gmx", name: "GMX", symbol: "GMX" },
  { id: "yearn", name: "Yearn Finance", symbol: "YFI" },
  { id: "swapr", name: "Swapr" },
  { id: "unicorn", name: "Unicorn Uni", symbol: "UNIC" },
];
const index = new CatalogueIndex(projects, (p) => p);
const found = (q: string) => index.search(q).map((p) => p.id);

test("matches id, name and symbol, case- and accent-insensitively", () => {
  expect(found("ldo")).toEqual(["lido-finance"]);
  expect(found("UNISWAP")).toEqual(["uniswap"]);
  expect(found("tick-and")).toEqual(["tick-and-tock"]);
  expect(found(`"perps" <beta>`)).toEqual(["tick-and-tock"]);
  expect(found("mkr")).toEqual(["maker"]);
  expect(normalise("ÆTHER Protocol")).toBe("æther protocol");
  expect(found("Æther")).toEqual(["aether"]);
});

test("exact matches first, then prefixes (of any word), then the rest; each group alphabetical", () => {
  expect(found("finance")).toEqual(["lido-finance", "yearn"]);
  // A prefix beats a match inside a word.
  expect(found("swap")).toEqual(["swapr", "uniswap"]);
  // The exact symbol UNI comes before names that merely start with it.
  expect(found("uni")).toEqual(["uniswap", "unicorn"]);
  expect(found("ma")).toEqual(["maker"]);
});

test("several words must all occur; a blank query lists everything alphabetically", () => {
  expect(found("lido fin")).toEqual(["lido-finance"]);
  expect(found("lido yearn")).toEqual([]);
  expect(found("  ")).toEqual(
    projects
      .map((p) => p)
      .sort((a, b) => normalise(a.name).localeCompare(normalise(b.name)))
      .map((p) => p.id)
  );
  expect(index.search("", 3)).toHaveLength(3);
});

test("narrows a 50,000-project catalogue keystroke by keystroke (timed by npm run bench)", () => {
  const big = syntheticCatalogue(50_000);
  const bigIndex = new CatalogueIndex(big, (p) => p);
  const counts = KEYSTROKES.map((q) => bigIndex.search(q).length);
  // Each keystroke keeps a subset: the counts never grow.
  counts.slice(1).forEach((count, i) => expect(count).toBeLessThanOrEqual(counts[i]));
  // A quarter of the names end in "Swap", and no id, other name or symbol holds "swap".
  const swaps = bigIndex.search("swap");
  expect(swaps).toHaveLength(12_500);
  expect(swaps.every((p) => p.name.endsWith(" Swap"))).toBe(true);
  // Both words must occur: Swap projects with "1a" in their id, name or symbol.
  const narrowed = bigIndex.search("swap 1a");
  expect(narrowed.length).toBeGreaterThan(0);
  for (const p of narrowed) {
    expect(p.name).toMatch(/ Swap$/);
    expect(`${p.id} ${p.name} ${p.symbol ?? ""}`.toLowerCase()).toContain("1a");
  }
});
