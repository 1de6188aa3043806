/**
 * A Fluent 2 tab list (fluent-tablist / fluent-tab) over panels the page owns: ARIA tabs pattern, arrow
 * keys and Home/End move between tabs and select them, the selected tab is the list's one tab stop, panels
 * are labelled by their tab and are not tab stops themselves (their content is). The `change` event is
 * read after the component has moved `activeid`, so listeners always see the tab just chosen.
 */
import { h } from "./dom";

interface TabSpec {
  id: string;
  label: string;
  panel: HTMLElement;
}

interface TabList {
  element: HTMLElement;
  /** Selects a tab (and shows its panel); `focus` puts keyboard focus on the tab. */
  select(id: string, focus?: boolean): void;
  selected(): string;
  onSelect(listener: (id: string) => void): void;
}

interface TabListOptions {
  /** Prefix of the tab elements' ids: `${prefix}-${tab.id}`. */
  prefix?: string;
  size?: "small" | "medium" | "large";
  id?: string;
  class?: string;
}

type FluentTablist = HTMLElement & { activeid?: string };

export function tabList(
  label: string,
  tabs: readonly TabSpec[],
  options: TabListOptions = {}
): TabList {
  const prefix = options.prefix ?? "tab";
  const listeners: ((id: string) => void)[] = [];
  const tabElements = tabs.map((tab) => {
    tab.panel.setAttribute("role", "tabpanel");
    tab.panel.setAttribute("aria-labelledby", `${prefix}-${tab.id}`);
    tab.panel.removeAttribute("tabindex");
    // Explicit roles beside the component's ElementInternals ones, for checkers that only read attributes.
    return h(
      "fluent-tab",
      { id: `${prefix}-${tab.id}`, role: "tab", "aria-controls": tab.panel.id },
      tab.label
    );
  });
  const element = h(
    "fluent-tablist",
    {
      id: options.id ?? null,
      role: "tablist",
      "aria-label": label,
      size: options.size ?? null,
      class: options.class ?? null,
      activeid: `${prefix}-${tabs[0]?.id ?? ""}`,
    },
    ...tabElements
  ) as FluentTablist;
  let current = tabs[0]?.id ?? "";

  const show = (id: string): void => {
    tabs.forEach((tab, i) => {
      const active = tab.id === id;
      tab.panel.hidden = !active;
      tabElements[i].setAttribute("aria-selected", String(active));
    });
  };
  show(current);

  const settle = (id: string): void => {
    if (!tabs.some((t) => t.id === id)) return;
    show(id);
    if (id === current) return;
    current = id;
    listeners.forEach((l) => l(id));
  };

  element.addEventListener("change", () => {
    const active = element.activeid ?? "";
    settle(active.startsWith(`${prefix}-`) ? active.slice(prefix.length + 1) : active);
  });

  return {
    element,
    select(id, focus = false) {
      element.activeid = `${prefix}-${id}`;
      element.setAttribute("activeid", `${prefix}-${id}`);
      settle(id);
      if (focus) tabElements[tabs.findIndex((t) => t.id === id)]?.focus();
    },
    selected: () => current,
    onSelect: (l) => listeners.push(l),
  };
}
