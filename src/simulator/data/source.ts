/**
 * The part of the dataset that the statement and the aggregations read. The dataset hands itself over as
 * this narrow view, so those modules depend on what they use and not on the dataset that calls them.
 */
import type { Series } from "./series";

export interface SeriesSource {
  /** Today as a day number: where "year to date" and the other relative intervals end. */
  readonly todayDay: number;
  /** The project's metrics in catalogue order; undefined for an unknown project. */
  project(id: string): { readonly metrics: readonly string[] } | undefined;
  /** First day a metric of the project can have data. */
  firstDay(projectId: string, metricId: string): number;
  /** Last day with data for the project. */
  lastDay(projectId: string): number;
  /** The served series (bridged assets included). */
  series(projectId: string, metricId: string): Series;
}
