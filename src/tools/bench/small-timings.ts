/**
 * Two small timings the bench prints beside its workloads (figures, not targets): the taskpane's catalogue
 * search as a user types into a 50,000-project catalogue, and the simulator serving five years of ten daily
 * metrics (the first call generates the series, the later ones are memoised).
 */
import { CatalogueIndex } from "../../taskpane/model/catalogue-search";
import { DEMO_API_KEY, startSimulator } from "../../simulator";

interface KeystrokeTiming {
  query: string;
  ms: number;
  hits: number;
}

export interface CatalogueSearchTiming {
  projects: number;
  indexMs: number;
  keystrokes: KeystrokeTiming[];
}

export interface SimulatorSeriesTiming {
  rows: number;
  /** The first call (series generated), then the memoised ones. */
  callsMs: number[];
}

export interface SmallTimings {
  catalogueSearch: CatalogueSearchTiming;
  simulatorSeries: SimulatorSeriesTiming;
}

/** A catalogue of `size` made-up projects: a quarter of them "Swap", a third with a symbol. */
export function syntheticCatalogue(size: number): { id: string; name: string; symbol?: string }[] {
  return Array.from({ length: size }, (_, i) => ({
    id: `project-${i}`,
    name: `Protocol ${i.toString(36)} ${["Finance", "Swap", "Lend", "Chain"][i % 4]}`,
    symbol: i % 3 === 0 ? `P${i}` : undefined,
  }));
}

export const KEYSTROKES = ["s", "sw", "swa", "swap", "swap 1", "swap 1a"] as const;

function timeCatalogueSearch(size = 50_000): CatalogueSearchTiming {
  const catalogue = syntheticCatalogue(size);
  const started = performance.now();
  const index = new CatalogueIndex(catalogue, (p) => p);
  const indexMs = performance.now() - started;
  const keystrokes = KEYSTROKES.map((query) => {
    const t = performance.now();
    const hits = index.search(query).length;
    return { query, ms: performance.now() - t, hits };
  });
  return { projects: size, indexMs, keystrokes };
}

const SERIES_METRICS =
  "fees,revenue,earnings,expenses,token_incentives,tvl,price,market_cap_fully_diluted,user_dau,transaction_count";

async function timeSimulatorSeries(calls = 3): Promise<SimulatorSeriesTiming> {
  const sim = await startSimulator({
    port: 0,
    now: () => Date.UTC(2025, 5, 15, 12),
    rateLimit: null,
  });
  try {
    const url = `${sim.url}/v2/projects/uniswap/metrics?metric_ids=${SERIES_METRICS}&start=2020-06-16&end=2025-06-15`;
    const callsMs: number[] = [];
    let rows = 0;
    for (let i = 0; i < calls; i++) {
      const started = performance.now();
      const response = await fetch(url, { headers: { Authorization: `Bearer ${DEMO_API_KEY}` } });
      const body = (await response.json()) as { data?: unknown[] };
      callsMs.push(performance.now() - started);
      rows = body.data?.length ?? 0;
    }
    return { rows, callsMs };
  } finally {
    await sim.close();
  }
}

export async function measureSmallTimings(): Promise<SmallTimings> {
  return { catalogueSearch: timeCatalogueSearch(), simulatorSeries: await timeSimulatorSeries() };
}
