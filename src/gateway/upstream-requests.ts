/**
 * The upstream request of a demand, as the interface writes it: a series request (one form, its list of members,
 * the caller's options and the need's days) or a whole answer's (its path and parameters as asked).
 */
import { formatDay } from "../client";
import type { Ask, QueryValue, SeriesAsk } from "./ask";
import type { SeriesForm } from "./operations";
import { OPEN_END, OPEN_START, type Need } from "./series/entry";
import type { UpstreamRequest } from "./upstream";

/** The path of a series form's operation. */
function seriesPath(form: SeriesForm, ask: SeriesAsk): string[] {
  switch (form) {
    case "metric":
      return ["v2", "metrics", ask.metricId];
    case "project":
      return ["v2", "projects", ask.projectId, "metrics"];
    case "product":
      return ["v2", "projects", ask.projectId, "products", ask.productId, "metrics"];
  }
}

/** The query of a series request: the list, the caller's options, the range; in the interface's order. */
export function seriesRequest(
  ask: SeriesAsk,
  need: Need,
  members: readonly string[]
): UpstreamRequest {
  const list = ask.form === "metric" ? "project_ids" : "metric_ids";
  const options = new Map(ask.variant.params);
  const query: Array<[string, QueryValue]> = [[list, members]];
  for (const name of ["chain_ids", "product_ids", "market_sector_ids", "aggregate_by"]) {
    const value = options.get(name);
    if (value !== undefined) query.push([name, value]);
  }
  if (need.start !== OPEN_START) query.push(["start", formatDay(need.start)]);
  if (need.end !== OPEN_END) query.push(["end", formatDay(need.end)]);
  const bridged = options.get("assets_bridged");
  if (bridged !== undefined) query.push(["assets_bridged", bridged]);
  return { segments: seriesPath(ask.form, ask), query };
}

/** The request of a whole answer: its path with the ids, its parameters as asked, in the interface's order. */
export function wholeRequest(ask: Ask): UpstreamRequest {
  const segments: string[] = [];
  let id = 0;
  for (const part of ask.spec.path) segments.push(part.startsWith(":") ? ask.ids[id++] : part);
  const query = Object.keys(ask.spec.params)
    .filter((name) => ask.params.has(name))
    .map((name): [string, QueryValue] => [name, ask.params.get(name) as QueryValue]);
  return { segments, query };
}
