/**
 * Assembling project cards from batched, cached requests. Cards asked within one recalculation window are
 * built together, in three steps, so that 50 cards cost what the cells for their figures would:
 * 1. the catalogues and every card's project detail (one request per project, cached a day);
 * 2. every series any card reads, asked of the engine in one go, so its batching window plans them together
 *    (one request per metric and 50 projects); the anchor metric's whole history, for the launch date, is
 *    read in that same request (engine/history-start.ts);
 * 3. each card's figures by VALUE's rules (figures.ts), answered from the cache the second step filled.
 * Waiting for every detail before the second step is the point: details arrive at different times, and a
 * card that went ahead alone would ask its series alone.
 */
import type { Project, ProjectDetail } from "../../client";
import { periodStart } from "../../client";
import { DEFAULT_VARIANT } from "../../engine";
import type { Runtime } from "../../runtime/runtime";
import { traced, type FnContext } from "../context";
import { metricCatalogue } from "./resolve";
import { LATEST_LOOKBACK_DAYS } from "./series-common";
import { isMissing, type Figure, type ProjectCard, type StatementLine } from "./card-model";
import {
  STATEMENT_LINES,
  lastCompleteQuarters,
  latestFigure,
  quarterFigure,
  ratioFigure,
  ttmFigure,
} from "./card-figures";

/** The series whose first day stands for the launch date: the first of these a project has. */
const ANCHOR_METRICS = ["fees", "revenue", "tvl", "trading_volume", "price", "user_dau"];

/** Quarters of history every card reads: four complete ones, and one more while the last may be filling. */
const QUARTERS_READ = 5;

interface Pending {
  ctx: FnContext;
  project: Project;
  resolve(card: ProjectCard): void;
  reject(error: unknown): void;
}

interface Prepared {
  pending: Pending;
  /** The asking cell's context without its cancellation: the card is shared by every cell showing it. */
  ctx: FnContext;
  detail: ProjectDetail;
  /** Metric id -> name, available metrics in the catalogue's order. */
  metrics: Map<string, string>;
  /** Metric id -> name, the whole catalogue (a standard line the project lacks keeps its name). */
  names: ReadonlyMap<string, string>;
  anchor?: string;
}

/** First day of the oldest quarter a card may show: the series are read from there. */
function historyFrom(today: number): number {
  let start = periodStart(today, "quarter");
  for (let i = 0; i < QUARTERS_READ; i++) start = periodStart(start - 1, "quarter");
  return start;
}

function serviceHost(runtime: Runtime): string {
  try {
    return new URL(runtime.config.baseUrl.trim()).host;
  } catch {
    return "the configured service";
  }
}

class CardBatch {
  private queue: Pending[] = [];
  private timer: unknown = undefined;

  constructor(private readonly runtime: Runtime) {}

  request(ctx: FnContext, project: Project): Promise<ProjectCard> {
    return new Promise<ProjectCard>((resolve, reject) => {
      this.queue.push({ ctx, project, resolve, reject });
      if (this.timer === undefined) {
        this.timer = this.runtime.timers.setTimeout(
          () => void this.flush(),
          this.runtime.engine.options.windowMs
        );
      }
    });
  }

  private async flush(): Promise<void> {
    this.timer = undefined;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    try {
      const prepared = await this.prepare(batch);
      await this.prefetch(prepared);
      for (const p of prepared) {
        this.assemble(p).then(
          (card) => p.pending.resolve(card),
          (error: unknown) => p.pending.reject(error)
        );
      }
    } catch (error) {
      for (const p of batch) p.reject(error);
    }
  }

  /** Step 1: the metric catalogue and every card's detail. A card whose detail fails fails alone. */
  private async prepare(batch: readonly Pending[]): Promise<Prepared[]> {
    const catalogue = await metricCatalogue(batch[0].ctx);
    const names = new Map(catalogue.map((m) => [m.metricId, m.metricName]));
    const details = await Promise.allSettled(
      batch.map((p) =>
        traced(
          p.ctx,
          `GET /v2/projects/${p.project.projectId}`,
          p.ctx.engine.project(p.project.projectId)
        )
      )
    );
    const prepared: Prepared[] = [];
    details.forEach((outcome, i) => {
      const pending = batch[i];
      if (outcome.status === "rejected") {
        pending.reject(outcome.reason);
        return;
      }
      const detail = outcome.value;
      const available = Object.entries(detail.metricAvailability)
        .filter(([, yes]) => yes)
        .map(([id]) => id);
      const metrics = new Map<string, string>();
      // The catalogue's order, then whatever it does not list, under its id.
      for (const m of catalogue)
        if (available.includes(m.metricId)) metrics.set(m.metricId, m.metricName);
      for (const id of available) if (!metrics.has(id)) metrics.set(id, names.get(id) ?? id);
      const anchor = ANCHOR_METRICS.find((id) => metrics.has(id)) ?? metrics.keys().next().value;
      const { runtime, engine, trace, today } = pending.ctx;
      prepared.push({
        pending,
        ctx: { runtime, engine, trace, today },
        detail,
        metrics,
        names,
        anchor,
      });
    });
    return prepared;
  }

  /** Step 2: every series the cards read, asked at once; failures surface when the figures are read. */
  private async prefetch(prepared: readonly Prepared[]): Promise<void> {
    const engine = this.runtime.engine;
    const today = prepared[0]?.ctx.today ?? 0;
    const from = historyFrom(today);
    const long = new Set(["revenue", "fees", ...STATEMENT_LINES.map((l) => l.metricId)]);
    const reads: Promise<unknown>[] = [];
    const historyOf = new Map<string, string[]>();
    const known = await Promise.all(
      prepared.map((p) =>
        p.anchor === undefined
          ? Promise.resolve(undefined)
          : engine.knownHistoryStart(p.anchor, p.pending.project.projectId)
      )
    );
    for (const [i, p] of prepared.entries()) {
      const id = p.pending.project.projectId;
      for (const metricId of p.metrics.keys()) {
        if (metricId === p.anchor && known[i] === undefined) {
          historyOf.set(metricId, [...(historyOf.get(metricId) ?? []), id]);
          continue;
        }
        reads.push(
          engine.series({
            projectId: id,
            metricId,
            start: long.has(metricId) ? from : today - LATEST_LOOKBACK_DAYS,
            end: Infinity,
            variant: DEFAULT_VARIANT,
          })
        );
      }
    }
    // An archived project's history is all it has: kept whole, so its last values need no second read.
    const archived = new Set(
      prepared.filter((p) => p.pending.project.isArchived).map((p) => p.pending.project.projectId)
    );
    const keepFrom = (id: string): number => (archived.has(id) ? -Infinity : from);
    for (const [metricId, ids] of historyOf)
      reads.push(engine.historyStarts(metricId, ids, keepFrom));
    await Promise.allSettled(reads);
  }

  /** Step 3: one card's figures, from the cache. */
  private async assemble(p: Prepared): Promise<ProjectCard> {
    const { ctx } = p;
    const { project } = p.pending;
    const id = project.projectId;
    const d = p.detail;
    const latest = Promise.all(
      [...p.metrics].map(async ([metricId, name]) => ({
        metricId,
        name,
        figure: await latestFigure(ctx, id, metricId),
      }))
    );
    const ttm = (metricId: string): Promise<Figure> =>
      p.metrics.has(metricId)
        ? ttmFigure(ctx, id, metricId)
        : Promise.resolve({ missing: `${metricId} is not available for ${id}` });
    const ratio = (metricId: string, what: string): Promise<Figure> =>
      !p.metrics.has("market_cap_fully_diluted")
        ? Promise.resolve({
            missing: `no market cap: market_cap_fully_diluted is not available for ${id}`,
          })
        : !p.metrics.has(metricId)
          ? Promise.resolve({ missing: `no ${what}: ${metricId} is not available for ${id}` })
          : ratioFigure(ctx, id, metricId, what);
    const [revenueTtm, feesTtm, ps, pf, launch, financials, latestValues] = await Promise.all([
      ttm("revenue"),
      ttm("fees"),
      ratio("revenue", "revenue TTM"),
      ratio("fees", "fees TTM"),
      this.launch(p),
      this.financials(p),
      latest,
    ]);
    const state = this.runtime.source.current;
    return {
      projectId: id,
      name: d.name || project.name,
      symbol: d.symbol ?? project.symbol ?? "",
      description: d.description.what ?? d.description.text ?? "",
      sectors: [...d.marketSectors],
      chains: [...d.chains],
      links: d.links.map((l) => ({ summary: l.summary, url: l.url })),
      archived: project.isArchived,
      archivedReason: project.archivedReason ?? "",
      maintenanceReason: project.maintenanceReason ?? "",
      launch,
      latest: latestValues,
      revenueTtm,
      feesTtm,
      ps,
      pf,
      financials,
      source: state,
      serviceHost: serviceHost(this.runtime),
      ...(ctx.trace.stale ? { stale: ctx.trace.stale } : {}),
    };
  }

  private async launch(p: Prepared): Promise<Figure> {
    const id = p.pending.project.projectId;
    if (p.anchor === undefined) return { missing: `no metric is available for ${id}` };
    const known = await p.ctx.engine.knownHistoryStart(p.anchor, id);
    const day =
      known !== undefined
        ? (known ?? undefined)
        : (
            await p.ctx.engine.historyStarts(p.anchor, [id], () =>
              p.pending.project.isArchived ? -Infinity : historyFrom(p.ctx.today)
            )
          ).get(id);
    if (day === undefined) return { missing: `no ${p.anchor} data for ${id}` };
    return { value: day, note: `first day with ${p.anchor} data` };
  }

  private async financials(p: Prepared): Promise<ProjectCard["financials"]> {
    const { ctx } = p;
    const { project } = p.pending;
    if (!STATEMENT_LINES.some((l) => p.metrics.has(l.metricId)) || p.anchor === undefined)
      return { missing: `${project.projectId} has none of the statement's lines` };
    // Every standard line, in the standard order, so =A1.Financials.Revenue reads alike on every card.
    const lines = STATEMENT_LINES;
    const quarters = await lastCompleteQuarters(ctx, project.projectId, p.anchor);
    if (isMissing(quarters)) return quarters;
    const sections: { title: string; lines: StatementLine[] }[] = [];
    for (const line of lines) {
      let section = sections.find((s) => s.title === line.section);
      if (!section) sections.push((section = { title: line.section, lines: [] }));
      section.lines.push({
        metricId: line.metricId,
        name: p.metrics.get(line.metricId) ?? p.names.get(line.metricId) ?? line.metricId,
        values: [],
      });
    }
    await Promise.all(
      sections.flatMap((s) =>
        s.lines.map(async (line) => {
          line.values = p.metrics.has(line.metricId)
            ? await Promise.all(
                quarters.map((q) => quarterFigure(ctx, project.projectId, line.metricId, q))
              )
            : quarters.map(() => ({
                missing: `${line.metricId} is not available for ${project.projectId}`,
              }));
        })
      )
    );
    return { quarters, sections };
  }
}

const batches = new WeakMap<Runtime, CardBatch>();

/** The batch of the runtime's current recalculation window. */
export function cardBatchOf(runtime: Runtime): CardBatch {
  let batch = batches.get(runtime);
  if (!batch) batches.set(runtime, (batch = new CardBatch(runtime)));
  return batch;
}
