/**
 * An accessible tab list that wraps onto a second line at the narrow taskpane width (Fluent's tabs scroll
 * sideways instead): role=tab buttons, arrow keys and Home/End move between them, one tab stop.
 */
import { h } from "./dom";

export interface TabSpec {
  id: string;
  label: string;
  panel: HTMLElement;
}

export interface TabList {
  element: HTMLElement;
  select(id: string, focus?: boolean): void;
  onSelect(listener: (id: string) => void): void;
}

export function tabList(label: string, tabs: readonly TabSpec[]): TabList {
  const listeners: ((id: string) => void)[] = [];
  const buttons = tabs.map((tab) =>
    h(
      "button",
      {
        type: "button",
        role: "tab",
        id: `tab-${tab.id}`,
        "aria-controls": tab.panel.id,
        class: "tab",
      },
      tab.label
    )
  );
  const element = h("div", { role: "tablist", "aria-label": label, class: "tablist" }, ...buttons);
  const select = (id: string, focus = false): void => {
    tabs.forEach((tab, i) => {
      const active = tab.id === id;
      buttons[i].setAttribute("aria-selected", String(active));
      buttons[i].tabIndex = active ? 0 : -1;
      tab.panel.hidden = !active;
      tab.panel.setAttribute("role", "tabpanel");
      tab.panel.setAttribute("aria-labelledby", buttons[i].id);
      if (active && focus) buttons[i].focus();
    });
    listeners.forEach((l) => l(id));
  };
  buttons.forEach((button, i) => {
    button.addEventListener("click", () => select(tabs[i].id));
    button.addEventListener("keydown", (event) => {
      const keys: Record<string, number> = {
        ArrowRight: (i + 1) % tabs.length,
        ArrowDown: (i + 1) % tabs.length,
        ArrowLeft: (i - 1 + tabs.length) % tabs.length,
        ArrowUp: (i - 1 + tabs.length) % tabs.length,
        Home: 0,
        End: tabs.length - 1,
      };
      const next = keys[event.key];
      if (next === undefined) return;
      event.preventDefault();
      select(tabs[next].id, true);
    });
  });
  return { element, select, onSelect: (l) => listeners.push(l) };
}
