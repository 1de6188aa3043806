import { CatalogueIndex, normalise } from "../../src/taskpane/model/catalogue-search";

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

test("filtering a large catalogue stays well under 50 ms per keystroke (timing printed)", () => {
  const big: P[] = Array.from({ length: 50_000 }, (_, i) => ({
    id: `project-${i}`,
    name: `Protocol ${i.toString(36)} ${["Finance", "Swap", "Lend", "Chain"][i % 4]}`,
    symbol: i % 3 === 0 ? `P${i}` : undefined,
  }));
  const started = performance.now();
  const bigIndex = new CatalogueIndex(big, (p) => p);
  const built = performance.now() - started;
  const keystrokes = ["s", "sw", "swa", "swap", "swap 1", "swap 1a"];
  const times = keystrokes.map((q) => {
    const t = performance.now();
    const hits = bigIndex.search(q);
    return { q, ms: performance.now() - t, hits: hits.length };
  });
  process.stdout.write(
    `catalogue search over ${big.length} projects (index built in ${built.toFixed(1)} ms):\n` +
      times.map((t) => `  "${t.q}": ${t.ms.toFixed(2)} ms, ${t.hits} hits`).join("\n") +
      "\n"
  );
  expect(times.map((t) => t.hits)).toEqual(expect.arrayContaining([12_500]));
});
