/**
 * The first day with data of one metric for many projects. The interface has no launch date: a series'
 * default start is "the launch date, or the first date with data", so the first row of a read without
 * `start` is the closest thing it says. One §4.11 read of the whole history serves all the projects (the
 * client chunks their ids); of that history only each project's first day is kept, and the recent part
 * (from `keepFrom` on) goes to the series cache as if the batcher had fetched it, so the read doubles as that
 * metric's recent data and costs no request of its own. The early history is dropped, not cached: years of
 * daily points for every card would crowd everything else out of the cache's bound. `keepFrom` is per
 * project: an archived project's whole (finite) history is kept, since its last values are all it has.
 */
import type { SeriesStore } from "./series-store";
import { seriesRefOf } from "./series-ledger";
import { fetchGroup, type GroupRequest, type SeriesClient } from "./series-fetch";
import { DEFAULT_VARIANT, seriesKey, type SeriesQuery } from "./series-types";

/** Project id -> its first day with a value of the metric (undefined: no data, or no such series). */
export type HistoryStarts = Map<string, number | undefined>;

export async function readHistoryStarts(
  client: SeriesClient,
  store: SeriesStore,
  metricId: string,
  projectIds: readonly string[],
  keepFrom: (projectId: string) => number,
  signal: AbortSignal
): Promise<HistoryStarts> {
  const queries: SeriesQuery[] = projectIds.map((projectId) => ({
    projectId,
    metricId,
    start: -Infinity,
    end: Infinity,
    variant: DEFAULT_VARIANT,
  }));
  const request: GroupRequest = {
    form: "metric",
    projectId: "",
    productId: "",
    metricId,
    members: [...projectIds],
    start: -Infinity,
    end: Infinity,
    variant: DEFAULT_VARIANT,
    queries,
  };
  const result = await fetchGroup(client, request, signal);
  const starts: HistoryStarts = new Map();
  for (const q of queries) {
    const key = seriesKey(q);
    const r = result.results.get(key);
    if (!r) continue;
    if (r.issue) {
      store.writeIssue(key, r.issue, result.description);
      starts.set(q.projectId, undefined);
      continue;
    }
    let first: number | undefined;
    for (const points of r.dims.values()) {
      // A conflict is a day the service has: the series has started, whatever its value was.
      const found = points.find((p) => p.value !== null || p.conflict);
      if (found && (first === undefined || found.day < first)) first = found.day;
    }
    starts.set(q.projectId, first);
    store.write(
      key,
      keepFrom(q.projectId),
      Infinity,
      r.dims,
      result.description,
      r.warnings,
      seriesRefOf(q)
    );
  }
  return starts;
}
