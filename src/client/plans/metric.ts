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
import { datesOf, filtersOf, pathOf, queryOf, type PlanTools } from "./plan";
import type { Checker } from "../data/validate";
import type { RequestSpec } from "../http/request";
import type { QueryValue } from "../http/url";
import type { ParamName } from "../interface";
import {
  ORDER_DIRECTIONS,
  type IdSelection,
  type MetricParams,
  type MultiProjectMetricRow,
} from "../data/types";

/** The list to split, or undefined for "all"/omitted (sent as-is, never split). */
const listOf = (selection: IdSelection | undefined): readonly string[] | undefined =>
  selection === "all" ? undefined : selection;

/** The operations whose requests are split over a list of projects (§4.11, §4.12, §4.13). */
type ByProjects = "getMetric" | "getMetricAggregations" | "getMetricsBreakdown";

/**
 * The requests of `op`, split over the project list when it is long: each one's project_ids is its chunk of
 * the list, "all" when every project is asked (sent as-is, never split), or left out when none is given;
 * `rest` holds the other parameters, the same in every request.
 */
export function splitByProjects<Op extends ByProjects>(
  t: PlanTools,
  check: Checker,
  op: Op,
  ids: readonly string[],
  segments: readonly string[],
  projects: IdSelection | undefined,
  rest: { readonly [K in ParamName<Op>]?: QueryValue }
): RequestSpec[] {
  const all = projects === "all" ? "all" : undefined;
  return t.split(check, ids, segments, "projectIds", listOf(projects), (chunk) =>
    queryOf(op, { ...rest, project_ids: chunk ?? all })
  );
}

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
    const query = { ...filters, ...dates, assets_bridged: assetsBridged };
    return {
      ids: [id],
      requests: splitByProjects(
        t,
        check,
        "getMetric",
        [id],
        pathOf("getMetric", id),
        projects,
        query
      ),
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
          data: sortMultiProjectRows(merged.data, direction, listOf(projects)),
          errors: merged.errors,
          repeats: repeats.note(),
          notes: notes.list(),
        };
      },
    };
  };
