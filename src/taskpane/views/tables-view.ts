/**
 * Tables and templates: a statement worksheet (project, granularity, interval; live formulas or static
 * values) and a comparison grid (projects × metrics of VALUE formulas) at the active cell.
 */
import { formatInstant } from "../model/diagnostics-model";
import type { AppContext } from "../app-context";
import type { Catalogue } from "../model/catalogue-store";
import { comparisonGrid } from "../model/comparison-grid";
import { GRANULARITY_CHOICES, INTERVAL_CHOICES } from "../model/function-specs";
import { statementSheet, type StatementMode } from "../model/statement-layout";
import { h } from "../../ui/dom";
import { choiceSelect, picker, type Picker } from "./picker";
import { statusLine, withBusy } from "../../ui/status";
import type { StatementGranularity } from "../../engine/engine";
import type { StatementInterval } from "../../client/data/types";

function projectItems(c: Catalogue): { id: string; name: string; symbol?: string }[] {
  return c.projects.map((p) => ({ id: p.projectId, name: p.name, symbol: p.symbol }));
}

export function tablesView(ctx: AppContext): HTMLElement {
  // ---- statement ----
  const statementProject = picker({ id: "statement-project", label: "Project" });
  const granularity = choiceSelect(
    "statement-granularity",
    "Periods",
    GRANULARITY_CHOICES.map((g) => ({ value: g, label: g })),
    "quarter"
  );
  const interval = choiceSelect(
    "statement-interval",
    "Over",
    INTERVAL_CHOICES.map((i) => ({ value: i, label: i })),
    "1y"
  );
  const mode = h(
    "fluent-radio-group",
    { id: "statement-mode", value: "live", orientation: "vertical" },
    h("label", { slot: "label" }, "Figures"),
    h(
      "fluent-radio",
      { value: "live", id: "statement-live", checked: true },
      "Live (STATEMENT formulas, update on Refresh)"
    ),
    h(
      "fluent-radio",
      { value: "static", id: "statement-static" },
      "Static values (share without a key)"
    )
  );
  const statementStatus = statusLine("statement-status");
  const statementButton = h(
    "fluent-button",
    { id: "insert-statement", appearance: "accent" },
    "Insert statement sheet"
  );
  statementButton.addEventListener("click", () =>
    withBusy(statementButton, statementStatus, "Building the statement…", async () => {
      const [projectId] = statementProject.value();
      if (!projectId) throw new Error("Choose a project.");
      const catalogue = await ctx.catalogue.load();
      const project = catalogue.projectById(projectId);
      const runtime = await ctx.runtime();
      const g = granularity.select.value as StatementGranularity;
      const i = interval.select.value as StatementInterval;
      const loaded = await runtime.engine.statement(projectId, g, i);
      if (loaded.value.length === 0)
        throw new Error(`The service has no ${g} statement for ${projectId} over ${i}.`);
      const chosenMode = ((mode as HTMLElement & { value: string }).value ||
        "live") as StatementMode;
      const plan = statementSheet({
        projectId,
        projectName: project?.name ?? projectId,
        granularity: g,
        interval: i,
        rows: loaded.value,
        mode: chosenMode,
        asOf: formatInstant(ctx.now()).slice(0, 16) + " UTC",
        simulated: ctx.source.current === "simulated",
      });
      const { sheetName } = await ctx.workbook.createSheet(plan);
      statementStatus.show(
        "success",
        `Added the worksheet "${sheetName}" with the ${chosenMode} ${g} statement of ${project?.name ?? projectId}.`
      );
    })
  );

  // ---- comparison grid ----
  const gridProjects = picker({ id: "grid-projects", label: "Projects (down)", multiple: true });
  const gridMetrics = picker({
    id: "grid-metrics-table",
    label: "Metrics (across)",
    multiple: true,
  });
  const gridDate = h("input", { id: "grid-date", type: "date", class: "input" });
  const gridStatus = statusLine("grid-status");
  const gridButton = h(
    "fluent-button",
    { id: "insert-grid", appearance: "accent" },
    "Insert comparison grid"
  );
  gridButton.addEventListener("click", () =>
    withBusy(gridButton, gridStatus, "Inserting…", async () => {
      const catalogue = await ctx.catalogue.load();
      const plan = comparisonGrid({
        projects: gridProjects
          .value()
          .map((id) => ({ id, name: catalogue.projectById(id)?.name ?? id })),
        metrics: gridMetrics.value().map((id) => ({ id, name: catalogue.metricName(id) })),
        date: gridDate.value || undefined,
      });
      const { address } = await ctx.workbook.insertGrid(plan);
      gridStatus.show("success", `Inserted the comparison grid in ${address}.`);
    })
  );

  const fill = (p: Picker, items: { id: string; name: string }[]): void => p.setItems(items);
  const load = async (): Promise<void> => {
    try {
      const c = await ctx.catalogue.load();
      fill(statementProject, projectItems(c));
      fill(gridProjects, projectItems(c));
      fill(
        gridMetrics,
        c.metrics.map((m) => ({ id: m.metricId, name: m.metricName }))
      );
    } catch {
      // The catalogue view says why it did not load.
    }
  };
  ctx.onConnectionChanged(() => void load());
  void load();

  return h(
    "div",
    { class: "stack" },
    h("h2", {}, "Statement worksheet"),
    statementProject.element,
    h("div", { class: "row" }, granularity.element, interval.element),
    mode,
    h("div", { class: "buttons" }, statementButton),
    statementStatus.element,
    h("fluent-divider", {}),
    h("h2", {}, "Comparison grid"),
    gridProjects.element,
    gridMetrics.element,
    h(
      "div",
      { class: "field" },
      h("label", { for: "grid-date", class: "label" }, "As of (empty: latest values)"),
      gridDate
    ),
    h("div", { class: "buttons" }, gridButton),
    gridStatus.element
  );
}
