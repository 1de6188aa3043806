/**
 * The baseline: an add-in as simple spreadsheet add-ons are written, one request per cell, no batching, no
 * cache, no coalescing of identical cells. It uses the same client (limiter, retries, time-outs) as the
 * add-in, so the difference measured is the engine's alone.
 */
import { isCryptometricsError, type MetricsClient } from "../../client";
import type { CellOutcome } from "./outcomes";
import type { BenchCell } from "./workloads";
import { messageOf } from "../../client";

type NaiveClient = Pick<MetricsClient, "getProjectMetrics" | "getFinancialStatement">;

async function evaluate(client: NaiveClient, cell: BenchCell): Promise<CellOutcome> {
  switch (cell.fn) {
    case "VALUE": {
      const { data, errors } = await client.getProjectMetrics(cell.project, {
        metricIds: [cell.metric],
        start: cell.date,
        end: cell.date,
      });
      const value = data.find((row) => row.date === cell.date)?.values[cell.metric];
      if (typeof value === "number") return { kind: "number", value };
      const why = errors[0] ? JSON.stringify(errors[0]) : "no value";
      return { kind: "error", code: "#N/A", message: why };
    }
    case "METRIC": {
      const { data } = await client.getProjectMetrics(cell.project, {
        metricIds: [cell.metric],
        start: cell.start,
        end: cell.end,
        orderDirection: "asc",
      });
      if (data.length === 0) return { kind: "error", code: "#N/A", message: "no data" };
      return { kind: "table", rows: data.length, columns: 2 };
    }
    case "STATEMENT": {
      const { data } = await client.getFinancialStatement(cell.project);
      if (data.length === 0) return { kind: "error", code: "#N/A", message: "no statement" };
      return { kind: "table", rows: data.length, columns: 1 };
    }
  }
}

function failed(error: unknown): CellOutcome {
  return {
    kind: "error",
    code: isCryptometricsError(error) ? error.kind : "thrown",
    message: messageOf(error),
  };
}

/** Every cell at once, as Excel calls them; each sends its own request. */
export function naiveRecalculate(
  client: NaiveClient,
  cells: readonly BenchCell[]
): Promise<CellOutcome[]> {
  return Promise.all(cells.map((cell) => evaluate(client, cell).catch(failed)));
}
