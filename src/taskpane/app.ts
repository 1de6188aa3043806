/**
 * The taskpane, assembled. One row of navigation: Browse / Build / Tables as tabs, and a "More" menu for
 * Refresh (the ribbon has it too), Diagnostics and Settings. Those three open as pages over the tabs, with
 * their title and a Back button in the same row; Back and Escape return to where the user was. No title
 * repeats Office's own (a heading for screen readers only). The demo-data banner is one compact line.
 * The app bar stays at the top while it and the builder's footer take at most a third of the pane
 * (ui/pane-layout.ts). Opens on Settings until a service URL and key exist.
 */
import type { AppContext, PageId, SectionId, TabId } from "./app-context";
import type { BuilderState } from "./model/formula-builder";
import { h, replaceChildren } from "../ui/dom";
import { tabList } from "../ui/tabs";
import { closedPopup } from "../ui/controls";
import { startPaneLayout, updatePaneLayout } from "../ui/pane-layout";
import { builderView } from "./views/builder-view";
import { catalogueView } from "./views/catalogue-view";
import { diagnosticsView } from "./views/diagnostics-view";
import { refreshView } from "./views/refresh-view";
import { settingsView } from "./views/settings-view";
import { tablesView } from "./views/tables-view";
import { tellChanges, type FoundChanges } from "../excel/refresh-changes";

type AppServices = Omit<
  AppContext,
  "navigate" | "openInBuilder" | "connectionChanged" | "onConnectionChanged"
>;

/** The last Refresh all was the ribbon's, and found restatements. */
function ribbonFound(found: FoundChanges | undefined): boolean {
  return found?.source === "ribbon" && found.count > 0;
}

const DEMO_BANNER_TEXT = "Demo data — not real figures";

const TABS: readonly { id: TabId; label: string }[] = [
  { id: "browse", label: "Browse" },
  { id: "build", label: "Build" },
  { id: "tables", label: "Tables" },
];

const PAGES: readonly { id: PageId; label: string }[] = [
  { id: "refresh", label: "Refresh" },
  { id: "diagnostics", label: "Diagnostics" },
  { id: "settings", label: "Settings" },
];

const isPage = (id: SectionId): id is PageId => PAGES.some((p) => p.id === id);

/** The menu's dots, drawn (no icon font, no image request). */
function moreIcon(): SVGElement {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 20 20");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "icon");
  for (const cx of [4, 10, 16]) {
    const dot = document.createElementNS("http://www.w3.org/2000/svg", "circle");
    dot.setAttribute("cx", String(cx));
    dot.setAttribute("cy", "10");
    dot.setAttribute("r", "1.6");
    dot.setAttribute("fill", "currentColor");
    svg.appendChild(dot);
  }
  return svg;
}

export async function startApp(root: HTMLElement, services: AppServices): Promise<AppContext> {
  const connectionListeners: (() => void)[] = [];
  // Filled once the shell exists; the views are built first and may navigate only later.
  let navigate: (section: SectionId) => void = () => undefined;
  let openBuilder: (state: BuilderState) => void = () => undefined;
  const ctx: AppContext = {
    ...services,
    connectionChanged: () => {
      services.catalogue.reset();
      connectionListeners.forEach((l) => l());
    },
    onConnectionChanged: (l) => connectionListeners.push(l),
    navigate: (section) => navigate(section),
    openInBuilder: (state) => {
      openBuilder(state);
      navigate("build");
    },
  };

  const banner = h(
    "p",
    { id: "demo-banner", class: "demo-banner", role: "status", hidden: true },
    DEMO_BANNER_TEXT
  );
  const showSource = (): void => {
    banner.hidden = ctx.source.current !== "simulated";
  };
  ctx.source.subscribe(showSource);
  showSource();

  const panel = (id: SectionId): HTMLElement =>
    h("section", { id: `panel-${id}`, class: "panel", "data-section": id });
  const panels = Object.fromEntries([...TABS, ...PAGES].map((s) => [s.id, panel(s.id)])) as Record<
    SectionId,
    HTMLElement
  >;
  const builder = builderView(ctx);
  openBuilder = builder.open;
  replaceChildren(panels.browse, catalogueView(ctx));
  replaceChildren(panels.build, builder.element);
  replaceChildren(panels.tables, tablesView(ctx));
  replaceChildren(panels.refresh, refreshView(ctx));
  replaceChildren(panels.diagnostics, diagnosticsView(ctx));
  replaceChildren(panels.settings, settingsView(ctx));

  const tabs = tabList(
    "Cryptometrics",
    TABS.map((s) => ({ id: s.id, label: s.label, panel: panels[s.id] })),
    { id: "sections", class: "sections" }
  );

  // ---- the More menu and the pages it opens ----
  const menuButton = h(
    "fluent-menu-button",
    {
      id: "more-menu",
      slot: "trigger",
      role: "button",
      appearance: "subtle",
      "icon-only": true,
      "aria-label": "More: Refresh, Diagnostics, Settings",
      title: "More",
    },
    moreIcon()
  );
  const menuItems = PAGES.map((p) =>
    h("fluent-menu-item", { id: `menu-${p.id}`, role: "menuitem", "data-page": p.id }, p.label)
  );
  const menu = h(
    "fluent-menu",
    { class: "more" },
    menuButton,
    h("fluent-menu-list", { role: "menu", "aria-label": "More" }, ...menuItems)
  );
  const pageTitle = h("h2", { id: "page-title", class: "page-title", tabindex: -1 });
  const back = h(
    "fluent-button",
    { id: "page-back", appearance: "subtle", class: "back" },
    h("span", { "aria-hidden": "true" }, "← "),
    "Back"
  );
  const pageBar = h("div", { class: "page-bar", hidden: true }, back, pageTitle);
  const tabBar = h("div", { class: "tab-bar" }, tabs.element, menu);
  // Tab panels and pages in two groups: a page hides the whole tab group, whatever the tab list (which
  // shows and hides its own panels) does meanwhile.
  const tabGroup = h("div", { class: "tab-panels" }, ...TABS.map((s) => panels[s.id]));
  const pageGroup = h("div", { class: "pages", hidden: true }, ...PAGES.map((s) => panels[s.id]));

  let openPage: PageId | undefined;
  /** Where focus goes back to when a page closes: what opened it. */
  let returnFocus: HTMLElement | undefined;

  const showPage = (page: PageId | undefined, focus: boolean): void => {
    openPage = page;
    const label = PAGES.find((p) => p.id === page)?.label ?? "";
    tabBar.hidden = page !== undefined;
    pageBar.hidden = page === undefined;
    replaceChildren(pageTitle, label);
    for (const p of PAGES) panels[p.id].hidden = p.id !== page;
    tabGroup.hidden = page !== undefined;
    pageGroup.hidden = page === undefined;
    document.body.dataset.section = page ?? tabs.selected();
    updatePaneLayout();
    if (page && focus) pageTitle.focus();
  };

  const closePage = (): void => {
    if (!openPage) return;
    showPage(undefined, false);
    const target =
      returnFocus?.isConnected && !returnFocus.closest("[hidden]") ? returnFocus : undefined;
    (target ?? menuButton).focus();
    returnFocus = undefined;
  };

  navigate = (section) => {
    if (isPage(section)) {
      if (openPage !== section) {
        const active = document.activeElement;
        returnFocus =
          openPage === undefined && active instanceof HTMLElement && active !== document.body
            ? active
            : returnFocus;
      }
      showPage(section, true);
      return;
    }
    if (openPage) showPage(undefined, false);
    tabs.select(section, true);
    document.body.dataset.section = section;
  };

  for (const item of menuItems) {
    // The component's "change" is its activation, by pointer or keyboard. The page's title takes focus
    // at once, before the menu (which held focus) closes.
    item.addEventListener("change", () => {
      returnFocus = menuButton;
      showPage(item.dataset.page as PageId, true);
    });
  }
  back.addEventListener("click", closePage);
  tabs.onSelect((id) => {
    document.body.dataset.section = id;
    updatePaneLayout();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || event.defaultPrevented || !openPage) return;
    // An open dropdown takes its own Escape (an open menu marks it handled).
    if (closedPopup(event)) return;
    event.preventDefault();
    closePage();
  });

  const header = h("header", { class: "app-bar" }, tabBar, pageBar, banner);
  replaceChildren(
    root,
    h("h1", { class: "visually-hidden" }, "Cryptometrics"),
    header,
    tabGroup,
    pageGroup
  );
  startPaneLayout(header, () => [...root.querySelectorAll<HTMLElement>(".builder-footer")]);

  const snapshot = await ctx.settings.snapshot();
  tabs.select("browse");
  // A ribbon Refresh that found restatements before the pane started: it opens on their list.
  const openedOn = ribbonFound(ctx.refreshChanges.last) ? ctx.refreshChanges.last : undefined;
  if (snapshot.baseUrl && snapshot.hasKey) showPage(openedOn ? "refresh" : undefined, false);
  else {
    returnFocus = undefined;
    showPage("settings", false);
  }
  // A ribbon Refresh has no view of its own: the first restatement it finds opens the Refresh view (the
  // command shows the pane meanwhile: src/commands/commands.ts).
  tellChanges(ctx.refreshChanges, "ribbon", (found) => {
    if (found !== openedOn) navigate("refresh");
  });
  root.removeAttribute("aria-busy");
  document.body.dataset.ready = "true";
  return ctx;
}
