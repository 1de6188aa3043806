/**
 * The names a series request's dates go by. The interface defines `start` and `end` for §4.3, §4.7 and
 * §4.11, and its usage examples send `start_date` and `end_date` (§4.14: which names are accepted where is
 * not shown). The defined names go first; an operation that answers them with a 400 is asked once more with
 * the usage names, and the names that worked are kept for that operation (a session asks each operation the
 * wrong way at most once). A service that ignores names it does not know answers with its default range (its
 * whole history): the rows outside the range asked are dropped (series-fetch.ts, outsideAsked), so the figures
 * stay right, and the operation is asked with the other names from then on, so only one answer is that large.
 */
import { isCryptometricsError } from "../client";
import type { SeriesClient } from "./series-fetch";

type DateNames = "start" | "start_date";
type Operation = "getMetric" | "getProjectMetrics" | "getProductMetrics";

/** Whether a row's day (YYYY-MM-DD: string order is date order) is outside [start, end]. */
function outside(date: string, range: { start?: string; end?: string }): boolean {
  return (
    (range.start !== undefined && date < range.start) ||
    (range.end !== undefined && date > range.end)
  );
}

function refused(error: unknown): boolean {
  return isCryptometricsError(error) && error.kind === "invalid-input" && error.status === 400;
}

/** The client, its series operations asking with the date names each operation takes. */
export function withDateNames(client: SeriesClient): SeriesClient {
  const names = new Map<Operation, DateNames>();
  const ask = async <T extends { data: ReadonlyArray<{ date: string }> }>(
    op: Operation,
    range: { start?: string; end?: string } | undefined,
    call: (dateNames: DateNames) => Promise<T>
  ): Promise<T> => {
    const first = names.get(op) ?? "start";
    if (range?.start === undefined && range?.end === undefined) return call(first);
    const other: DateNames = first === "start" ? "start_date" : "start";
    let answer: T;
    try {
      answer = await call(first);
    } catch (error) {
      if (!refused(error)) throw error;
      answer = await call(other);
      names.set(op, other);
      return answer;
    }
    // Rows outside the range asked: the names were ignored, not taken. The next ask uses the others.
    if (answer.data.some((r) => outside(r.date, range))) names.set(op, other);
    return answer;
  };
  return {
    getMetric: (id, params, options) =>
      ask("getMetric", params, (dateNames) =>
        client.getMetric(id, { ...params, dateNames }, options)
      ),
    getProjectMetrics: (id, params, options) =>
      ask("getProjectMetrics", params, (dateNames) =>
        client.getProjectMetrics(id, { ...params, dateNames }, options)
      ),
    getProductMetrics: (projectId, productId, params, options) =>
      ask("getProductMetrics", params, (dateNames) =>
        client.getProductMetrics(projectId, productId, { ...params, dateNames }, options)
      ),
  };
}
