/**
 * The preview page: Cryptometrics without Excel. It loads the same functions bundle as Excel's shared
 * runtime, after office.js, and offers a small sheet: type a CRYPTO formula in a cell, press Enter, see the
 * result spill, and read any error's message. Also what the browser tests use to exercise the functions.
 */
import { displayCell } from "../sheet/cell-display";
import { startPage, watchPageSource } from "../taskpane/page-start";
import { h, replaceChildren, setText } from "../ui/dom";
import { officeSettings } from "../runtime/office";
import { readyRuntime } from "../runtime/runtime";
import { completeBrowserHost } from "../sheet/browser-host";
import { connectionForm } from "./connection-form";
import { CONNECTION_TEST_LIMITS } from "../runtime/connection-test";
import { evaluateFormula } from "../sheet/evaluate";
import { cardView } from "../ui/card-view";
import { renderGrid } from "./grid-view";
import { loadPageRegistry } from "../functions/page-registry";
import { addressOf, positionKey, SheetModel, type Entry, type Position } from "./sheet-model";
import { cellReader, coveredBy, dependents } from "./references";
import { messageOf } from "../client";

export const EXAMPLES: readonly string[] = [
  '=CRYPTO.VALUE("aave","revenue")',
  '=CRYPTO.METRIC("aave","fees","2024-01-01","2024-01-07")',
  '=CRYPTO.VALUE("aave","revenue",EOMONTH(TODAY(),-1),"period=month")',
  '=CRYPTO.STATEMENT("uniswap","quarter","1y")',
  '=CRYPTO.PROJECT("aave")',
  '=CRYPTO.PROJECT("tick-and-tock","name")',
  '=CRYPTO.SECTOR("lending")',
  '=CRYPTO.VALUE("no-such-project","fees")',
];

function start(): void {
  const root = document.getElementById("preview");
  if (!root) return;
  const settings = officeSettings();
  const source = watchPageSource();

  const model = new SheetModel();
  let selected: Position = { row: 0, column: 0 };
  const table = h("table", {
    id: "sheet",
    class: "sheet",
    role: "grid",
    "aria-label": "Preview sheet",
  });
  const nameBox = h("output", { id: "name-box", class: "name-box" }, "A1");
  // Excel's formula bar is a plain edit box across the sheet, not a form field: a native input dressed in the
  // Fluent tokens (preview.css), so `#formula-input` is the very element a person or a browser driver types in.
  const formulaLabel = h(
    "label",
    { for: "formula-input", class: "formula-label" },
    "Formula for A1"
  );
  const input = h("input", {
    id: "formula-input",
    class: "formula-input",
    type: "text",
    placeholder: '=CRYPTO.VALUE("aave","revenue")',
    spellcheck: "false",
    autocomplete: "off",
  });
  const formulaField = h("div", { class: "formula-field" }, formulaLabel, input);
  const message = h("p", {
    id: "cell-message",
    role: "status",
    "aria-live": "polite",
    class: "cell-message",
  });
  // The card of the selected cell, when it holds one: its fields, as Excel's card opens on click.
  const cardPanel = h("div", { id: "card-panel", class: "card-panel", hidden: true });
  const banner = h(
    "p",
    {
      id: "demo-banner",
      class: "demo-banner",
      role: "status",
      hidden: source.current !== "simulated",
    },
    "Demo data — not real figures"
  );
  source.subscribe((state) => (banner.hidden = state !== "simulated"));

  const describe = (): void => {
    const shown = model.layout().get(positionKey(selected));
    const origin = shown?.origin ?? selected;
    const entry = model.entryAt(origin);
    if (!entry) {
      replaceChildren(message, `${addressOf(selected)} is empty. Type a formula and press Enter.`);
      cardPanel.hidden = true;
      return;
    }
    const here = shown && shown.cell !== "pending" ? displayCell(shown.cell) : undefined;
    const card =
      shown && shown.cell !== "pending" && shown.cell.kind === "entity" ? shown.cell : undefined;
    cardPanel.hidden = card === undefined;
    replaceChildren(cardPanel, card ? cardView(card.value, { id: "card" }) : null);
    replaceChildren(
      message,
      h("span", { class: "mono" }, `${addressOf(origin)}: ${entry.formula}`),
      shown?.spilled ? ` (this cell is part of its result)` : null,
      card
        ? ` — a card: its fields are below; =${addressOf(origin)}.Symbol or FIELDVALUE(${addressOf(origin)},"Symbol") reads one`
        : null,
      here?.kind === "error"
        ? h(
            "span",
            { class: "error-text", id: "cell-error" },
            ` ${here.text} ${here.message ?? ""}`
          )
        : null
    );
  };

  const draw = (focus = false): void => {
    // The grid is drawn anew: focus on a cell stays on the selected one (a result arriving never drops it).
    const onSheet = table.contains(document.activeElement);
    renderGrid(table, model.extent(), model.layout(), selected, { select, edit });
    describe();
    if (focus || onSheet) document.getElementById(`cell-${addressOf(selected)}`)?.focus();
  };

  const select = (at: Position): void => {
    selected = at;
    setText(nameBox, addressOf(at));
    setText(formulaLabel, `Formula for ${addressOf(at)}`);
    input.value = model.entryAt(at)?.formula ?? "";
    draw(true);
  };

  const edit = (at: Position, initial?: string): void => {
    if (at !== selected) select(at);
    if (initial !== undefined) input.value = initial;
    input.focus();
  };

  /** Formulas reading the cells `changed` compute again, each once per change (`done`). */
  const recomputeDependents = (changed: Set<string>, done: Set<string>): void => {
    for (const dependent of dependents(model, changed, done)) {
      const again = model.restart(dependent);
      if (again) void evaluate(again, new Set([...done, positionKey(again.at)]));
    }
  };

  const evaluate = async (entry: Entry, done = new Set([positionKey(entry.at)])): Promise<void> => {
    const before = coveredBy(model, entry.at);
    try {
      const registry = await loadPageRegistry();
      const result = await evaluateFormula(
        entry.formula,
        registry,
        `Sheet1!${addressOf(entry.at)}`,
        { read: cellReader(model, entry.at) }
      );
      model.resolve(
        entry,
        result.kind === "refused"
          ? { kind: "refused", message: result.message }
          : { kind: "done", grid: result.grid }
      );
    } catch (error) {
      model.resolve(entry, {
        kind: "refused",
        message: messageOf(error),
      });
    }
    draw();
    if (model.entryAt(entry.at) !== entry) return; // changed meanwhile: its own evaluation follows
    recomputeDependents(new Set([...before, ...coveredBy(model, entry.at)]), done);
  };

  const commit = (): void => {
    const before = coveredBy(model, selected);
    const entry = model.set(selected, input.value);
    draw();
    if (entry) void evaluate(entry);
    else recomputeDependents(before, new Set());
  };

  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      commit();
      // As Excel's formula bar: Enter puts the user back on the sheet (the cell keeps the selection, so
      // its result and message show as they arrive); arrows then move from there.
      document.getElementById(`cell-${addressOf(selected)}`)?.focus();
    } else if (event.key === "Escape") {
      input.value = model.entryAt(selected)?.formula ?? "";
      draw(true);
    }
  });
  const enter = h(
    "fluent-button",
    { id: "formula-enter", appearance: "primary", onclick: commit },
    "Enter"
  );
  const refresh = h("fluent-button", { id: "preview-refresh" }, "Refresh all");
  refresh.addEventListener("click", () => {
    void readyRuntime().then(
      (runtime) => {
        runtime.engine.refresh();
        for (const old of model.all()) {
          const entry = model.set(old.at, old.formula);
          if (entry) void evaluate(entry);
        }
        draw();
      },
      (error: unknown) => replaceChildren(message, messageOf(error))
    );
  });
  const clear = h("fluent-button", { id: "preview-clear", appearance: "outline" }, "Clear");
  clear.addEventListener("click", () => {
    model.clear();
    select({ row: 0, column: 0 });
  });
  const examples = h(
    "ul",
    { class: "examples" },
    ...EXAMPLES.map((example) =>
      h(
        "li",
        {},
        h(
          "fluent-button",
          { appearance: "subtle", class: "example mono", onclick: () => edit(selected, example) },
          example
        )
      )
    )
  );

  replaceChildren(
    root,
    h(
      "header",
      { class: "app-header" },
      h("h1", {}, "Cryptometrics preview"),
      h(
        "p",
        {},
        "Try the CRYPTO functions without Excel: type a formula in a cell and press Enter."
      ),
      banner
    ),
    connectionForm(
      settings,
      async (key) => (await readyRuntime()).probeClient(CONNECTION_TEST_LIMITS, key),
      (simulated) => {
        if (simulated !== undefined) source.noteResult(simulated);
      }
    ),
    h("div", { class: "formula-bar" }, nameBox, formulaField, enter, refresh, clear),
    message,
    h("div", { class: "sheet-area" }, h("div", { class: "sheet-scroll" }, table), cardPanel),
    h("h2", {}, "Examples"),
    h("p", { class: "hint" }, "Pick one to put it in the formula bar, then press Enter."),
    examples
  );
  draw();
  root.removeAttribute("aria-busy");
  document.body.dataset.ready = "true";
}

startPage(
  "preview",
  typeof Office === "undefined" ? undefined : () => Office.onReady(),
  (_root, info) => {
    // The preview page is for plain browsers; inside Office the host provides everything itself.
    if (info.host === null || info.host === undefined) completeBrowserHost();
    start();
  }
);
