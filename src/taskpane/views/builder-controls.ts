/**
 * One control per builder parameter, chosen by the parameter's kind: pickers over the catalogue, selects of
 * fixed choices, a date control (none, a date, or the last N days), and the options group. Controls report
 * a ParamValue; none of them takes free text that ends up in the formula unchecked.
 */
import type { OptionKey } from "../../functions/options";
import type { Catalogue } from "../model/catalogue-store";
import type { DateValue, OptionValues, ParamValue } from "../model/formula-builder";
import { AGGREGATION_NAMES } from "../../client/data/types";
import {
  GRANULARITY_CHOICES,
  INTERVAL_CHOICES,
  OPTION_CHOICES,
  OPTION_DEFAULTS,
  PRODUCT_FIELDS,
  PROJECT_FIELDS,
  type ParamSpec,
} from "../model/function-specs";
import { h, replaceChildren } from "../../ui/dom";
import { choiceSelect, picker } from "./picker";

export interface ControlEnv {
  catalogue: Catalogue;
  /** Chains of a project, from its detail (loaded through the engine). */
  chainsOf(projectId: string): Promise<readonly string[]>;
  /** The function being built (PROJECT and PRODUCT offer different fields). */
  fn: string;
}

export interface Control {
  element: HTMLElement;
  set(value: ParamValue | undefined): void;
  /** The project chosen elsewhere in the builder changed (products and chains follow it). */
  projectChanged?(projectId: string | undefined): void;
}

type Report = (value: ParamValue) => void;

const ids = (values: readonly string[]): ParamValue => ({ kind: "ids", ids: values });

function entityControl(param: ParamSpec, env: ControlEnv, report: Report): Control {
  const multiple = param.kind === "projects" || param.kind === "metrics";
  const p = picker({
    id: `b-${param.name}`,
    label: `${param.label}${param.optional ? " (optional)" : ""}`,
    multiple,
    noneLabel: param.optional ? "(none)" : undefined,
  });
  const c = env.catalogue;
  if (param.kind === "project" || param.kind === "projects") {
    p.setItems(
      c.projects.map((x) => ({
        id: x.projectId,
        name: x.name,
        symbol: x.symbol,
        note: x.isArchived ? "archived" : undefined,
      }))
    );
  } else if (param.kind === "metric" || param.kind === "metrics") {
    p.setItems(c.metrics.map((m) => ({ id: m.metricId, name: m.metricName })));
  } else {
    p.setItems(c.sectors.map((s) => ({ id: s.id, name: s.name })));
  }
  p.onChange((chosen) => report(ids(chosen)));
  return {
    element: p.element,
    set: (value) => p.setValue(value?.kind === "ids" ? value.ids : []),
  };
}

function choiceControl(
  param: ParamSpec,
  choices: readonly string[],
  report: Report,
  noneLabel: string
): Control & { setChoices(choices: readonly string[]): void } {
  const none = { value: "", label: noneLabel };
  const made = choiceSelect(`b-${param.name}`, param.label, [
    ...(param.optional || choices.length === 0 ? [none] : []),
    ...choices.map((c) => ({ value: c, label: c })),
  ]);
  const select = made.select;
  select.addEventListener("change", () =>
    report({ kind: "choice", value: select.value || undefined })
  );
  return {
    element: made.element,
    set: (value) => {
      select.value =
        value?.kind === "choice" && value.value ? value.value : (select.options[0]?.value ?? "");
      report({ kind: "choice", value: select.value || undefined });
    },
    setChoices: (next) => {
      replaceChildren(
        select,
        ...(param.optional || next.length === 0 ? [h("option", { value: "" }, noneLabel)] : []),
        ...next.map((c) => h("option", { value: c }, c))
      );
      report({ kind: "choice", value: select.value || undefined });
    },
  };
}

function dateControl(param: ParamSpec, report: Report): Control {
  const base = `b-${param.name}`;
  const mode = h(
    "select",
    { id: `${base}-mode`, class: "input", "aria-label": `${param.label}: how` },
    h("option", { value: "none" }, param.name === "date" ? "Latest" : "Not set"),
    h("option", { value: "fixed" }, "A date"),
    h("option", { value: "rolling" }, "The last N days (TODAY()-N)")
  );
  const date = h("input", {
    id: `${base}-date`,
    type: "date",
    class: "input",
    "aria-label": `${param.label} date`,
  });
  const days = h("input", {
    id: `${base}-days`,
    type: "number",
    class: "input",
    min: 0,
    step: 1,
    value: 365,
    "aria-label": `${param.label}: number of days back from today`,
  });
  const current = (): DateValue =>
    mode.value === "fixed"
      ? { mode: "fixed", date: date.value }
      : mode.value === "rolling"
        ? { mode: "rolling", days: Number(days.value) }
        : { mode: "none" };
  const sync = (): void => {
    date.hidden = mode.value !== "fixed";
    days.hidden = mode.value !== "rolling";
    report({ kind: "date", value: current() });
  };
  [mode, date, days].forEach((el) => el.addEventListener("input", sync));
  mode.addEventListener("change", sync);
  sync();
  return {
    element: h(
      "fieldset",
      { class: "field date-control" },
      h("legend", { class: "label" }, `${param.label}${param.optional ? " (optional)" : ""}`),
      mode,
      date,
      days
    ),
    set: (value) => {
      const v = value?.kind === "date" ? value.value : { mode: "none" as const };
      mode.value = v.mode;
      if (v.mode === "fixed") date.value = v.date;
      if (v.mode === "rolling") days.value = String(v.days);
      sync();
    },
  };
}

const OPTION_LABELS: Partial<Record<OptionKey, string>> = {
  order: "Order",
  headers: "Headers (0 none, 1 names, 2 with title)",
  period: "Period (roll-up)",
  agg: "Aggregation over the period",
  fill: "Missing days",
  breakdown: "Breakdown",
  layout: "Layout",
  values: "Values",
  chains: "Chains",
  sectors: "Sectors",
};

function optionsControl(param: ParamSpec, env: ControlEnv, report: Report): Control {
  const values: OptionValues = {};
  const emit = (): void => report({ kind: "options", options: { ...values } });
  const parts: HTMLElement[] = [];
  let chainsSelect: HTMLSelectElement | undefined;
  for (const key of param.optionKeys ?? []) {
    const id = `b-opt-${key}`;
    if (key === "bridged") {
      const box = h("input", { id, type: "checkbox", checked: true });
      box.addEventListener("change", () => {
        values.bridged = box.checked ? undefined : "false";
        emit();
      });
      parts.push(
        h("div", { class: "check" }, box, h("label", { for: id }, "Count bridged assets"))
      );
    } else if (key === "chains" || key === "sectors") {
      const select = h("select", { id, class: "input list", multiple: true, size: 4 });
      if (key === "sectors") {
        replaceChildren(
          select,
          ...env.catalogue.sectors.map((s) => h("option", { value: s.id }, s.name))
        );
      } else {
        chainsSelect = select;
      }
      select.addEventListener("change", () => {
        values[key] = [...select.selectedOptions].map((o) => o.value);
        emit();
      });
      parts.push(
        h(
          "div",
          { class: "field" },
          h("label", { for: id, class: "label" }, OPTION_LABELS[key] ?? key),
          select
        )
      );
    } else {
      const def = OPTION_DEFAULTS[key];
      const made = choiceSelect(id, OPTION_LABELS[key] ?? key, [
        { value: "", label: def ? `${def} (default)` : "(by metric)" },
        ...(OPTION_CHOICES[key] ?? [])
          .filter((c) => c !== def)
          .map((c) => ({ value: c, label: c })),
      ]);
      made.select.addEventListener("change", () => {
        values[key] = made.select.value || undefined;
        emit();
      });
      parts.push(made.element);
    }
  }
  return {
    element: h(
      "fieldset",
      { class: "field options" },
      h("legend", { class: "label" }, "Options"),
      ...parts
    ),
    set: () => emit(),
    projectChanged: (projectId) => {
      if (!chainsSelect) return;
      const select = chainsSelect;
      replaceChildren(select);
      values.chains = undefined;
      emit();
      if (projectId) {
        void env.chainsOf(projectId).then(
          (chains) => replaceChildren(select, ...chains.map((c) => h("option", { value: c }, c))),
          () => undefined
        );
      }
    },
  };
}

export function paramControl(param: ParamSpec, env: ControlEnv, report: Report): Control {
  switch (param.kind) {
    case "project":
    case "projects":
    case "metric":
    case "metrics":
    case "sector":
      return entityControl(param, env, report);
    case "date":
      return dateControl(param, report);
    case "granularity":
      return choiceControl(param, GRANULARITY_CHOICES, report, "quarter (default)");
    case "interval":
      return choiceControl(param, INTERVAL_CHOICES, report, "1y (default)");
    case "field":
      return choiceControl(
        param,
        env.fn === "PRODUCT" ? PRODUCT_FIELDS : PROJECT_FIELDS,
        report,
        "(every field)"
      );
    case "aggregation":
      return choiceControl(param, AGGREGATION_NAMES, report, "(choose)");
    case "product": {
      const control = choiceControl(param, [], report, "(choose a project first)");
      return {
        ...control,
        projectChanged: (projectId) =>
          control.setChoices(
            env.catalogue.projectById(projectId ?? "")?.products.map((x) => x.productId) ?? []
          ),
      };
    }
    case "options":
      return optionsControl(param, env, report);
  }
}
