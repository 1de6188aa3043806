/**
 * The catalogue browser: Projects, Metrics and Sectors tabs over one search box. The whole catalogue is in
 * memory and every keystroke filters it in one pass (see catalogue-search.ts); archived projects carry their
 * reason, projects under maintenance say so. Choosing an entry opens its detail panel.
 */
import type { MarketSector, Metric, Project } from "../../client/data/types";
import type { AppContext } from "../app-context";
import type { Catalogue } from "../model/catalogue-store";
import { h, replaceChildren } from "../../ui/dom";
import { statusLine } from "../../ui/status";
import { detailView } from "./detail-view";
import { messageOf } from "../../client/errors";

type Tab = "projects" | "metrics" | "sectors";
const TABS: readonly Tab[] = ["projects", "metrics", "sectors"];
const LABELS: Record<Tab, string> = {
  projects: "Projects",
  metrics: "Metrics",
  sectors: "Sectors",
};
/** Entries drawn per keystroke; more are reached by refining the search. */
const SHOWN = 150;

function projectEntry(p: Project): HTMLElement[] {
  const badges: HTMLElement[] = [];
  if (p.isArchived) {
    badges.push(
      h(
        "span",
        { class: "badge archived" },
        `Archived${p.archivedReason ? `: ${p.archivedReason}` : ""}`
      )
    );
  }
  if (p.maintenanceReason) {
    badges.push(h("span", { class: "badge maintenance" }, `Maintenance: ${p.maintenanceReason}`));
  }
  return [
    h("span", { class: "entry-name" }, p.name),
    h("span", { class: "entry-meta" }, [p.projectId, p.symbol].filter(Boolean).join(" · ")),
    ...badges,
  ];
}

function metricEntry(m: Metric): HTMLElement[] {
  return [
    h("span", { class: "entry-name" }, m.metricName),
    h("span", { class: "entry-meta" }, m.metricId),
  ];
}

function sectorEntry(s: MarketSector): HTMLElement[] {
  return [h("span", { class: "entry-name" }, s.name), h("span", { class: "entry-meta" }, s.id)];
}

export function catalogueView(ctx: AppContext): HTMLElement {
  let catalogue: Catalogue | undefined;
  let active: Tab = "projects";
  const status = statusLine("catalogue-status");
  const search = h("input", {
    id: "catalogue-search",
    type: "search",
    class: "input",
    placeholder: "Search by id, name or symbol",
    "aria-label": "Search the catalogue",
    autocomplete: "off",
  });
  const count = h("p", { id: "catalogue-count", class: "hint", "aria-live": "polite" });
  const lists = Object.fromEntries(
    TABS.map((t) => [t, h("ul", { id: `list-${t}`, class: "entries", "aria-label": LABELS[t] })])
  ) as Record<Tab, HTMLUListElement>;
  const tabs = h(
    "fluent-tabs",
    { id: "catalogue-tabs", activeid: "ctab-projects" },
    ...TABS.map((t) => h("fluent-tab", { id: `ctab-${t}`, slot: "tab" }, LABELS[t])),
    ...TABS.map((t) => h("fluent-tab-panel", { id: `cpanel-${t}`, slot: "tabpanel" }, lists[t]))
  );
  const browse = h("div", { class: "stack", id: "catalogue-browse" }, search, count, tabs);
  const detail = detailView(ctx, () => {
    detail.element.hidden = true;
    browse.hidden = false;
    search.focus();
  });
  detail.element.hidden = true;

  const entry = (id: string, content: HTMLElement[], open: () => void): HTMLLIElement =>
    h(
      "li",
      {},
      h("button", { type: "button", class: "entry", "data-id": id, onclick: open }, ...content)
    );

  const open = (show: () => void): void => {
    browse.hidden = true;
    detail.element.hidden = false;
    show();
  };

  const render = (): void => {
    if (!catalogue) return;
    const c = catalogue;
    const q = search.value;
    const started = performance.now();
    let total = 0;
    let found = 0;
    if (active === "projects") {
      const hits = c.projectIndex.search(q);
      [total, found] = [c.projects.length, hits.length];
      replaceChildren(
        lists.projects,
        ...hits
          .slice(0, SHOWN)
          .map((p) => entry(p.projectId, projectEntry(p), () => open(() => detail.showProject(p))))
      );
    } else if (active === "metrics") {
      const hits = c.metricIndex.search(q);
      [total, found] = [c.metrics.length, hits.length];
      replaceChildren(
        lists.metrics,
        ...hits
          .slice(0, SHOWN)
          .map((m) => entry(m.metricId, metricEntry(m), () => open(() => detail.showMetric(m))))
      );
    } else {
      const hits = c.sectorIndex.search(q);
      [total, found] = [c.sectors.length, hits.length];
      replaceChildren(
        lists.sectors,
        ...hits
          .slice(0, SHOWN)
          .map((s) => entry(s.id, sectorEntry(s), () => open(() => detail.showSector(s))))
      );
    }
    const shown = Math.min(found, SHOWN);
    count.textContent =
      (q.trim() === "" ? `${total} ${active}` : `${found} of ${total} ${active}`) +
      (shown < found ? ` (first ${shown} shown; refine the search)` : "");
    count.dataset.ms = (performance.now() - started).toFixed(1);
  };

  search.addEventListener("input", render);
  tabs.addEventListener("change", () => {
    const id = tabs.getAttribute("activeid") ?? "";
    const tab = TABS.find((t) => `ctab-${t}` === id);
    if (tab && tab !== active) {
      active = tab;
      render();
    }
  });

  const load = async (): Promise<void> => {
    status.show("busy", "Loading the catalogue…");
    // The client retries a silent service for a while: say so rather than spin without a word.
    let stopRetries = (): void => undefined;
    let settled = false;
    ctx.runtime().then(
      (runtime) => {
        if (settled) return;
        stopRetries = runtime.client.on("retry", (e) =>
          status.show(
            "busy",
            `Loading the catalogue… the service did not answer (${e.reason}); trying again.`
          )
        );
      },
      () => undefined
    );
    try {
      catalogue = await ctx.catalogue.load();
      status.clear();
      render();
    } catch (error) {
      catalogue = undefined;
      status.show("error", `The catalogue could not be loaded: ${messageOf(error)}`);
    } finally {
      settled = true;
      stopRetries();
    }
  };
  ctx.onConnectionChanged(() => void load());
  void load();

  return h("div", { class: "stack" }, status.element, browse, detail.element);
}
