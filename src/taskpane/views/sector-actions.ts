/**
 * What a sector's detail inserts into the workbook: its comps table (one COMPS formula over the sector's
 * projects, see model/sector-comps.ts; or the same panel opened in the formula builder to edit its
 * columns first), a comparison grid of VALUE formulas for metrics the user picks, and the SECTOR list
 * itself. Every write goes through the workbook port (src/excel); each group's outcome is said in plain
 * words right under its buttons (the comps group's line is the detail's insert status, #detail-status).
 */
import type { MarketSectorDetail } from "../../client";
import type { AppContext } from "../app-context";
import type { Catalogue } from "../model/catalogue-store";
import { comparisonGrid } from "../model/comparison-grid";
import { sectorFormula } from "../model/insert-actions";
import { compsColumnsFor, sectorComps, type SectorComps } from "../model/sector-comps";
import { columnRows } from "../model/comps-column-rows";
import { emptyState, withValue } from "../model/formula-builder";
import { h } from "../../ui/dom";
import { statusLine, type StatusLine } from "../../ui/status";
import { picker } from "./picker";
import { onPress } from "./feedback";

const plural = (n: number, one: string): string => `${n} ${one}${n === 1 ? "" : "s"}`;

function describe(comps: SectorComps): string {
  const labels = comps.columns.map((c) => c.label);
  const list =
    labels.length > 1 ? `${labels.slice(0, -1).join(", ")} and ${labels.at(-1)}` : labels[0];
  return `One COMPS formula, ${plural(comps.projects, "project")} down: ${list}, as of the latest data.`;
}

/** The comps part: what it will insert, and the button; or why a comps table cannot be inserted. */
function compsActions(ctx: AppContext, d: MarketSectorDetail, catalogue: Catalogue): HTMLElement[] {
  const status = statusLine("detail-status");
  const known = new Set(catalogue.metrics.map((m) => m.metricId));
  let comps: SectorComps;
  try {
    comps = sectorComps(
      d.projects.map((p) => p.projectId),
      compsColumnsFor((id) => known.has(id))
    );
  } catch (error) {
    return [h("p", { class: "hint", id: "sector-comps-note" }, (error as Error).message)];
  }
  const button = h(
    "fluent-button",
    { id: "insert-sector-comps", appearance: "primary", "aria-describedby": "sector-comps-note" },
    "Insert comps"
  );
  onPress(ctx, button, status, "Inserting…", "insert the comps table", async () => {
    const where =
      comps.kind === "formula"
        ? (await ctx.workbook.insertFormula(comps.formula)).address
        : (await ctx.workbook.insertGrid(comps.plan)).address;
    status.show(
      "success",
      comps.kind === "formula"
        ? `Inserted the comps table of ${d.name} (${plural(comps.projects, "project")}) in ${where}.`
        : `Inserted the comps table of ${d.name} in ${where}: the ids of its ${plural(comps.projects, "project")} in a column, the COMPS formula beside them (too many for one formula).`
    );
  });
  // The same panel in the builder, to change its columns (a window, another ratio) before inserting.
  const edit = h(
    "fluent-button",
    { id: "sector-comps-to-builder", appearance: "outline" },
    "Edit in the formula builder"
  );
  edit.addEventListener("click", () => {
    const projects = withValue(emptyState("COMPS"), "projects", {
      kind: "ids",
      ids: d.projects.map((p) => p.projectId),
    });
    ctx.openInBuilder(
      withValue(projects, "columns", {
        kind: "columns",
        rows: columnRows(comps.columns.map((c) => c.column)),
      })
    );
  });
  return [
    h("p", { class: "hint", id: "sector-comps-note" }, describe(comps)),
    h("div", { class: "buttons" }, button, edit),
    status.element,
  ];
}

export function sectorActions(
  ctx: AppContext,
  sectorId: string,
  d: MarketSectorDetail,
  catalogue: Catalogue,
  insert: (button: HTMLElement, status: StatusLine, formula: () => string) => void
): HTMLElement {
  const status = statusLine("sector-grid-status");
  const metrics = picker({
    id: "grid-metrics",
    label: "Metrics for the comparison grid",
    multiple: true,
  });
  metrics.setItems(catalogue.metrics.map((m) => ({ id: m.metricId, name: m.metricName })));
  metrics.setValue(
    ["revenue", "fees", "tvl"].filter((id) => catalogue.metrics.some((m) => m.metricId === id))
  );
  const gridButton = h(
    "fluent-button",
    { id: "insert-sector-grid", appearance: "outline" },
    "Insert comparison grid"
  );
  onPress(ctx, gridButton, status, "Inserting…", "insert the comparison grid", async () => {
    const plan = comparisonGrid({
      projects: d.projects.map((x) => ({ id: x.projectId, name: x.name })),
      metrics: metrics.value().map((id) => ({ id, name: catalogue.metricName(id) })),
    });
    const { address } = await ctx.workbook.insertGrid(plan);
    status.show("success", `Inserted the comparison grid in ${address}.`);
  });
  const sectorButton = h("fluent-button", { id: "insert-sector" }, "Insert SECTOR");
  insert(sectorButton, status, () => sectorFormula(sectorId));
  return h(
    "div",
    { class: "stack actions" },
    h("h3", {}, "Insert into the active cell"),
    h(
      "div",
      { class: "stack", role: "group", "aria-labelledby": "sector-comps-heading" },
      h("h4", { id: "sector-comps-heading" }, "Comps table"),
      ...compsActions(ctx, d, catalogue)
    ),
    h(
      "div",
      { class: "stack", role: "group", "aria-labelledby": "sector-grid-heading" },
      h("h4", { id: "sector-grid-heading" }, "Comparison grid and list"),
      metrics.element,
      h("div", { class: "buttons" }, gridButton, sectorButton),
      status.element
    )
  );
}
