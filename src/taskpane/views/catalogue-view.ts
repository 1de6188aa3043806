/**
 * The catalogue browser: Projects, Metrics and Sectors tabs over one search box. The whole catalogue is in
 * memory and every keystroke filters it in one pass (see catalogue-search.ts); the count under the search
 * follows each keystroke, the announcement of it waits for a pause in typing. Each list is one tab stop
 * (arrow keys inside; Enter opens). Archived projects carry a neutral badge and their reason (archived is
 * a state, not an error), projects under maintenance say so. The search is Fluent's search box: a
 * magnifier, a clear button, Escape clears. Opening an entry moves focus to its detail's heading; Back or
 * Escape returns to the entry.
 */
import type { MarketSector, Metric, Project } from "../../client";
import type { AppContext } from "../app-context";
import type { Catalogue } from "../model/catalogue-store";
import { h, type Child, setText } from "../../ui/dom";
import { searchField } from "../../ui/search-field";
import { listbox } from "../../ui/listbox";
import { statusLine } from "../../ui/status";
import { tabList } from "../../ui/tabs";
import { detailView } from "./detail-view";
import { reportError } from "./feedback";

type Tab = "projects" | "metrics" | "sectors";
const TABS: readonly Tab[] = ["projects", "metrics", "sectors"];
const LABELS: Record<Tab, string> = {
  projects: "Projects",
  metrics: "Metrics",
  sectors: "Sectors",
};
/** Entries drawn per keystroke; more are reached by refining the search. */
const SHOWN = 150;
/** The result count is announced once typing pauses this long: once per search, not per keystroke. */
const ANNOUNCE_AFTER_MS = 700;

/** A project's state: a badge saying it, and the reason beside it as plain text. */
function projectStates(p: Project): HTMLElement[] {
  const list: HTMLElement[] = [];
  if (p.isArchived) {
    list.push(
      h(
        "span",
        { class: "state" },
        h("span", { class: "badge archived" }, "Archived"),
        p.archivedReason ? h("span", { class: "state-reason" }, ` ${p.archivedReason}`) : null
      )
    );
  }
  if (p.maintenanceReason) {
    list.push(
      h(
        "span",
        { class: "state" },
        h("span", { class: "badge maintenance" }, "Maintenance"),
        h("span", { class: "state-reason" }, ` ${p.maintenanceReason}`)
      )
    );
  }
  return list;
}

const entry = (name: string, meta: string, ...more: Child[]): Child[] => [
  h("span", { class: "entry-name" }, name),
  h("span", { class: "entry-meta" }, meta),
  ...more,
];

export function catalogueView(ctx: AppContext): HTMLElement {
  let catalogue: Catalogue | undefined;
  let active: Tab = "projects";
  const status = statusLine("catalogue-status");
  const search = searchField({
    id: "catalogue-search",
    label: "Search",
    placeholder: "Id, name or symbol",
    landmark: true,
  });
  const count = h("p", { id: "catalogue-count", class: "hint count" });
  const announce = h("p", { id: "catalogue-announce", class: "visually-hidden", role: "status" });
  const empty = h("div", { id: "catalogue-empty", class: "empty-state", hidden: true });

  const detail = detailView(ctx, () => closeDetail());
  detail.element.hidden = true;

  const lists = {
    projects: listbox<Project>({
      id: "list-projects",
      label: "Projects",
      key: (p) => p.projectId,
      render: (p) =>
        entry(p.name, [p.projectId, p.symbol].filter(Boolean).join(" · "), ...projectStates(p)),
      onActivate: (p) => openDetail(() => detail.showProject(p)),
      onFocusLost: () => search.focus(),
    }),
    metrics: listbox<Metric>({
      id: "list-metrics",
      label: "Metrics",
      key: (m) => m.metricId,
      render: (m) => entry(m.metricName, m.metricId),
      onActivate: (m) => openDetail(() => detail.showMetric(m)),
      onFocusLost: () => search.focus(),
    }),
    sectors: listbox<MarketSector>({
      id: "list-sectors",
      label: "Sectors",
      key: (s) => s.id,
      render: (s) => entry(s.name, s.id),
      onActivate: (s) => openDetail(() => detail.showSector(s)),
      onFocusLost: () => search.focus(),
    }),
  };
  const panel = (t: Tab): HTMLElement =>
    h("div", { id: `cpanel-${t}`, class: "catalogue-panel" }, lists[t].element);
  const panels: Record<Tab, HTMLElement> = {
    projects: panel("projects"),
    metrics: panel("metrics"),
    sectors: panel("sectors"),
  };
  const tabs = tabList(
    "Catalogue",
    TABS.map((t) => ({ id: t, label: LABELS[t], panel: panels[t] })),
    { prefix: "ctab", size: "small", id: "catalogue-tabs", class: "subtabs" }
  );
  const browse = h(
    "div",
    { class: "stack", id: "catalogue-browse" },
    search.element,
    tabs.element,
    count,
    announce,
    empty,
    ...TABS.map((t) => panels[t])
  );

  const openDetail = (show: () => void): void => {
    browse.hidden = true;
    detail.element.hidden = false;
    show();
    detail.focusTitle();
  };
  const closeDetail = (): void => {
    if (detail.element.hidden) return;
    detail.element.hidden = true;
    browse.hidden = false;
    if (!lists[active].focus()) search.focus();
  };

  let announceTimer: ReturnType<typeof setTimeout> | undefined;
  const say = (text: string, now: boolean): void => {
    if (announceTimer) clearTimeout(announceTimer);
    announceTimer = setTimeout(
      () => {
        setText(announce, text);
      },
      now ? 0 : ANNOUNCE_AFTER_MS
    );
  };

  const showEmpty = (message: string, clearSearch: boolean): void => {
    const clear = clearSearch
      ? h(
          "fluent-button",
          { id: "catalogue-clear", appearance: "outline", size: "small" },
          "Clear the search"
        )
      : null;
    clear?.addEventListener("click", () => {
      search.setValue("");
      render(true);
      search.focus();
    });
    empty.replaceChildren(h("p", {}, message), ...(clear ? [clear] : []));
    empty.hidden = false;
  };

  /** `fromTop`: a new search, whose best match (listed first) becomes the option Tab reaches. */
  const render = (announceNow: boolean, fromTop = false): void => {
    if (!catalogue) return;
    const c = catalogue;
    const q = search.value();
    const started = performance.now();
    const hits =
      active === "projects"
        ? c.projectIndex.search(q)
        : active === "metrics"
          ? c.metricIndex.search(q)
          : c.sectorIndex.search(q);
    const total =
      active === "projects"
        ? c.projects.length
        : active === "metrics"
          ? c.metrics.length
          : c.sectors.length;
    // The lists share one search: each is drawn from its own items.
    if (active === "projects")
      lists.projects.setItems((hits as Project[]).slice(0, SHOWN), fromTop);
    else if (active === "metrics")
      lists.metrics.setItems((hits as Metric[]).slice(0, SHOWN), fromTop);
    else lists.sectors.setItems((hits as MarketSector[]).slice(0, SHOWN), fromTop);
    const shown = Math.min(hits.length, SHOWN);
    const text =
      (q.trim() === "" ? `${total} ${active}` : `${hits.length} of ${total} ${active}`) +
      (shown < hits.length ? ` (first ${shown} shown; refine the search)` : "");
    setText(count, text);
    count.dataset.ms = (performance.now() - started).toFixed(1);
    empty.hidden = true;
    if (hits.length === 0) {
      showEmpty(
        total === 0
          ? `The service lists no ${active}.`
          : `No ${active} match “${q.trim()}”. Search by id, name or symbol.`,
        total > 0
      );
    }
    say(text, announceNow);
  };

  search.input.addEventListener("input", () => render(false, true));
  tabs.onSelect((id) => {
    active = id as Tab;
    render(true);
  });

  let loading = 0;
  const load = async (): Promise<void> => {
    const run = ++loading;
    status.show("busy", "Loading the catalogue…");
    setText(count, "");
    // The client retries a silent service for a while: say so rather than spin without a word.
    let stopRetries = (): void => undefined;
    let settled = false;
    ctx.runtime().then(
      (runtime) => {
        if (settled) return;
        stopRetries = runtime.client.on("retry", () => {
          // Only for this load: a load for settings since replaced says nothing any more.
          if (run === loading && !settled)
            status.show(
              "busy",
              "Loading the catalogue… the service has not answered yet; trying again."
            );
        });
      },
      () => undefined
    );
    try {
      const loaded = await ctx.catalogue.load();
      if (run !== loading) return;
      catalogue = loaded;
      status.clear();
      browse.hidden = !detail.element.hidden;
      render(true);
    } catch (error) {
      if (run !== loading) return;
      catalogue = undefined;
      TABS.forEach((t) => lists[t].setItems([]));
      empty.hidden = true;
      reportError(ctx, status, error, "load the catalogue", () => void load());
    } finally {
      settled = true;
      stopRetries();
    }
  };
  ctx.onConnectionChanged(() => {
    // What was on screen came from the old connection: close it and start over.
    const hadFocus = detail.element.contains(document.activeElement);
    detail.clear();
    detail.element.hidden = true;
    browse.hidden = false;
    if (hadFocus) search.focus();
    void load();
  });
  void load();

  return h("div", { class: "stack" }, status.element, browse, detail.element);
}
