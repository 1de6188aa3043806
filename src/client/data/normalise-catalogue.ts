/**
 * Catalogue responses (§2.1–2.3, 2.8, 2.9) → normalised types. The open members of project and
 * product detail (§2.12) are read in every shape seen so far: lists of ids, lists of objects,
 * objects keyed by id, comma strings.
 */
import type {
  DetailCommon,
  Metric,
  MetricDefinition,
  ProductDetail,
  ProductSummary,
  Project,
  ProjectDetail,
  ProjectLink,
} from "./types";
import {
  asObject,
  firstString,
  isObject,
  mapUsable,
  optBool,
  optString,
  reqString,
  stringList,
} from "./read";
import type { Notes } from "./notes";
import type { JsonObject, JsonValue } from "./wire";

/** An entry that cannot be read is left out and noted (./notes.ts); every entry unreadable is malformed. */
export function normaliseProjects(data: JsonValue, notes: Notes): Project[] {
  return mapUsable(
    data,
    "data",
    (item, path) => ({
      projectId: reqString(item, "project_id", path),
      name: optString(item, "name") ?? reqString(item, "project_id", path),
      ...optional("symbol", optString(item, "symbol")),
      ...optional("pricesourceId", optString(item, "pricesource_id")),
      ...optional("url", optString(item, "url")),
      isArchived: optBool(item, "is_archived"),
      ...optional("archivedReason", optString(item, "archived_reason")),
      ...optional("maintenanceReason", optString(item, "maintenance_reason")),
      products: Array.isArray(item.products)
        ? mapUsable(item.products, `${path}.products`, productSummary, notes, true)
        : [],
    }),
    notes
  );
}

function productSummary(item: JsonObject, path: string): ProductSummary {
  const productId = reqString(item, "product_id", path);
  return {
    productId,
    productName: firstString(item, ["product_name", "name"]) ?? productId,
    ...optional("symbol", optString(item, "symbol")),
    ...optional("url", optString(item, "url")),
  };
}

export function normaliseProjectDetail(data: JsonValue): ProjectDetail {
  const obj = asObject(data, "data");
  const projectId = reqString(obj, "project_id", "data");
  return {
    projectId,
    ...detailCommon(obj, projectId),
    description: textRecord(obj.description),
    links: Array.isArray(obj.links)
      ? obj.links.filter(isObject).map((l): ProjectLink => ({
          summary: optString(l, "summary") ?? "",
          url: optString(l, "url") ?? "",
        }))
      : [],
  };
}

export function normaliseProductDetail(data: JsonValue, projectIdAsked: string): ProductDetail {
  const obj = asObject(data, "data");
  const productId = reqString(obj, "product_id", "data");
  return {
    productId,
    projectId: optString(obj, "project_id") ?? projectIdAsked,
    ...detailCommon(obj, productId),
  };
}

function availabilityOf(
  value: JsonValue | undefined
): Pick<DetailCommon, "metricAvailability" | "availabilityPublished"> {
  const { map, published } = availability(value);
  return { metricAvailability: map, availabilityPublished: published };
}

function detailCommon(obj: JsonObject, fallbackName: string): DetailCommon {
  return {
    name: optString(obj, "name") ?? fallbackName,
    ...optional("symbol", optString(obj, "symbol")),
    marketSectors: idList(obj.market_sectors),
    chains: stringList(obj.chains),
    aggregateByOptions: obj.aggregate_by_options ?? null,
    ...availabilityOf(obj.metric_availability),
    metricDefinitions: definitions(obj.metric_definitions),
    metricSources: definitions(obj.metric_sources),
    raw: obj,
  };
}

export function normaliseMetrics(data: JsonValue, notes: Notes): Metric[] {
  return mapUsable(
    data,
    "data",
    (item, path) => {
      const metricId = reqString(item, "metric_id", path);
      return {
        metricId,
        metricName: firstString(item, ["metric_name", "name"]) ?? metricId,
        description: optString(item, "description") ?? "",
        ...optional("url", optString(item, "url")),
      };
    },
    notes
  );
}

/**
 * Ids from a list of ids, a list of objects with an id, an object keyed by id (id → true, a name or a
 * detail), or an object whose members hold such lists ({"market_sector_ids": [...]}).
 */
function idList(value: JsonValue | undefined): string[] {
  if (isObject(value) && Object.values(value).some(Array.isArray))
    return [...new Set(Object.values(value).flatMap((v) => (Array.isArray(v) ? idList(v) : [])))];
  if (Array.isArray(value)) {
    return value
      .map((v) =>
        typeof v === "string"
          ? v
          : isObject(v)
            ? firstString(v, ["id", "market_sector_id", "project_id"])
            : undefined
      )
      .filter((v): v is string => v !== undefined && v !== "");
  }
  if (isObject(value))
    return Object.keys(value).filter((k) => value[k] !== false && value[k] !== null);
  if (typeof value === "string") return splitList(value);
  return [];
}

/**
 * Metric id → available, from every form metric_availability takes (§2.2 declares a string, §2.3 an
 * object, the inner shape is not shown): an object of booleans (or truthy details), a list of ids, a comma
 * string, or a string holding one of those as JSON. `published` is whether the detail said anything: when
 * it did, a metric it does not list as available is not available, whatever the form.
 */
function availability(value: JsonValue | undefined): {
  map: Record<string, boolean>;
  published: boolean;
} {
  const map: Record<string, boolean> = {};
  if (typeof value === "string") {
    const text = value.trim();
    if (/^[[{]/.test(text) && text.length <= MAX_EMBEDDED_JSON) {
      try {
        return availability(JSON.parse(text) as JsonValue);
      } catch {
        // Not JSON after all: read it as a comma list below.
      }
    }
    splitList(text).forEach((id) => (map[id] = true));
    return { map, published: true };
  }
  if (isObject(value)) {
    for (const [id, v] of Object.entries(value)) {
      map[id] = !(v === false || v === null || v === "false" || v === 0);
    }
    return { map, published: true };
  }
  if (Array.isArray(value)) {
    idListOfMetrics(value).forEach((id) => (map[id] = true));
    return { map, published: true };
  }
  return { map, published: false };
}

/** Longest string read as embedded JSON: far above any metric list, far below what could cost memory. */
const MAX_EMBEDDED_JSON = 1_000_000;

function idListOfMetrics(value: JsonValue | undefined): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .map((v) => (typeof v === "string" ? v : isObject(v) ? optString(v, "metric_id") : undefined))
    .filter((v): v is string => v !== undefined && v !== "");
}

function definitions(value: JsonValue | undefined): MetricDefinition[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).flatMap((d) => {
    const metricId = optString(d, "metric_id");
    return metricId ? [{ metricId, definition: optString(d, "definition") ?? "" }] : [];
  });
}

/** An open text object (who/what/how): its string members; a plain string becomes { text }. */
function textRecord(value: JsonValue | undefined): Record<string, string> {
  if (typeof value === "string") return { text: value };
  if (!isObject(value)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === "string") out[k] = v;
  return out;
}

function splitList(text: string): string[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/**
 * Whether a project's (or product's) detail says a metric is available: true or false when it published its
 * availability (a metric it does not list is unavailable, whatever the form), undefined when it said nothing.
 */
export function isMetricAvailable(detail: DetailCommon, metricId: string): boolean | undefined {
  if (!detail.availabilityPublished) return undefined;
  return Object.prototype.hasOwnProperty.call(detail.metricAvailability, metricId)
    ? detail.metricAvailability[metricId] === true
    : false;
}

/** Spread helper so optional members are absent rather than present-and-undefined. */
export function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
