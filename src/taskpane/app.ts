/**
 * The taskpane, assembled: header with the demo-data banner, six sections behind a tab list, each section a
 * view over the shared runtime and the workbook port. Opens on Settings until a service URL and key exist.
 */
import { buildConfig } from "../runtime/build-config";
import type { AppContext, SectionId } from "./app-context";
import type { BuilderState } from "./model/formula-builder";
import { h, replaceChildren } from "../ui/dom";
import { tabList } from "../ui/tabs";
import { builderView } from "./views/builder-view";
import { catalogueView } from "./views/catalogue-view";
import { diagnosticsView } from "./views/diagnostics-view";
import { refreshView } from "./views/refresh-view";
import { settingsView } from "./views/settings-view";
import { tablesView } from "./views/tables-view";

export type AppServices = Omit<
  AppContext,
  "navigate" | "openInBuilder" | "connectionChanged" | "onConnectionChanged"
>;

export const DEMO_BANNER_TEXT = "Demo data — not real figures";

const SECTIONS: readonly { id: SectionId; label: string }[] = [
  { id: "browse", label: "Browse" },
  { id: "build", label: "Build" },
  { id: "tables", label: "Tables" },
  { id: "refresh", label: "Refresh" },
  { id: "diagnostics", label: "Diagnostics" },
  { id: "settings", label: "Settings" },
];

export async function startApp(root: HTMLElement, services: AppServices): Promise<AppContext> {
  const connectionListeners: (() => void)[] = [];
  // Filled once the panels exist; the views are built first and may navigate only later.
  const nav: { tabs?: ReturnType<typeof tabList> } = {};
  let openBuilder: (state: BuilderState) => void = () => undefined;
  const ctx: AppContext = {
    ...services,
    connectionChanged: () => {
      services.catalogue.reset();
      connectionListeners.forEach((l) => l());
    },
    onConnectionChanged: (l) => connectionListeners.push(l),
    navigate: (section) => nav.tabs?.select(section, true),
    openInBuilder: (state) => {
      openBuilder(state);
      nav.tabs?.select("build", true);
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

  const panels = Object.fromEntries(
    SECTIONS.map((s) => [s.id, h("section", { id: `panel-${s.id}`, class: "panel", tabindex: 0 })])
  ) as Record<SectionId, HTMLElement>;
  const builder = builderView(ctx);
  openBuilder = builder.open;
  replaceChildren(panels.browse, catalogueView(ctx));
  replaceChildren(panels.build, builder.element);
  replaceChildren(panels.tables, tablesView(ctx));
  replaceChildren(panels.refresh, refreshView(ctx));
  replaceChildren(panels.diagnostics, diagnosticsView(ctx));
  replaceChildren(panels.settings, settingsView(ctx));
  const tabs = tabList(
    "Cryptometrics sections",
    SECTIONS.map((s) => ({ id: s.id, label: s.label, panel: panels[s.id] }))
  );

  nav.tabs = tabs;
  replaceChildren(
    root,
    h(
      "header",
      { class: "app-header" },
      h("h1", {}, "Cryptometrics"),
      // The same help page every function's @helpurl opens (generated from functions.json).
      h(
        "a",
        {
          href: buildConfig.helpUrl,
          target: "_blank",
          rel: "noopener noreferrer",
          class: "help-link",
        },
        "Function reference"
      ),
      ctx.workbook.kind === "excel"
        ? null
        : h(
            "p",
            { class: "hint", id: "workbook-kind" },
            ctx.workbook.kind === "recording"
              ? "Outside Excel: workbook actions are recorded, not written."
              : "Outside Excel: open Cryptometrics from Excel to write into a workbook."
          ),
      banner
    ),
    tabs.element,
    ...SECTIONS.map((s) => panels[s.id])
  );

  const snapshot = await ctx.settings.snapshot();
  tabs.select(snapshot.baseUrl && snapshot.hasKey ? "browse" : "settings");
  root.removeAttribute("aria-busy");
  document.body.dataset.ready = "true";
  return ctx;
}
