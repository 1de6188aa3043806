/**
 * The engine's share of a cell, without the functions layer: resolve the project and metric through the
 * cached catalogue, then read the series. The hot path times this for its target ("engine time per cell").
 */
import { dayNumber } from "../../engine/days";
import type { Engine } from "../../engine/engine";
import { DEFAULT_VARIANT, type SeriesAnswer } from "../../engine/series-types";
import type { BenchCell } from "./workloads";

type ValueCell = Extract<BenchCell, { fn: "VALUE" }>;

function engineCell(engine: Engine, cell: ValueCell): Promise<SeriesAnswer> {
  const day = dayNumber(cell.date);
  return Promise.all([engine.resolveProject(cell.project), engine.resolveMetric(cell.metric)]).then(
    ([project, metric]) =>
      engine.series({
        projectId: project.projectId,
        metricId: metric.metricId,
        start: day,
        end: day,
        variant: DEFAULT_VARIANT,
      })
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
