/** PROJECTS, PROJECT, PRODUCT, METRICS, SECTORS, SECTOR: the catalogues as tables and field look-ups. */
import { distance } from "fastest-levenshtein";
import {
  openText,
  type DetailCommon,
  type JsonValue,
  type MarketSector,
  type Project,
} from "../../client";
import { messageOf } from "../../client";
import { optionalText, requiredText } from "../coerce";
import { projectCard } from "./card";
import { traced, type FnContext } from "../context";
import { supportsEntities } from "../host";
import { invalid, isErrorCell, notAvailable, type Cell, type Table } from "../result";
import { metricCatalogue, projectCatalogue, resolveProduct, resolveProject } from "./resolve";
import { optionsFor } from "../function-options";

function withHeader(header: Cell[], rows: Table, headers: number): Table {
  return headers >= 1 ? [header, ...rows] : rows;
}

export async function projects(ctx: FnContext, optionsArg: unknown): Promise<Table> {
  const options = optionsFor("PROJECTS", optionsArg);
  let list = await projectCatalogue(ctx);
  if (options.sectors.length > 0) {
    const ids = new Set<string>();
    for (const text of options.sectors) {
      const sector = await resolveSector(ctx, text);
      const detail = await traced(
        ctx,
        `GET /v2/market-sectors/${sector.id}`,
        ctx.engine.sector(sector.id)
      );
      detail.projects.forEach((p) => ids.add(p.projectId));
    }
    list = list.filter((p) => ids.has(p.projectId));
  }
  const rows = list.map((p): Cell[] => [
    p.name,
    p.projectId,
    p.symbol ?? null,
    p.isArchived,
    p.archivedReason ?? null,
    p.maintenanceReason ?? null,
    p.products.map((x) => x.productId).join(", "),
  ]);
  const header = [
    "name",
    "project_id",
    "symbol",
    "is_archived",
    "archived_reason",
    "maintenance_reason",
    "products",
  ];
  return withHeader(header, rows, options.headers);
}

/**
 * A detail's fields by name, each rendered only when shown: PROJECT("aave","chains") renders nothing but
 * the chains, so a broken open member (nested thousands deep, huge) cannot cost the other fields anything.
 */
type Field = [name: string, value: () => Cell];

/** An open member (§2.12) as text: bounded in depth and length (see client openText). */
function text(value: JsonValue): string {
  return openText(value);
}

/** Field name -> value rows common to project and product details. */
function commonFields(d: DetailCommon): Field[] {
  const fields: Field[] = [
    ["market_sectors", () => d.marketSectors.join(", ")],
    ["chains", () => d.chains.join(", ")],
    [
      "metrics_available",
      () =>
        Object.entries(d.metricAvailability)
          .filter(([, available]) => available)
          .map(([id]) => id)
          .join(", "),
    ],
  ];
  if (d.aggregateByOptions !== null)
    fields.push(["aggregate_by_options", () => text(d.aggregateByOptions)]);
  for (const def of d.metricDefinitions)
    fields.push([`definition.${def.metricId}`, () => def.definition]);
  for (const src of d.metricSources) fields.push([`source.${src.metricId}`, () => src.definition]);
  return fields;
}

/** One field's value; a field that cannot be rendered is an error in its own cell, not the whole call. */
function render([name, value]: Field): Cell {
  try {
    return value();
  } catch (error) {
    return { error: "na", message: `field "${name}" could not be read (${messageOf(error)})` };
  }
}

function fieldTable(fields: readonly Field[], field: string | undefined, what: string): Table {
  if (field === undefined)
    return [["field", "value"], ...fields.map((f): Cell[] => [f[0], render(f)])];
  const found = fields.find(([k]) => k.toLowerCase() === field.toLowerCase());
  if (!found) {
    const names = fields.map(([k]) => k).filter((k) => !/^(definition|source)\./.test(k));
    throw invalid(
      `${what} has no field "${field}"; fields: ${names.join(", ")}, definition.<metric>, source.<metric>`
    );
  }
  const value = render(found);
  if (isErrorCell(value)) throw notAvailable(value.message);
  return [[value]];
}

export async function project(
  ctx: FnContext,
  projectArg: unknown,
  fieldArg: unknown
): Promise<Table> {
  // Every argument is checked before the first request: a bad one must not cost any.
  const projectText = requiredText(projectArg, "project");
  const field = optionalText(fieldArg, "field");
  const p = await resolveProject(ctx, projectText);
  // Without a field: a card where the host takes entity values (checked at run time), the table elsewhere.
  if (field === undefined && supportsEntities()) return [[{ entity: await projectCard(ctx, p) }]];
  const d = await traced(ctx, `GET /v2/projects/${p.projectId}`, ctx.engine.project(p.projectId));
  const fields: Field[] = [
    ["name", () => d.name],
    ["project_id", () => d.projectId],
    ["symbol", () => d.symbol ?? p.symbol ?? null],
    ["is_archived", () => p.isArchived],
    ["archived_reason", () => p.archivedReason ?? null],
    ["maintenance_reason", () => p.maintenanceReason ?? null],
    ...Object.entries(d.description).map(([k, v]): Field => [`description.${k}`, () => v]),
    ...commonFields(d),
    ["links", () => d.links.map((l) => `${l.summary}: ${l.url}`).join("; ")],
    ["products", () => p.products.map((x) => x.productId).join(", ")],
  ];
  return fieldTable(fields, field, `project "${p.projectId}"`);
}

export async function product(
  ctx: FnContext,
  projectArg: unknown,
  productArg: unknown,
  fieldArg: unknown
): Promise<Table> {
  const projectText = requiredText(projectArg, "project");
  const productText = requiredText(productArg, "product");
  const field = optionalText(fieldArg, "field");
  const p = await resolveProject(ctx, projectText);
  const productId = resolveProduct(p, productText);
  const d = await traced(
    ctx,
    `GET /v2/projects/${p.projectId}/products/${productId}`,
    ctx.engine.product(p.projectId, productId)
  );
  const fields: Field[] = [
    ["name", () => d.name],
    ["product_id", () => d.productId],
    ["project_id", () => d.projectId],
    ["symbol", () => d.symbol ?? null],
    ...commonFields(d),
  ];
  return fieldTable(fields, field, `product "${productId}"`);
}

export async function metrics(ctx: FnContext, projectArg: unknown): Promise<Table> {
  const projectText = optionalText(projectArg, "project");
  let list = await metricCatalogue(ctx);
  if (projectText !== undefined) {
    const p: Project = await resolveProject(ctx, projectText);
    const d = await traced(ctx, `GET /v2/projects/${p.projectId}`, ctx.engine.project(p.projectId));
    const available = new Set(
      Object.entries(d.metricAvailability)
        .filter(([, v]) => v)
        .map(([id]) => id)
    );
    list = list.filter((m) => available.has(m.metricId));
    if (list.length === 0)
      throw notAvailable(`no metrics are listed as available for ${p.projectId}`);
  }
  return [
    ["metric_id", "metric_name", "description"],
    ...list.map((m) => [m.metricId, m.metricName, m.description]),
  ];
}

async function sectorList(ctx: FnContext): Promise<MarketSector[]> {
  return traced(ctx, "GET /v2/market-sectors", ctx.engine.sectors());
}

async function resolveSector(ctx: FnContext, textArg: string): Promise<MarketSector> {
  const t = textArg.trim().toLowerCase();
  const list = await sectorList(ctx);
  const found = list.find((s) => s.id.toLowerCase() === t || s.name.toLowerCase() === t);
  if (found) return found;
  const near = list
    .map((s) => ({
      id: s.id,
      d: Math.min(distance(t, s.id.toLowerCase()), distance(t, s.name.toLowerCase())),
    }))
    .sort((a, b) => a.d - b.d)
    .slice(0, 3)
    .map((s) => `"${s.id}"`);
  throw notAvailable(
    `unknown market sector "${textArg.trim()}"; sectors include ${near.join(", ")}`
  );
}

export async function sectors(ctx: FnContext): Promise<Table> {
  return [["id", "name"], ...(await sectorList(ctx)).map((s): Cell[] => [s.id, s.name])];
}

export async function sector(ctx: FnContext, sectorArg: unknown): Promise<Table> {
  const s = await resolveSector(ctx, requiredText(sectorArg, "sector"));
  const d = await traced(ctx, `GET /v2/market-sectors/${s.id}`, ctx.engine.sector(s.id));
  if (d.projects.length === 0) throw notAvailable(`market sector "${s.id}" lists no projects`);
  return [["project_id", "name"], ...d.projects.map((p): Cell[] => [p.projectId, p.name])];
}
