/**
 * What the formula builder offers beyond the registry (src/functions/registry.ts, where each function's
 * parameters and the control filling each are): the defaults it leaves out, the choices of the arguments
 * that are not options, the fields of PROJECT and PRODUCT.
 */
import { STATEMENT_INTERVALS, TIMESTAMP_GRANULARITIES } from "../../client";
import {
  DEFAULT_OPTIONS,
  LIST_OPTIONS,
  optionChoices,
  type OptionKey,
} from "../../functions/options";
export {
  FUNCTION_SPECS,
  specFor,
  type FunctionSpec,
  type ParamSpec,
} from "../../functions/registry";

/**
 * What a function does when an option is not given (the functions' DEFAULT_OPTIONS, as option text); the
 * builder leaves such values out of the formula. `agg` and `breakdown` have no fixed default: the metric decides.
 */
export const OPTION_DEFAULTS: Readonly<Partial<Record<OptionKey, string>>> = Object.fromEntries(
  (
    [
      "order",
      "headers",
      "period",
      "fill",
      "layout",
      "values",
      "bridged",
      "partial",
      "rows",
    ] as const
  ).map((key) => [key, String(DEFAULT_OPTIONS[key])])
);

export { LIST_OPTIONS, optionChoices };

export const GRANULARITY_CHOICES: readonly string[] = TIMESTAMP_GRANULARITIES;
export const INTERVAL_CHOICES: readonly string[] = STATEMENT_INTERVALS;

/** Fields of PROJECT (and, for the first ones, PRODUCT); definition.<metric> is added per project. */
export const PROJECT_FIELDS: readonly string[] = [
  "name",
  "project_id",
  "symbol",
  "description.what",
  "description.how",
  "market_sectors",
  "chains",
  "metrics_available",
  "links",
  "products",
  "is_archived",
  "archived_reason",
  "maintenance_reason",
];

export const PRODUCT_FIELDS: readonly string[] = [
  "name",
  "product_id",
  "project_id",
  "symbol",
  "market_sectors",
  "chains",
  "metrics_available",
];
