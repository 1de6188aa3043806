/**
 * The engine's share of a cell, without the functions layer: the cached catalogues, read without waiting, to
 * resolve the project and metric; then the series through engine.series, as every async caller reads it (a
 * promise per cell). The hot path times this for its target ("engine time per cell"). A warm CRYPTO.VALUE
 * reads the same cached snapshot without the promise (engine.seriesNow), so it can cost less than this.
 */
import type { Metric, Project } from "../../client";
import { dayNumber } from "../../client";
import {
  type Engine,
  resolveMetricIn,
  resolveProjectIn,
  DEFAULT_VARIANT,
  type SeriesAnswer,
} from "../../engine";
import type { BenchCell } from "./workloads";

type ValueCell = Extract<BenchCell, { fn: "VALUE" }>;

function seriesOf(
  engine: Engine,
  cell: ValueCell,
  project: Project,
  metric: Metric
): Promise<SeriesAnswer> {
  const day = dayNumber(cell.date);
  return engine.series({
    projectId: project.projectId,
    metricId: metric.metricId,
    start: day,
    end: day,
    variant: DEFAULT_VARIANT,
  });
}

function engineCell(engine: Engine, cell: ValueCell): Promise<SeriesAnswer> {
  const projects = engine.cachedProjects();
  const metrics = engine.cachedMetrics();
  if (projects && metrics)
    return seriesOf(
      engine,
      cell,
      resolveProjectIn(projects, cell.project),
      resolveMetricIn(metrics, cell.metric)
    );
  return Promise.all([engine.resolveProject(cell.project), engine.resolveMetric(cell.metric)]).then(
    ([project, metric]) => seriesOf(engine, cell, project, metric)
  );
}

/** Every VALUE cell's engine work at once, as one recalculation would ask it. */
export async function engineRecalculate(
  engine: Engine,
  cells: readonly BenchCell[]
): Promise<number> {
  const values = cells.filter((c): c is ValueCell => c.fn === "VALUE");
  const answers = await Promise.all(values.map((c) => engineCell(engine, c)));
  return answers.length;
}
