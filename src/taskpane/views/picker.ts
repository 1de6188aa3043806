/**
 * Picking projects, metrics, sectors...: a search box over a native list box (single or multiple
 * choice). Native <select> elements are keyboard- and screen-reader-friendly and compact at 320 px. The
 * choice is a set of ids that survives filtering: searching for another project does not drop the first.
 */
import { CatalogueIndex } from "../model/catalogue-search";
import { h, replaceChildren } from "../../ui/dom";

export interface PickerEntity {
  id: string;
  name: string;
  symbol?: string;
  /** Shown after the name, e.g. "archived". */
  note?: string;
}

export interface Picker {
  element: HTMLElement;
  setItems(items: readonly PickerEntity[]): void;
  value(): string[];
  setValue(ids: readonly string[]): void;
  onChange(listener: (ids: string[]) => void): void;
}

export interface PickerOptions {
  id: string;
  label: string;
  multiple?: boolean;
  /** Rows visible in the list. */
  size?: number;
  /** A first "none" option for optional single choices. */
  noneLabel?: string;
}

const MAX_SHOWN = 300;

export function picker(options: PickerOptions): Picker {
  let index = new CatalogueIndex<PickerEntity>([], (e) => e);
  let byId = new Map<string, PickerEntity>();
  let chosen: string[] = [];
  const listeners: ((ids: string[]) => void)[] = [];
  const search = h("input", {
    type: "search",
    id: `${options.id}-search`,
    class: "input",
    placeholder: "Search…",
    "aria-label": `Search ${options.label.toLowerCase()}`,
    autocomplete: "off",
  });
  const select = h("select", {
    id: options.id,
    class: "input list",
    size: options.size ?? (options.multiple ? 6 : 5),
    multiple: options.multiple ?? false,
  });
  const label = h("label", { for: options.id, class: "label" }, options.label);
  const summary = h("p", { class: "hint", id: `${options.id}-chosen`, "aria-live": "polite" });
  select.setAttribute("aria-describedby", summary.id);

  const render = (): void => {
    const shown = index.search(search.value, MAX_SHOWN);
    const opts: HTMLOptionElement[] = [];
    if (options.noneLabel && !options.multiple) {
      opts.push(h("option", { value: "" }, options.noneLabel));
    }
    for (const e of shown) {
      const text = `${e.name}${e.symbol ? ` (${e.symbol})` : ""}${e.note ? ` — ${e.note}` : ""}`;
      const option = h("option", { value: e.id, title: e.id }, text);
      option.selected = chosen.includes(e.id);
      opts.push(option);
    }
    replaceChildren(select, ...opts);
    const names = chosen.map((id) => byId.get(id)?.name ?? id);
    summary.textContent = chosen.length === 0 ? "Nothing chosen." : `Chosen: ${names.join(", ")}`;
  };

  select.addEventListener("change", () => {
    const visible = new Set([...select.options].map((o) => o.value));
    const picked = [...select.selectedOptions].map((o) => o.value).filter((v) => v !== "");
    chosen = options.multiple
      ? [...chosen.filter((id) => !visible.has(id)), ...picked]
      : picked.slice(0, 1);
    render();
    listeners.forEach((l) => l([...chosen]));
  });
  search.addEventListener("input", render);

  return {
    element: h("div", { class: "field picker" }, label, search, select, summary),
    setItems(items) {
      index = new CatalogueIndex(items, (e) => e);
      byId = new Map(items.map((e) => [e.id, e]));
      render();
    },
    value: () => [...chosen],
    setValue(ids) {
      chosen = options.multiple ? [...ids] : ids.slice(0, 1);
      render();
    },
    onChange: (l) => listeners.push(l),
  };
}

/** A labelled native select of fixed choices. */
export function choiceSelect(
  id: string,
  label: string,
  choices: readonly { value: string; label: string }[],
  initial?: string
): { element: HTMLElement; select: HTMLSelectElement } {
  const select = h(
    "select",
    { id, class: "input" },
    ...choices.map((c) => {
      const option = h("option", { value: c.value }, c.label);
      option.selected = c.value === initial;
      return option;
    })
  );
  return {
    element: h("div", { class: "field" }, h("label", { for: id, class: "label" }, label), select),
    select,
  };
}
