/**
 * The detail panel of a project, metric or sector, and its insert actions. Everything from the service is
 * set as text; links open only when they are web addresses.
 */
import type { MarketSector, Metric, Project, ProjectDetail } from "../../client/data/types";
import type { AppContext } from "../app-context";
import { comparisonGrid } from "../model/comparison-grid";
import { emptyState, withValue } from "../model/formula-builder";
import {
  defaultMetric,
  metricLastYearFormula,
  projectFormula,
  sectorFormula,
  statementFormula,
  valueFormula,
} from "../model/insert-actions";
import { h, replaceChildren, safeHref } from "../../ui/dom";
import { choiceSelect, picker } from "./picker";
import { statusLine, withBusy, type StatusLine } from "../../ui/status";
import { messageOf } from "../../client/errors";

export interface DetailView {
  element: HTMLElement;
  showProject(project: Project): void;
  showMetric(metric: Metric): void;
  showSector(sector: MarketSector): void;
}

function list(items: readonly string[], empty = "None listed."): HTMLElement {
  return items.length === 0
    ? h("p", { class: "hint" }, empty)
    : h("ul", { class: "plain" }, ...items.map((i) => h("li", {}, i)));
}

export function detailView(ctx: AppContext, back: () => void): DetailView {
  const body = h("div", { id: "detail-body", class: "stack" });
  const status = statusLine("detail-status");
  const backButton = h(
    "fluent-button",
    { id: "detail-back", appearance: "stealth", onclick: back },
    "← Back to the list"
  );
  const element = h("section", { id: "detail", class: "stack" }, backButton, status.element, body);

  const insert = (button: HTMLElement, st: StatusLine, formula: () => string): void => {
    button.addEventListener("click", () =>
      withBusy(button, st, "Inserting…", async () => {
        const text = formula();
        const { address } = await ctx.workbook.insertFormula(text);
        st.show("success", `Inserted ${text} in ${address}.`);
      })
    );
  };

  const projectActions = (
    p: Project,
    d: ProjectDetail,
    metricName: (id: string) => string
  ): HTMLElement => {
    const available = Object.entries(d.metricAvailability)
      .filter(([, ok]) => ok)
      .map(([id]) => id);
    const catalogueMetrics = available.map((id) => ({
      value: id,
      label: `${metricName(id)} (${id})`,
    }));
    const metric = choiceSelect(
      "detail-metric",
      "Metric for VALUE and METRIC",
      catalogueMetrics,
      defaultMetric(available)
    );
    const chosen = (): string => metric.select.value;
    const buttons = {
      card: h("fluent-button", { id: "insert-card", appearance: "accent" }, "Insert as card"),
      value: h("fluent-button", { id: "insert-value" }, "Insert VALUE"),
      metric: h("fluent-button", { id: "insert-metric" }, "Insert METRIC (last 365 days)"),
      statement: h("fluent-button", { id: "insert-statement-formula" }, "Insert STATEMENT"),
      builder: h(
        "fluent-button",
        { id: "open-builder", appearance: "outline" },
        "Open in the formula builder"
      ),
    };
    insert(buttons.value, status, () => valueFormula(p.projectId, chosen()));
    insert(buttons.metric, status, () => metricLastYearFormula(p.projectId, chosen()));
    insert(buttons.statement, status, () => statementFormula(p.projectId));
    buttons.card.addEventListener("click", () =>
      withBusy(buttons.card, status, "Inserting…", async () => {
        const text = projectFormula(p.projectId);
        const { address } = await ctx.workbook.insertFormula(text);
        const cell = address.replace(/^.*!/, "");
        status.show(
          "success",
          `Inserted ${p.name} as a card in ${address} (${text}). Click its icon for the card; =${cell}.Revenue reads a field.`
        );
      })
    );
    buttons.builder.addEventListener("click", () => {
      let state = withValue(emptyState("VALUE"), "project", { kind: "ids", ids: [p.projectId] });
      if (chosen()) state = withValue(state, "metric", { kind: "ids", ids: [chosen()] });
      ctx.openInBuilder(state);
    });
    return h(
      "div",
      { class: "stack actions" },
      h("h3", {}, "Insert into the active cell"),
      available.length > 0
        ? metric.element
        : h("p", { class: "hint" }, "No metrics are listed as available."),
      h("div", { class: "buttons" }, ...Object.values(buttons))
    );
  };

  const showProject = (p: Project): void => {
    replaceChildren(body, h("h2", { id: "detail-title" }, p.name));
    status.show("busy", "Loading the project…");
    void (async () => {
      try {
        const [{ value: d }, catalogue] = await Promise.all([
          ctx.catalogue.projectDetail(p.projectId),
          ctx.catalogue.load(),
        ]);
        const sectorNames = new Map(catalogue.sectors.map((s) => [s.id, s.name]));
        const description = Object.entries(d.description);
        const links = d.links
          .map((l) => ({ ...l, href: safeHref(l.url) }))
          .map((l) =>
            l.href
              ? h(
                  "li",
                  {},
                  h(
                    "a",
                    { href: l.href, target: "_blank", rel: "noopener noreferrer" },
                    l.summary || l.url
                  )
                )
              : h("li", {}, `${l.summary}: ${l.url}`)
          );
        const available = Object.entries(d.metricAvailability)
          .filter(([, ok]) => ok)
          .map(([id]) => id);
        const defs = new Map(d.metricDefinitions.map((x) => [x.metricId, x.definition]));
        const sources = new Map(d.metricSources.map((x) => [x.metricId, x.definition]));
        replaceChildren(
          body,
          h("h2", { id: "detail-title" }, d.name),
          h(
            "p",
            { class: "entry-meta" },
            [p.projectId, d.symbol ?? p.symbol].filter(Boolean).join(" · ")
          ),
          p.isArchived
            ? h(
                "p",
                { class: "badge archived" },
                `Archived${p.archivedReason ? `: ${p.archivedReason}` : ""} — history kept, no new data.`
              )
            : null,
          p.maintenanceReason
            ? h("p", { class: "badge maintenance" }, `Under maintenance: ${p.maintenanceReason}`)
            : null,
          ...description.map(([k, v]) =>
            h("p", {}, h("strong", {}, `${k[0].toUpperCase()}${k.slice(1)}: `), v)
          ),
          projectActions(p, d, catalogue.metricName),
          h(
            "dl",
            { class: "facts" },
            h("dt", {}, "Sectors"),
            h(
              "dd",
              {},
              d.marketSectors.map((id) => sectorNames.get(id) ?? id).join(", ") || "None listed."
            ),
            h("dt", {}, "Chains"),
            h("dd", {}, d.chains.join(", ") || "None listed."),
            h("dt", {}, "Products"),
            h(
              "dd",
              {},
              p.products.map((x) => `${x.productName} (${x.productId})`).join(", ") ||
                "None listed."
            ),
            h("dt", {}, "Links"),
            h("dd", {}, links.length ? h("ul", { class: "plain" }, ...links) : "None listed.")
          ),
          h(
            "details",
            { id: "detail-metrics-box" },
            h("summary", {}, `Metrics available (${available.length}): definitions and sources`),
            h(
              "ul",
              { class: "plain metrics", id: "detail-metrics" },
              ...available.map((id) =>
                h(
                  "li",
                  {},
                  h("strong", {}, catalogue.metricName(id)),
                  ` (${id})`,
                  defs.get(id) ? h("div", { class: "hint" }, defs.get(id)) : null,
                  sources.get(id) ? h("div", { class: "hint" }, `Source: ${sources.get(id)}`) : null
                )
              )
            )
          )
        );
        status.clear();
      } catch (error) {
        status.show("error", `Could not load ${p.projectId}: ${messageOf(error)}`);
      }
    })();
  };

  const showMetric = (m: Metric): void => {
    const builder = h(
      "fluent-button",
      { id: "metric-to-builder", appearance: "accent" },
      "Use in the formula builder"
    );
    builder.addEventListener("click", () =>
      ctx.openInBuilder(
        withValue(emptyState("METRIC"), "metric", { kind: "ids", ids: [m.metricId] })
      )
    );
    status.clear();
    replaceChildren(
      body,
      h("h2", { id: "detail-title" }, m.metricName),
      h("p", { class: "entry-meta" }, m.metricId),
      h("p", {}, m.description || "No description."),
      h("div", { class: "buttons" }, builder)
    );
  };

  const showSector = (s: MarketSector): void => {
    replaceChildren(body, h("h2", { id: "detail-title" }, s.name));
    status.show("busy", "Loading the sector…");
    void (async () => {
      try {
        const [{ value: d }, catalogue] = await Promise.all([
          ctx.catalogue.sectorDetail(s.id),
          ctx.catalogue.load(),
        ]);
        const metrics = picker({
          id: "grid-metrics",
          label: "Metrics for the comparison grid",
          multiple: true,
        });
        metrics.setItems(catalogue.metrics.map((m) => ({ id: m.metricId, name: m.metricName })));
        metrics.setValue(
          ["revenue", "fees", "tvl"].filter((id) =>
            catalogue.metrics.some((m) => m.metricId === id)
          )
        );
        const gridButton = h(
          "fluent-button",
          { id: "insert-sector-grid", appearance: "accent" },
          "Insert comparison grid"
        );
        gridButton.addEventListener("click", () =>
          withBusy(gridButton, status, "Inserting…", async () => {
            const plan = comparisonGrid({
              projects: d.projects.map((x) => ({ id: x.projectId, name: x.name })),
              metrics: metrics.value().map((id) => ({ id, name: catalogue.metricName(id) })),
            });
            const { address } = await ctx.workbook.insertGrid(plan);
            status.show("success", `Inserted the comparison grid in ${address}.`);
          })
        );
        const sectorButton = h("fluent-button", { id: "insert-sector" }, "Insert SECTOR");
        insert(sectorButton, status, () => sectorFormula(s.id));
        replaceChildren(
          body,
          h("h2", { id: "detail-title" }, d.name),
          h("p", { class: "entry-meta" }, d.marketSectorId),
          d.description.what ? h("p", {}, h("strong", {}, "What: "), d.description.what) : null,
          d.description.how ? h("p", {}, h("strong", {}, "How: "), d.description.how) : null,
          h("h3", {}, `Projects (${d.projects.length})`),
          list(d.projects.map((x) => `${x.name} (${x.projectId})`)),
          h("h3", {}, "Insert into the active cell"),
          metrics.element,
          h("div", { class: "buttons" }, gridButton, sectorButton)
        );
        status.clear();
      } catch (error) {
        status.show("error", `Could not load ${s.id}: ${messageOf(error)}`);
      }
    })();
  };

  return { element, showProject, showMetric, showSector };
}
