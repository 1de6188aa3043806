/**
 * The detail panel of a project, metric or sector, and its insert actions. Everything from the service is
 * set as text; links open only when they are web addresses. The heading takes focus when a detail opens;
 * Back and Escape return to where the user came from (a sector's project returns to the sector, the rest
 * to the list). A failed load says why in plain words, with Retry, under the heading; what an insert did
 * is said right under its buttons. A sector's projects open their own detail.
 */
import type { MarketSector, Metric, Project, ProjectDetail } from "../../client";
import { describeMetricKind } from "../../engine";
import type { AppContext } from "../app-context";
import type { Catalogue } from "../model/catalogue-store";
import { emptyState, startingState, withValue } from "../model/formula-builder";
import {
  defaultMetric,
  metricLastYearFormula,
  projectFormula,
  statementFormula,
  valueFormula,
} from "../model/insert-actions";
import { h, replaceChildren, safeHref } from "../../ui/dom";
import { closedPopup, dropdownField } from "../../ui/controls";
import { accordionSection, type AccordionSection } from "../../ui/accordion";
import { listbox } from "../../ui/listbox";
import { statusLine, type StatusLine } from "../../ui/status";
import { sectorActions } from "./sector-actions";
import { onPress, reportError } from "./feedback";

interface DetailView {
  element: HTMLElement;
  showProject(project: Project): void;
  showMetric(metric: Metric): void;
  showSector(sector: MarketSector): void;
  /** Keyboard focus on the detail's heading (on opening). */
  focusTitle(): void;
  /** Forgets what is shown (the connection changed). */
  clear(): void;
}

function list(items: readonly string[], empty = "None listed."): HTMLElement {
  return items.length === 0
    ? h("p", { class: "hint" }, empty)
    : h("ul", { class: "plain" }, ...items.map((i) => h("li", {}, i)));
}

const title = (text: string): HTMLElement =>
  h("h2", { id: "detail-title", class: "detail-title", tabindex: -1 }, text);

export function detailView(ctx: AppContext, back: () => void): DetailView {
  const body = h("div", { id: "detail-body", class: "stack" });
  // Loading and failing to load: under the heading, where the eyes are when a detail opens.
  const status = statusLine("detail-load-status");
  /** Details opened from this one (a sector's project): Back returns to the one before. */
  const history: (() => void)[] = [];
  const backLabel = h("span", {}, "Back to the list");
  const goBack = (): void => {
    const previous = history.pop();
    if (previous) previous();
    else back();
    replaceChildren(backLabel, history.length > 0 ? "Back" : "Back to the list");
  };
  const backButton = h(
    "fluent-button",
    { id: "detail-back", appearance: "subtle", size: "small", class: "back", onclick: goBack },
    h("span", { "aria-hidden": "true" }, "← "),
    backLabel
  );
  const element = h(
    "section",
    { id: "detail", class: "stack detail", "aria-labelledby": "detail-title" },
    backButton,
    body,
    // Shown while the body is the heading alone: right under it.
    status.element
  );
  element.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || event.defaultPrevented) return;
    // An open dropdown takes its own Escape (an open menu marks it handled).
    if (closedPopup(event)) return;
    event.preventDefault();
    goBack();
  });
  /** Each show() bumps it: a slow answer for a detail the user already left is dropped. */
  let shown = 0;

  const insert = (button: HTMLElement, st: StatusLine, formula: () => string): void =>
    onPress(ctx, button, st, "Inserting…", "insert the formula", async () => {
      const text = formula();
      const { address } = await ctx.workbook.insertFormula(text);
      st.show("success", `Inserted ${text} in ${address}.`);
    });

  const projectActions = (
    p: Project,
    d: ProjectDetail,
    metricName: (id: string) => string
  ): HTMLElement => {
    const status = statusLine("detail-status");
    const available = Object.entries(d.metricAvailability)
      .filter(([, ok]) => ok)
      .map(([id]) => id);
    // Names where people read; the formula gets the id.
    const metric = dropdownField(
      "detail-metric",
      "Metric for VALUE and METRIC",
      available.map((id) => ({ value: id, label: metricName(id) })),
      defaultMetric(available)
    );
    const chosen = (): string => metric.value();
    const buttons = {
      card: h("fluent-button", { id: "insert-card", appearance: "primary" }, "Insert as card"),
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
    onPress(ctx, buttons.card, status, "Inserting…", "insert the card", async () => {
      const text = projectFormula(p.projectId);
      const { address } = await ctx.workbook.insertFormula(text);
      const cell = address.replace(/^.*!/, "");
      status.show(
        "success",
        `Inserted ${p.name} as a card in ${address} (${text}). Click its icon for the card; =${cell}.Revenue reads a field.`
      );
    });
    buttons.builder.addEventListener("click", () => {
      let state = withValue(emptyState("VALUE"), "project", { kind: "ids", ids: [p.projectId] });
      if (chosen()) state = withValue(state, "metric", { kind: "ids", ids: [chosen()] });
      ctx.openInBuilder(state);
    });
    // Without a metric, VALUE and METRIC would have nothing to insert.
    const offered =
      available.length > 0
        ? Object.values(buttons)
        : [buttons.card, buttons.statement, buttons.builder];
    return h(
      "div",
      { class: "stack actions" },
      h("h3", {}, "Insert into the active cell"),
      available.length > 0
        ? metric.element
        : h("p", { class: "hint" }, "No metrics are listed as available for this project."),
      h("div", { class: "buttons" }, ...offered),
      status.element
    );
  };

  /** The metrics section last drawn, and whose: a redraw of that project keeps it open or folded. */
  let lastMetrics: { projectId: string; section: AccordionSection } | undefined;

  const renderProject = (p: Project, d: ProjectDetail, catalogue: Catalogue): void => {
    const sectorNames = new Map(catalogue.sectors.map((s) => [s.id, s.name]));
    const description = Object.entries(d.description);
    const links = d.links
      .map((l) => ({ ...l, href: safeHref(l.url) }))
      .map((l) =>
        l.href
          ? h(
              "li",
              {},
              // A plain anchor styled as a Fluent link, not fluent-link: the component opens a Ctrl+click
              // with window.open(href, "_blank"), without noopener, and these addresses come from the service.
              h(
                "a",
                { href: l.href, target: "_blank", rel: "noopener noreferrer", class: "link" },
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
    const metricsList = h(
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
    );
    // A redraw of the same project (its list refreshed, the catalogue reloaded) keeps the section as the
    // user left it: open stays open.
    const wasOpen = lastMetrics?.projectId === p.projectId && lastMetrics.section.expanded();
    const metricsBox = accordionSection({
      id: "detail-metrics-section",
      expanded: wasOpen,
      heading: `Metrics available (${available.length}): definitions and sources`,
      level: 3,
      content: metricsList,
    });
    replaceChildren(
      body,
      title(d.name),
      h(
        "p",
        { class: "entry-meta" },
        [p.projectId, d.symbol ?? p.symbol].filter(Boolean).join(" · ")
      ),
      p.isArchived
        ? h(
            "p",
            { class: "state", id: "detail-archived" },
            h("span", { class: "badge archived" }, "Archived"),
            ` ${p.archivedReason ? `${p.archivedReason}. ` : ""}History kept, no new data.`
          )
        : null,
      p.maintenanceReason
        ? h(
            "p",
            { class: "state" },
            h("span", { class: "badge maintenance" }, "Maintenance"),
            ` ${p.maintenanceReason}`
          )
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
          p.products.map((x) => `${x.productName} (${x.productId})`).join(", ") || "None listed."
        ),
        h("dt", {}, "Links"),
        h("dd", {}, links.length ? h("ul", { class: "plain" }, ...links) : "None listed.")
      ),
      h("div", { id: "detail-metrics-box" }, metricsBox.element)
    );
    lastMetrics = { projectId: p.projectId, section: metricsBox };
  };

  /** Keeps focus on the page when the heading it was on is redrawn. */
  const keepFocus = (draw: () => void): void => {
    const onTitle = document.activeElement?.id === "detail-title";
    draw();
    if (onTitle) document.getElementById("detail-title")?.focus();
  };

  /**
   * Shows `name` as the heading at once, then the detail `load` fetches, drawn with the catalogue. A later show
   * wins over a load still under way; a failure is reported with `retry` offered.
   */
  const showLoaded = <D>(
    name: string,
    busy: string,
    load: () => Promise<{ value: D }>,
    draw: (d: D, catalogue: Catalogue) => void,
    retry: () => void
  ): void => {
    const run = ++shown;
    keepFocus(() => replaceChildren(body, title(name)));
    status.show("busy", busy);
    void (async () => {
      try {
        const [{ value: d }, catalogue] = await Promise.all([load(), ctx.catalogue.load()]);
        if (run !== shown) return;
        keepFocus(() => draw(d, catalogue));
        status.clear();
      } catch (error) {
        if (run !== shown) return;
        reportError(ctx, status, error, `load ${name}`, retry);
      }
    })();
  };

  const showProject = (p: Project): void =>
    showLoaded(
      p.name,
      "Loading the project…",
      () => ctx.catalogue.projectDetail(p.projectId),
      (d, catalogue) => renderProject(p, d, catalogue),
      () => showProject(p)
    );

  const showMetric = (m: Metric): void => {
    shown++;
    const builder = h(
      "fluent-button",
      { id: "metric-to-builder", appearance: "primary" },
      "Use in the formula builder"
    );
    builder.addEventListener("click", () =>
      ctx.openInBuilder(
        withValue(startingState("METRIC"), "metric", { kind: "ids", ids: [m.metricId] })
      )
    );
    status.clear();
    keepFocus(() =>
      replaceChildren(
        body,
        title(m.metricName),
        h("p", { class: "entry-meta" }, m.metricId),
        h("p", {}, m.description || "No description."),
        // How the functions roll it up: the add-in's table of kinds (engine/figures/metric-kinds.ts).
        h("p", { class: "hint", id: "metric-kind" }, describeMetricKind(m.metricId)),
        h("div", { class: "buttons" }, builder)
      )
    );
  };

  /** A sector's projects, each opening its own detail (Back returns to the sector). */
  const sectorProjects = (
    s: MarketSector,
    d: { projects: readonly { projectId: string; name: string }[] },
    catalogue: Catalogue
  ): HTMLElement => {
    if (d.projects.length === 0) return list([]);
    const projects = listbox<{ projectId: string; name: string }>({
      id: "sector-projects",
      label: `Projects of ${s.name}: Enter opens one`,
      key: (x) => x.projectId,
      render: (x) => [
        h("span", { class: "entry-name" }, x.name),
        h("span", { class: "entry-meta" }, x.projectId),
      ],
      onActivate: (x) => {
        const project: Project = catalogue.projectById(x.projectId) ?? {
          projectId: x.projectId,
          name: x.name,
          isArchived: false,
          products: [],
        };
        history.push(() => {
          showSector(s);
          focusTitle();
        });
        replaceChildren(backLabel, `Back to ${s.name}`);
        showProject(project);
        focusTitle();
      },
    });
    projects.setItems(d.projects);
    return projects.element;
  };

  const focusTitle = (): void => document.getElementById("detail-title")?.focus();

  const showSector = (s: MarketSector): void =>
    showLoaded(
      s.name,
      "Loading the sector…",
      () => ctx.catalogue.sectorDetail(s.id),
      (d, catalogue) =>
        replaceChildren(
          body,
          title(d.name),
          h("p", { class: "entry-meta" }, d.marketSectorId),
          d.description.what ? h("p", {}, h("strong", {}, "What: "), d.description.what) : null,
          d.description.how ? h("p", {}, h("strong", {}, "How: "), d.description.how) : null,
          // The actions before the list: a sector can list hundreds of projects.
          sectorActions(ctx, s.id, d, catalogue, (button, st, formula) =>
            insert(button, st, formula)
          ),
          h("h3", { id: "sector-projects-heading" }, `Projects (${d.projects.length})`),
          sectorProjects(s, d, catalogue)
        ),
      () => showSector(s)
    );

  /** Opening from the list starts a new trail: Back returns to the list. */
  const fromList =
    <A extends unknown[]>(show: (...args: A) => void) =>
    (...args: A): void => {
      history.length = 0;
      replaceChildren(backLabel, "Back to the list");
      show(...args);
    };

  return {
    element,
    showProject: fromList(showProject),
    showMetric: fromList(showMetric),
    showSector: fromList(showSector),
    focusTitle,
    clear: () => {
      shown++;
      history.length = 0;
      replaceChildren(body);
      status.clear();
    },
  };
}
