/**
 * Picking projects, metrics, sectors...: a Fluent search field over a list box (single or multiple choice)
 * that is one tab stop, arrow keys inside, Space or Enter to choose. The choice is a set of ids that
 * survives filtering: searching for another project does not drop the first. A summary line says what is
 * chosen (announced when the choice changes, not on every keystroke of the search).
 */
import { CatalogueIndex } from "../model/catalogue-search";
import { h, setText } from "../../ui/dom";
import { searchField } from "../../ui/search-field";
import { listbox } from "../../ui/listbox";

interface PickerEntity {
  id: string;
  name: string;
  symbol?: string;
  /** Shown after the name, e.g. "archived". */
  note?: string;
}

interface Picker {
  element: HTMLElement;
  setItems(items: readonly PickerEntity[]): void;
  value(): string[];
  setValue(ids: readonly string[]): void;
  onChange(listener: (ids: string[]) => void): void;
  /** Keyboard focus on the list (its current option), or on the search when nothing is listed. */
  focus(): void;
}

interface PickerOptions {
  id: string;
  label: string;
  multiple?: boolean;
  /** Optional single choices: the choice can be cleared. */
  optional?: boolean;
}

const MAX_SHOWN = 300;

export function picker(options: PickerOptions): Picker {
  let index = new CatalogueIndex<PickerEntity>([], (e) => e);
  let byId = new Map<string, PickerEntity>();
  const listeners: ((ids: string[]) => void)[] = [];
  // The search field carries the picker's label; the list below it is named the same.
  const search = searchField({
    id: `${options.id}-search`,
    label: options.label,
    placeholder: "Search: id, name or symbol",
  });
  const summary = h("p", { class: "hint chosen", id: `${options.id}-chosen`, role: "status" });
  const empty = h("p", { class: "hint empty", hidden: true });
  const list = listbox<PickerEntity>({
    id: options.id,
    label: options.label,
    multiple: options.multiple,
    key: (e) => e.id,
    render: (e) => [
      h("span", { class: "check", "aria-hidden": "true" }),
      h(
        "span",
        { class: "option-text" },
        `${e.name}${e.symbol ? ` (${e.symbol})` : ""}`,
        e.note ? h("span", { class: "option-note" }, ` — ${e.note}`) : null
      ),
    ],
    onChoose: (ids) => {
      describe();
      listeners.forEach((l) => l(ids));
    },
    onFocusLost: () => search.focus(),
  });
  list.element.classList.add("picker-list");
  const clear = h(
    "fluent-button",
    { id: `${options.id}-clear`, appearance: "subtle", size: "small", hidden: true },
    "Clear choice"
  );
  clear.addEventListener("click", () => {
    list.setChosen([]);
    describe();
    listeners.forEach((l) => l([]));
    if (!list.focus()) search.focus();
  });

  const describe = (): void => {
    const chosen = list.chosen();
    const names = chosen.map((id) => byId.get(id)?.name ?? id);
    setText(summary, chosen.length === 0 ? "Nothing chosen." : `Chosen: ${names.join(", ")}`);
    clear.hidden = chosen.length === 0 || (!options.multiple && !options.optional);
  };

  const render = (fromTop = false): void => {
    const q = search.value();
    const shown = index.search(q, MAX_SHOWN);
    list.setItems(shown, fromTop);
    empty.hidden = shown.length > 0;
    setText(
      empty,
      byId.size === 0 ? "Nothing to choose from yet." : `Nothing matches “${q.trim()}”.`
    );
  };
  // Each keystroke is a new search: its best match (listed first) becomes the option Tab reaches, rather
  // than one a shorter query put first ("f" lists "Cumulative fees" before "Fees"; "fees" lists Fees first).
  search.input.addEventListener("input", () => render(true));

  return {
    element: h(
      "div",
      { class: "picker" },
      search.element,
      list.element,
      empty,
      h("div", { class: "picker-footer" }, summary, clear)
    ),
    setItems(items) {
      index = new CatalogueIndex(items, (e) => e);
      byId = new Map(items.map((e) => [e.id, e]));
      render();
      describe();
    },
    value: () => list.chosen(),
    setValue(ids) {
      list.setChosen(ids);
      describe();
    },
    onChange: (l) => listeners.push(l),
    focus: () => {
      if (!list.focus()) search.focus();
    },
  };
}
