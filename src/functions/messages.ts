/**
 * A service client message as a person reads it. The client names its calls for developers and logs
 * ("listProjects(): no API key is set", "getMetricsBreakdown(fees; aave): not found (HTTP 404)",
 * "createClient: base URL … refused"); a cell, the command line and the taskpane's Diagnostics say what was
 * asked in words instead ("the breakdown of fees for aave: not found (HTTP 404)"), or, where the call does
 * not matter (no key, a refused key), just what happened. The client keeps its own messages for the logs.
 */

/**
 * What each client operation reads, in words: without ids, and from its path ids ("aave", "aave, aave-v3",
 * "fees") when the label names them.
 */
const OPERATION_WORDS: Readonly<Record<string, [string, (ids: string) => string]>> = {
  listProjects: ["the project list", () => "the project list"],
  getProject: ["a project", (ids) => `project ${ids}`],
  getProjectMetrics: ["a project's metrics", (ids) => `${ids}'s metrics`],
  getProjectMetricAggregations: ["a project's aggregations", (ids) => `${ids}'s aggregations`],
  getFinancialStatement: ["a financial statement", (ids) => `${ids}'s financial statement`],
  getProduct: ["a product", (ids) => `product ${ids}`],
  getProductMetrics: ["a product's metrics", (ids) => `product ${ids}'s metrics`],
  listMarketSectors: ["the sector list", () => "the sector list"],
  getMarketSector: ["a sector", (ids) => `sector ${ids}`],
  listMetrics: ["the metric list", () => "the metric list"],
  getMetric: ["a metric's data", (ids) => `${ids} data`],
  getMetricAggregations: ["the aggregations", () => "the aggregations"],
  getMetricsBreakdown: ["a breakdown", (ids) => `the ${ids} breakdown`],
  listProjectsV1: ["the project list (v1)", () => "the project list (v1)"],
  getProjectMetricsV1: ["a project's metrics (v1)", (ids) => `${ids}'s metrics (v1)`],
  createClient: ["the service address", () => "the service address"],
  configure: ["the settings", () => "the settings"],
};

/** "getMetric(fees; aave, uniswap): " or "createClient: ", possibly repeated (a call inside a call). */
const LABEL = /^([a-z][A-Za-z0-9]*)(?:\(([^)]*)\))?:\s+/;

/**
 * The message without the client's internal call labels. `keepContext`: replace a label by the words of what
 * was asked (a failure that depends on the call); otherwise drop it (a missing or refused key is the same
 * whatever was asked).
 */
export function userMessage(message: string, keepContext = true): string {
  let rest = message;
  let context = "";
  for (let m = LABEL.exec(rest); m; m = LABEL.exec(rest)) {
    const words = OPERATION_WORDS[m[1]];
    // A lower-case word before a colon that is no call of the client is the message's own text.
    if (words === undefined) break;
    if (!context) context = describe(words, m[2]);
    rest = rest.slice(m[0].length);
  }
  return keepContext && context ? `${context}: ${rest}` : rest;
}

/** "the fees breakdown for aave, uniswap": the words of the path ids, and the id list after ";". */
function describe(
  [generic, named]: [string, (ids: string) => string],
  args: string | undefined
): string {
  const [ids, list] = (args ?? "").split(";").map((part) => part.trim());
  return `${ids ? named(ids) : generic}${list ? ` for ${list}` : ""}`;
}
