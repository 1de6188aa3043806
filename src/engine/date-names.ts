/**
 * The names a series request's dates go by. The interface defines `start` and `end` for §4.3, §4.7 and
 * §4.11, and its usage examples send `start_date` and `end_date` (§4.14: which names are accepted where is
 * not shown). The defined names go first; an operation that answers them with a 400 is asked once more with
 * the usage names, and the names that worked are kept for that operation (a session asks each operation the
 * wrong way at most once). A service that ignores names it does not know answers with its default range:
 * the rows outside the range asked are dropped (series-fetch.ts, outsideAsked), so the figures stay right.
 */
import { isCryptometricsError } from "../client";
import type { SeriesClient } from "./series-fetch";

type DateNames = "start" | "start_date";
type Operation = "getMetric" | "getProjectMetrics" | "getProductMetrics";

function refused(error: unknown): boolean {
  return isCryptometricsError(error) && error.kind === "invalid-input" && error.status === 400;
}

/** The client, its series operations asking with the date names each operation takes. */
export function withDateNames(client: SeriesClient): SeriesClient {
  const names = new Map<Operation, DateNames>();
  const ask = async <T>(
    op: Operation,
    dated: boolean,
    call: (dateNames: DateNames) => Promise<T>
  ): Promise<T> => {
    const first = names.get(op) ?? "start";
    if (!dated) return call(first);
    try {
      return await call(first);
    } catch (error) {
      if (!refused(error)) throw error;
      const other: DateNames = first === "start" ? "start_date" : "start";
      const answer = await call(other);
      names.set(op, other);
      return answer;
    }
  };
  return {
    getMetric: (id, params, options) =>
      ask("getMetric", params?.start !== undefined || params?.end !== undefined, (dateNames) =>
        client.getMetric(id, { ...params, dateNames }, options)
      ),
    getProjectMetrics: (id, params, options) =>
      ask(
        "getProjectMetrics",
        params?.start !== undefined || params?.end !== undefined,
        (dateNames) => client.getProjectMetrics(id, { ...params, dateNames }, options)
      ),
    getProductMetrics: (projectId, productId, params, options) =>
      ask(
        "getProductMetrics",
        params?.start !== undefined || params?.end !== undefined,
        (dateNames) =>
          client.getProductMetrics(projectId, productId, { ...params, dateNames }, options)
      ),
  };
}
