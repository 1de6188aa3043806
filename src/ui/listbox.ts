/**
 * A list as ONE tab stop: role=listbox with role=option items and a roving tabindex (the current option is
 * the only one in the tab order; arrow keys, Home/End and Page Up/Down move between options). Two uses:
 * - an action list (the catalogue): the current option is the selected one, Enter or a click activates it;
 * - a choice list (pickers): Space, Enter or a click chooses (toggles, with `multiple`); arrows only move.
 * Options are built from text nodes (dom.ts), so service data stays text. Re-rendering keeps the current
 * option, and the keyboard focus on it, when it is still listed.
 */
import { h, replaceChildren, type Child } from "./dom";

interface ListboxOptions<T> {
  id: string;
  /** The list's accessible name. */
  label: string;
  key(item: T): string;
  render(item: T): Child[];
  /** Choice list: several options can be chosen. */
  multiple?: boolean;
  /** Action list: Enter or click on an option. Without it the list is a choice list. */
  onActivate?(item: T): void;
  /** Choice list: the user changed the choice. */
  onChoose?(keys: string[]): void;
  /** The focused option went away with a re-render that left the list empty: put focus elsewhere. */
  onFocusLost?(): void;
}

interface Listbox<T> {
  element: HTMLElement;
  /**
   * Shows `items`. The current option stays where it is while it is still shown; `fromTop` makes the first
   * shown option current instead (a new search: the best match, listed first, is what Tab reaches).
   */
  setItems(items: readonly T[], fromTop?: boolean): void;
  /** Moves keyboard focus to an option (by key), or to the current one. False when the list is empty. */
  focus(key?: string): boolean;
  /** The current option's key (the one in the tab order). */
  current(): string | undefined;
  chosen(): string[];
  setChosen(keys: readonly string[]): void;
}

const PAGE = 10;

export function listbox<T>(options: ListboxOptions<T>): Listbox<T> {
  const action = options.onActivate !== undefined;
  const element = h("div", {
    id: options.id,
    role: "listbox",
    class: `listbox ${action ? "action-list" : "choice-list"}`,
    "aria-label": options.label,
    "aria-multiselectable": options.multiple ? "true" : null,
  });
  let items: readonly T[] = [];
  let nodes: HTMLElement[] = [];
  let currentKey: string | undefined;
  let chosen = new Set<string>();

  const indexOf = (key: string | undefined): number =>
    key === undefined ? -1 : nodes.findIndex((n) => n.dataset.id === key);

  const markSelected = (node: HTMLElement): void => {
    const key = node.dataset.id ?? "";
    const selected = action ? key === currentKey : chosen.has(key);
    node.setAttribute("aria-selected", String(selected));
  };

  const setCurrent = (index: number, focus: boolean): void => {
    if (nodes.length === 0) return;
    const i = Math.max(0, Math.min(nodes.length - 1, index));
    currentKey = nodes[i].dataset.id;
    nodes.forEach((node, n) => {
      node.tabIndex = n === i ? 0 : -1;
      if (action) markSelected(node);
    });
    if (focus) nodes[i].focus();
  };

  const choose = (node: HTMLElement): void => {
    const key = node.dataset.id ?? "";
    if (options.multiple) {
      if (chosen.has(key)) chosen.delete(key);
      else chosen.add(key);
    } else {
      chosen = new Set([key]);
    }
    nodes.forEach(markSelected);
    options.onChoose?.([...chosen]);
  };

  const activate = (node: HTMLElement): void => {
    const item = items[nodes.indexOf(node)];
    if (item === undefined) return;
    if (options.onActivate) options.onActivate(item);
    else choose(node);
  };

  element.addEventListener("keydown", (event) => {
    const node = (event.target as HTMLElement).closest<HTMLElement>("[role='option']");
    if (!node) return;
    const i = nodes.indexOf(node);
    const moves: Record<string, number> = {
      ArrowDown: i + 1,
      ArrowUp: i - 1,
      Home: 0,
      End: nodes.length - 1,
      PageDown: i + PAGE,
      PageUp: i - PAGE,
    };
    if (event.key in moves) {
      event.preventDefault();
      setCurrent(moves[event.key], true);
    } else if (event.key === "Enter" || (event.key === " " && !action)) {
      event.preventDefault();
      activate(node);
    }
  });
  element.addEventListener("click", (event) => {
    const node = (event.target as HTMLElement).closest<HTMLElement>("[role='option']");
    if (!node) return;
    setCurrent(nodes.indexOf(node), true);
    activate(node);
  });

  return {
    element,
    setItems(next, fromTop = false) {
      const hadFocus = element.contains(document.activeElement);
      items = next;
      nodes = next.map((item, i) => {
        const key = options.key(item);
        return h(
          "div",
          {
            role: "option",
            id: `${options.id}-${i}`,
            class: "option",
            "data-id": key,
            tabindex: -1,
          },
          ...options.render(item)
        );
      });
      replaceChildren(element, ...nodes);
      element.hidden = nodes.length === 0;
      if (!action) nodes.forEach(markSelected);
      const keep = fromTop ? -1 : indexOf(currentKey);
      setCurrent(keep >= 0 ? keep : 0, hadFocus);
      if (hadFocus && nodes.length === 0) options.onFocusLost?.();
    },
    focus(key) {
      if (nodes.length === 0) return false;
      const i = indexOf(key ?? currentKey);
      setCurrent(i >= 0 ? i : 0, true);
      return true;
    },
    current: () => currentKey,
    chosen: () => [...chosen],
    setChosen(keys) {
      chosen = new Set(options.multiple ? keys : keys.slice(0, 1));
      nodes.forEach(markSelected);
    },
  };
}
