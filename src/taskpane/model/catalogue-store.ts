/**
 * The catalogues the taskpane browses, loaded through the shared engine (so the functions' cache serves
 * them too) and indexed for instant search. Reloaded when the connection changes.
 */
import type { MarketSector, Metric, Project } from "../../client";
import type { Engine } from "../../engine";
import { CatalogueIndex } from "./catalogue-search";

export type CatalogueEngine = Pick<
  Engine,
  "projects" | "metrics" | "sectors" | "project" | "sector"
>;

export interface Catalogue {
  projects: readonly Project[];
  metrics: readonly Metric[];
  sectors: readonly MarketSector[];
  projectIndex: CatalogueIndex<Project>;
  metricIndex: CatalogueIndex<Metric>;
  sectorIndex: CatalogueIndex<MarketSector>;
  metricName: (id: string) => string;
  projectById(id: string): Project | undefined;
}

export function indexCatalogue(
  projects: readonly Project[],
  metrics: readonly Metric[],
  sectors: readonly MarketSector[]
): Catalogue {
  const metricNames = new Map(metrics.map((m) => [m.metricId, m.metricName]));
  const projectsById = new Map(projects.map((p) => [p.projectId, p]));
  return {
    projects,
    metrics,
    sectors,
    projectIndex: new CatalogueIndex(projects, (p) => ({
      id: p.projectId,
      name: p.name,
      symbol: p.symbol,
    })),
    metricIndex: new CatalogueIndex(metrics, (m) => ({ id: m.metricId, name: m.metricName })),
    sectorIndex: new CatalogueIndex(sectors, (s) => ({ id: s.id, name: s.name })),
    metricName: (id) => metricNames.get(id) ?? id,
    projectById: (id) => projectsById.get(id),
  };
}

export class CatalogueStore {
  private loading?: Promise<Catalogue>;
  private readonly listeners = new Set<(catalogue: Catalogue) => void>();

  constructor(private readonly engine: () => Promise<CatalogueEngine>) {}

  /** The catalogue, loading it on first use (or after `reset`). */
  load(): Promise<Catalogue> {
    if (!this.loading) {
      const attempt = this.fetch();
      this.loading = attempt;
      // A failed load is not kept: the next call tries again (e.g. after the key is fixed).
      attempt.then(
        (catalogue) => this.listeners.forEach((l) => l(catalogue)),
        () => {
          if (this.loading === attempt) this.loading = undefined;
        }
      );
    }
    return this.loading;
  }

  /** Forget the loaded catalogue (the connection changed). */
  reset(): void {
    this.loading = undefined;
  }

  onLoaded(listener: (catalogue: Catalogue) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async projectDetail(id: string): ReturnType<CatalogueEngine["project"]> {
    return (await this.engine()).project(id);
  }

  async sectorDetail(id: string): ReturnType<CatalogueEngine["sector"]> {
    return (await this.engine()).sector(id);
  }

  private async fetch(): Promise<Catalogue> {
    const engine = await this.engine();
    const [projects, metrics, sectors] = await Promise.all([
      engine.projects(),
      engine.metrics(),
      engine.sectors(),
    ]);
    return indexCatalogue(projects.value, metrics.value, sectors.value);
  }
}
