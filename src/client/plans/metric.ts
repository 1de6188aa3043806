/**
 * Plans of the metric-centred operations across projects: metric by id (§4.11) here, metric aggregations
 * (§4.12) and the metrics breakdown (§4.13) in summaries.ts, with the project lists split alike: over several
 * requests when long, and the parts merged (data and errors).
 */
import type { Planner } from "../call";
import { sortMultiProjectRows } from "../data/merge";
import { normaliseMultiProjectRows } from "../data/normalise-series";
import { RepeatCounter, distinctMultiProjectRows } from "../data/distinct";
import { Notes, withoutFuture } from "../data/notes";
import { datesOf, filtersOf, pathOf, queryOf, type PlanTools, type Query } from "./plan";
import {
  ORDER_DIRECTIONS,
  type IdSelection,
  type MetricParams,
  type MultiProjectMetricRow,
} from "../data/types";

/** The list to split, or undefined for "all"/omitted (sent as-is, never split). */
export const listOf = (selection: IdSelection | undefined): readonly string[] | undefined =>
  selection === "all" ? undefined : selection;

/** The project_ids value for one request: its chunk, "all" when asked, else left out. */
export const projectIdsValue = (
  chunk: readonly string[] | undefined,
  selection: IdSelection | undefined
): readonly string[] | string | undefined => chunk ?? (selection === "all" ? "all" : undefined);

export const getMetricPlan =
  (t: PlanTools, metricId: unknown, params?: MetricParams): Planner<MultiProjectMetricRow[]> =>
  (check) => {
    const id = check.pathId("metricId", metricId);
    const p = params ?? {};
    const projects = check.selection("projectIds", p.projectIds);
    const filters = filtersOf(check, p);
    const dates = datesOf(check, "getMetric", p);
    const assetsBridged = check.bool("assetsBridged", p.assetsBridged);
    const direction = check.oneOf("orderDirection", p.orderDirection, ORDER_DIRECTIONS) ?? "desc";
    const list = listOf(projects);
    const query = (chunk: readonly string[] | undefined): Query =>
      queryOf("getMetric", {
        project_ids: projectIdsValue(chunk, projects),
        ...filters,
        ...dates,
        assets_bridged: assetsBridged,
      });
    return {
      ids: [id],
      requests: t.split(check, [id], pathOf("getMetric", id), "projectIds", list, query),
      combine: (envelopes) => {
        const repeats = new RepeatCounter();
        const notes = new Notes();
        const latest = t.latestDay();
        // Chunks hold different projects: repeats are within one response.
        const merged = t.concat(envelopes, (data) =>
          distinctMultiProjectRows(
            withoutFuture(normaliseMultiProjectRows(data, id), latest, notes),
            repeats
          )
        );
        return {
          data: sortMultiProjectRows(merged.data, direction, list),
          errors: merged.errors,
          repeats: repeats.note(),
          notes: notes.list(),
        };
      },
    };
  };
