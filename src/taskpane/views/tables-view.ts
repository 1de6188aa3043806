/**
 * Tables and templates: a statement worksheet (project, granularity, interval; live formulas or static
 * values) and a comparison grid (projects × metrics of VALUE formulas) at the active cell. A missing
 * choice or a mistyped date is said next to it, and focus goes there.
 */
import { formatInstant } from "../model/diagnostics-model";
import type { AppContext } from "../app-context";
import type { Catalogue } from "../model/catalogue-store";
import { comparisonGrid } from "../model/comparison-grid";
import { GRANULARITY_CHOICES, INTERVAL_CHOICES } from "../model/function-specs";
import { statementGrid, type Grid } from "../../functions/statement-grids";
import { FunctionError } from "../../functions/result";
import {
  CHANGES_OPTIONS,
  VALUES_OPTIONS,
  statementSheet,
  type StatementMode,
} from "../model/statement-layout";
import { h } from "../../ui/dom";
import { checkboxField, dropdownField, submitOnEnter, textField } from "../../ui/controls";
import { picker } from "./picker";
import { statusLine } from "../../ui/status";
import { dateProblem } from "../model/field-checks";
import { onPress, reportError } from "./feedback";
import type { StatementGranularity } from "../../engine";
import { dayOfInstant, formatDay, type StatementInterval } from "../../client";

/** As the builder lists them: an archived project says so (its history stays, no new data comes). */
function projectItems(
  c: Catalogue
): { id: string; name: string; symbol?: string; note?: string }[] {
  return c.projects.map((p) => ({
    id: p.projectId,
    name: p.name,
    symbol: p.symbol,
    note: p.isArchived ? "archived" : undefined,
  }));
}

/** A day after today (UTC) has no figures yet: said, not answered with the latest values. */
function futureProblem(date: string, today: string): string | undefined {
  return date > today
    ? `${date} is after today (${today}): no figures are known for it yet. Leave the field empty for the latest values.`
    : undefined;
}

export function tablesView(ctx: AppContext): HTMLElement {
  // ---- statement ----
  const statementProject = picker({ id: "statement-project", label: "Project" });
  const granularity = dropdownField(
    "statement-granularity",
    "Periods",
    GRANULARITY_CHOICES.map((g) => ({ value: g, label: g })),
    "quarter"
  );
  const interval = dropdownField(
    "statement-interval",
    "Over",
    INTERVAL_CHOICES.map((i) => ({ value: i, label: i })),
    "1y"
  );
  const staticValues = checkboxField(
    "statement-static",
    "Static values instead of live STATEMENT formulas (to share without a key)"
  );
  const statementStatus = statusLine("statement-status");
  const statementButton = h(
    "fluent-button",
    { id: "insert-statement", appearance: "primary" },
    "Insert statement sheet"
  );
  onPress(
    ctx,
    statementButton,
    statementStatus,
    "Building the statement…",
    "insert the statement",
    async () => {
      const [projectId] = statementProject.value();
      if (!projectId) {
        statementStatus.error("Choose a project first.");
        statementProject.focus();
        return;
      }
      const catalogue = await ctx.catalogue.load();
      const project = catalogue.projectById(projectId);
      const runtime = await ctx.runtime();
      const g = granularity.value() as StatementGranularity;
      const i = interval.value() as StatementInterval;
      // The statement as its formulas will spill it (complete periods, standard rows). A statement the
      // data cannot give is said here; a failure of the service goes to the usual error report.
      let grids: [Grid, Grid];
      try {
        grids = await Promise.all([
          statementGrid(runtime, projectId, g, i, VALUES_OPTIONS),
          statementGrid(runtime, projectId, g, i, CHANGES_OPTIONS),
        ]);
      } catch (error) {
        if (!(error instanceof FunctionError)) throw error;
        statementStatus.error(
          `No ${g} statement for ${project?.name ?? projectId} over ${i}: ${error.message}`
        );
        return;
      }
      const [values, changes] = grids;
      const chosenMode: StatementMode = staticValues.checked() ? "static" : "live";
      const plan = statementSheet({
        projectId,
        projectName: project?.name ?? projectId,
        granularity: g,
        interval: i,
        values,
        changes,
        mode: chosenMode,
        asOf: formatInstant(ctx.now()).slice(0, 16) + " UTC",
        simulated: ctx.source.current === "simulated",
      });
      const { sheetName } = await ctx.workbook.createSheet(plan);
      statementStatus.show(
        "success",
        `Added the worksheet "${sheetName}" with the ${chosenMode} ${g} statement of ${project?.name ?? projectId}.`
      );
    }
  );

  // ---- comparison grid ----
  const gridProjects = picker({ id: "grid-projects", label: "Projects (down)", multiple: true });
  const gridMetrics = picker({
    id: "grid-metrics-table",
    label: "Metrics (across)",
    multiple: true,
  });
  const gridDate = textField({
    id: "grid-date",
    label: "As of (empty: latest values)",
    placeholder: "YYYY-MM-DD",
    inputmode: "numeric",
    maxlength: 10,
  });
  const gridDateProblem = (text: string): string | undefined =>
    text === ""
      ? undefined
      : (dateProblem(text) ?? futureProblem(text, formatDay(dayOfInstant(ctx.now()))));
  gridDate.input.addEventListener("change", () => {
    gridDate.setError(gridDateProblem(gridDate.value().trim()));
  });
  const gridStatus = statusLine("grid-status");
  const gridButton = h(
    "fluent-button",
    // One primary action per view: the statement sheet's.
    { id: "insert-grid", appearance: "outline" },
    "Insert comparison grid"
  );
  submitOnEnter(gridDate, gridButton);
  onPress(ctx, gridButton, gridStatus, "Inserting…", "insert the comparison grid", async () => {
    const date = gridDate.value().trim();
    const problem = gridDateProblem(date);
    gridDate.setError(problem);
    if (problem) {
      gridStatus.clear();
      gridDate.focus();
      return;
    }
    const catalogue = await ctx.catalogue.load();
    const plan = comparisonGrid({
      projects: gridProjects
        .value()
        .map((id) => ({ id, name: catalogue.projectById(id)?.name ?? id })),
      metrics: gridMetrics.value().map((id) => ({ id, name: catalogue.metricName(id) })),
      date: date || undefined,
    });
    const { address } = await ctx.workbook.insertGrid(plan);
    gridStatus.show("success", `Inserted the comparison grid in ${address}.`);
  });

  const loadStatus = statusLine("tables-load-status");
  const load = async (): Promise<void> => {
    try {
      const c = await ctx.catalogue.load();
      loadStatus.clear();
      statementProject.setItems(projectItems(c));
      gridProjects.setItems(projectItems(c));
      gridMetrics.setItems(c.metrics.map((m) => ({ id: m.metricId, name: m.metricName })));
    } catch (error) {
      reportError(ctx, loadStatus, error, "load the catalogue", () => void load());
    }
  };
  ctx.onConnectionChanged(() => {
    statementStatus.clear();
    gridStatus.clear();
    void load();
  });
  void load();

  return h(
    "div",
    { class: "stack" },
    loadStatus.element,
    h("h2", {}, "Statement worksheet"),
    statementProject.element,
    h("div", { class: "row" }, granularity.element, interval.element),
    staticValues.element,
    h("div", { class: "buttons" }, statementButton),
    statementStatus.element,
    h("fluent-divider", { role: "separator" }),
    h("h2", {}, "Comparison grid"),
    gridProjects.element,
    gridMetrics.element,
    gridDate.element,
    h("div", { class: "buttons" }, gridButton),
    gridStatus.element
  );
}
