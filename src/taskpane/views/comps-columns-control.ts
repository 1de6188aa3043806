/**
 * The builder's COMPS columns editor: one row per column, each a metric from the catalogue, a window (none,
 * or the presets `window=` takes), and an optional "divided by" metric and window for a ratio; Add column
 * and Remove column. The rows start at the columns a sector's *Insert comps* writes (model/comps-column-rows.ts)
 * and report themselves as rows; the model writes them as COMPS parses them.
 *
 * Focus: Add column moves focus to the new row's metric; Remove column moves it to the next row's metric,
 * or to Add column when the last row goes (focus is moved before the row leaves the page, so it never
 * falls to <body>). A row's missing metric is an inline error once its field is left without one.
 */
import type { Catalogue } from "../model/catalogue-store";
import {
  COMPS_WINDOW_CHOICES,
  columnText,
  copyRow,
  defaultColumnRows,
  MAX_COMPS_COLUMNS,
  rowProblems,
  windowWords,
  type CompsColumnRow,
  type CompsTermRow,
} from "../model/comps-column-rows";
import type { ParamValue } from "../model/formula-builder";
import type { ParamSpec } from "../model/function-specs";
import { dropdownField, type Choice, type DropdownControl } from "../../ui/controls";
import { compsColumnLabel, metricNamesFrom } from "../../sheet/metric-labels";
import { parseColumn } from "../../sheet/comps-columns";
import { h, replaceChildren } from "../../ui/dom";
import { setInactive } from "../../ui/status";

interface RowView {
  row: CompsColumnRow;
  element: HTMLElement;
  title: HTMLElement;
  metric: DropdownControl;
  /** The metric field was left: a missing metric shows as an error from then on. */
  left: boolean;
}

const NOT_A_RATIO = "";

export function compsColumnsControl(
  param: ParamSpec,
  catalogue: Catalogue,
  report: (value: ParamValue) => void
): { element: HTMLElement; set(value: ParamValue | undefined): void } {
  const base = `b-${param.name}`;
  let views: RowView[] = [];
  let made = 0;
  const list = h("div", { id: `${base}-rows`, class: "stack comps-rows" });
  const add = h(
    "fluent-button",
    { id: `${base}-add`, appearance: "outline", class: "comps-add" },
    "Add column"
  );

  const metricChoices = (extra: string, first?: Choice): Choice[] => [
    ...(first ? [first] : []),
    ...catalogue.metrics.map((m) => ({ value: m.metricId, label: m.metricName })),
    // A metric the catalogue does not list (a formula read back) stays what it was.
    ...(extra && !catalogue.metrics.some((m) => m.metricId === extra)
      ? [{ value: extra, label: extra }]
      : []),
  ];
  const windowChoices = (extra: string): Choice[] =>
    [
      "",
      ...COMPS_WINDOW_CHOICES,
      ...(extra && !COMPS_WINDOW_CHOICES.includes(extra) ? [extra] : []),
    ].map((w) => ({ value: w, label: w === "" ? "none: the value on the date" : windowWords(w) }));

  const names = metricNamesFrom(catalogue.metrics);
  /** The column's header as COMPS will write it ("P/S (TTM)"), or what is still to choose. */
  const heading = (row: CompsColumnRow): string => {
    const text = columnText(row);
    if (!row.term.metric || (row.divisor && !row.divisor.metric)) return "no metric yet";
    try {
      return compsColumnLabel(parseColumn(text), names);
    } catch {
      return text;
    }
  };
  const emit = (): void => {
    const problems = rowProblems(views.map((v) => v.row));
    views.forEach((v, i) => {
      replaceChildren(v.title, `Column ${i + 1}: ${heading(v.row)}`);
      const problem = problems.find((p) => p.row === i && p.part === "metric");
      // "Choose a metric" only once the field was left; a metric COMPS would misread at once.
      const shown = problem && (v.row.term.metric !== "" || v.left) ? problem.message : undefined;
      v.metric.setError(shown);
    });
    setInactive(add, views.length >= MAX_COMPS_COLUMNS);
    report({ kind: "columns", rows: views.map((v) => copyRow(v.row)) });
  };

  const termFields = (
    id: string,
    term: CompsTermRow,
    labels: { metric: string; window: string },
    onTerm: (next: CompsTermRow) => void,
    none?: Choice
  ): { metric: DropdownControl; window: DropdownControl; element: HTMLElement } => {
    const metric = dropdownField(
      `${id}-metric`,
      labels.metric,
      metricChoices(
        term.metric,
        none ?? (term.metric === "" ? { value: "", label: "(choose a metric)" } : undefined)
      ),
      term.metric
    );
    const window = dropdownField(
      `${id}-window`,
      labels.window,
      windowChoices(term.window),
      term.window
    );
    metric.onChange((value) => onTerm({ metric: value, window: window.value() }));
    window.onChange((value) => onTerm({ metric: metric.value(), window: value }));
    return {
      metric,
      window,
      element: h("div", { class: "row comps-term" }, metric.element, window.element),
    };
  };

  const rowView = (row: CompsColumnRow): RowView => {
    const id = `${base}-${++made}`;
    const title = h("p", { id: `${id}-title`, class: "label comps-row-title" });
    const term = termFields(id, row.term, { metric: "Metric", window: "Window" }, (next) => {
      view.row = { ...view.row, term: next };
      emit();
    });
    const divisor = termFields(
      `${id}-divisor`,
      row.divisor ?? { metric: NOT_A_RATIO, window: "" },
      { metric: "Divided by", window: "Its window" },
      (next) => {
        view.row =
          next.metric === NOT_A_RATIO
            ? { term: view.row.term }
            : { term: view.row.term, divisor: next };
        divisor.window.element.hidden = next.metric === NOT_A_RATIO;
        emit();
      },
      { value: NOT_A_RATIO, label: "nothing (not a ratio)" }
    );
    divisor.window.element.hidden = !row.divisor;
    const remove = h(
      "fluent-button",
      // Described by the row's title: a list of buttons then says which column each removes.
      {
        id: `${id}-remove`,
        appearance: "subtle",
        class: "comps-remove",
        "aria-describedby": title.id,
      },
      "Remove column"
    );
    const view: RowView = {
      row,
      title,
      metric: term.metric,
      left: false,
      element: h(
        "div",
        { id, class: "stack tight comps-row", role: "group", "aria-labelledby": title.id },
        title,
        term.element,
        divisor.element,
        h("div", { class: "buttons" }, remove)
      ),
    };
    term.metric.element.addEventListener("focusout", (event) => {
      const to = event.relatedTarget;
      if (to instanceof Node && term.metric.element.contains(to)) return;
      if (view.left) return;
      view.left = true;
      emit();
    });
    remove.addEventListener("click", () => removeRow(view));
    return view;
  };

  /** Focus on a row's metric once its combobox is on the page (the component inserts it when connected). */
  const focusMetric = (view: RowView, tries = 30): void => {
    view.metric.focus();
    if (!view.element.contains(document.activeElement) && tries > 0)
      requestAnimationFrame(() => focusMetric(view, tries - 1));
  };

  const removeRow = (view: RowView): void => {
    const at = views.indexOf(view);
    if (at < 0) return;
    const next = views[at + 1];
    // Focus first, while the row is still there: removing a focused element drops focus to <body>.
    if (next) next.metric.focus();
    else add.focus();
    views = views.filter((v) => v !== view);
    view.element.remove();
    emit();
  };

  add.addEventListener("click", () => {
    if (views.length >= MAX_COMPS_COLUMNS) return;
    const view = rowView({ term: { metric: "", window: "" } });
    views = [...views, view];
    list.append(view.element);
    emit();
    focusMetric(view);
  });

  const show = (rows: readonly CompsColumnRow[]): void => {
    views = rows.map((row) => rowView(copyRow(row)));
    replaceChildren(list, ...views.map((v) => v.element));
    emit();
  };

  return {
    element: h(
      "div",
      {
        class: "field comps-columns stack tight",
        role: "group",
        "aria-labelledby": `${base}-label`,
        "aria-describedby": `${base}-hint`,
      },
      h("p", { id: `${base}-label`, class: "label" }, param.label),
      h(
        "p",
        { id: `${base}-hint`, class: "hint" },
        "One per column: a metric, over a window (ttm: trailing twelve months), or divided by a second one for a ratio (P/S: market cap over revenue ttm)."
      ),
      list,
      h("div", { class: "buttons" }, add)
    ),
    set(value) {
      if (value?.kind === "columns") show(value.rows);
      else {
        const known = new Set(catalogue.metrics.map((m) => m.metricId));
        show(defaultColumnRows((id) => known.has(id)));
      }
    },
  };
}
