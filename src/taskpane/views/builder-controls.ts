/**
 * One control per builder parameter, chosen by the parameter's kind: pickers over the catalogue, dropdowns
 * of fixed choices, a date control (none, a date, or the last N days) with inline errors, and the options
 * group, folded until opened. Controls report a ParamValue; none of them takes free text that ends up in
 * the formula unchecked.
 */
import type { OptionKey } from "../../functions/options";
import type { Catalogue } from "../model/catalogue-store";
import type { DateValue, OptionValues, ParamValue } from "../model/formula-builder";
import { AGGREGATION_NAMES } from "../../client";
import {
  GRANULARITY_CHOICES,
  INTERVAL_CHOICES,
  OPTION_DEFAULTS,
  optionChoices,
  PRODUCT_FIELDS,
  PROJECT_FIELDS,
  type ParamSpec,
} from "../model/function-specs";
import { h } from "../../ui/dom";
import { checkboxField, dropdownField, textField } from "../../ui/controls";
import { accordionSection } from "../../ui/accordion";
import { picker } from "./picker";
import { compsColumnsControl } from "./comps-columns-control";
import { dateProblem, daysProblem } from "../model/field-checks";

interface ControlEnv {
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
    optional: param.optional,
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
  const list = (values: readonly string[]) => [
    ...(param.optional || values.length === 0 ? [{ value: "", label: noneLabel }] : []),
    ...values.map((c) => ({ value: c, label: c })),
  ];
  const made = dropdownField(`b-${param.name}`, param.label, list(choices));
  made.onChange((value) => report({ kind: "choice", value: value || undefined }));
  return {
    element: made.element,
    set: (value) => {
      const next =
        value?.kind === "choice" && value.value ? value.value : (list(choices)[0]?.value ?? "");
      made.setValue(next);
      report({ kind: "choice", value: next || undefined });
    },
    setChoices: (next) => {
      const first = list(next)[0]?.value ?? "";
      made.setChoices(list(next), first);
      report({ kind: "choice", value: first || undefined });
    },
  };
}

function dateControl(param: ParamSpec, report: Report): Control {
  const base = `b-${param.name}`;
  const mode = dropdownField(
    `${base}-mode`,
    `${param.label}${param.optional ? " (optional)" : ""}`,
    [
      { value: "none", label: param.name === "date" ? "Latest" : "Not set" },
      { value: "fixed", label: "A date" },
      { value: "rolling", label: "Last N days" },
    ],
    "none"
  );
  const date = textField({
    id: `${base}-date`,
    label: `${param.label} date`,
    placeholder: "YYYY-MM-DD",
    inputmode: "numeric",
    maxlength: 10,
  });
  const days = textField({
    id: `${base}-days`,
    label: `${param.label}: days back from today (TODAY()-N)`,
    inputmode: "numeric",
    maxlength: 5,
  });
  days.setValue("365");
  const current = (): DateValue =>
    mode.value() === "fixed"
      ? { mode: "fixed", date: date.value().trim() }
      : mode.value() === "rolling"
        ? { mode: "rolling", days: daysProblem(days.value()) ? NaN : Number(days.value()) }
        : { mode: "none" };
  const sync = (): void => {
    date.element.hidden = mode.value() !== "fixed";
    days.element.hidden = mode.value() !== "rolling";
    report({ kind: "date", value: current() });
  };
  /**
   * The inline error appears when the field is committed (left, or Enter), not while it is being typed;
   * it goes away as soon as the text is fixed.
   */
  const validate = (
    field: typeof date,
    problem: (text: string) => string | undefined,
    committed: boolean
  ): void => {
    const text = field.value().trim();
    const why = text === "" ? undefined : problem(text);
    if (committed || !why) field.setError(why);
  };
  for (const [field, problem] of [
    [date, dateProblem],
    [days, daysProblem],
  ] as const) {
    field.input.addEventListener("input", () => {
      validate(field, problem, false);
      sync();
    });
    field.input.addEventListener("change", () => validate(field, problem, true));
  }
  mode.onChange(sync);
  sync();
  return {
    element: h(
      "div",
      { class: "date-control stack tight" },
      mode.element,
      date.element,
      days.element
    ),
    set: (value) => {
      const v = value?.kind === "date" ? value.value : { mode: "none" as const };
      mode.setValue(v.mode);
      if (v.mode === "fixed") date.setValue(v.date);
      if (v.mode === "rolling") days.setValue(String(v.days));
      sync();
    },
  };
}

const OPTION_LABELS: Partial<Record<OptionKey, string>> = {
  order: "Order",
  headers: "Header rows",
  period: "Period (roll-up)",
  partial: "Incomplete periods",
  rows: "Rows",
  agg: "Aggregation over the period",
  fill: "Missing days",
  breakdown: "Breakdown",
  layout: "Layout",
  values: "Values",
  chains: "Chains",
  sectors: "Sectors",
};

/**
 * Each choice in words; the formula keeps the option's own value (`order=desc`), which the reference lists.
 * A value missing here is shown as written.
 */
const CHOICE_WORDS: Partial<Record<OptionKey, Readonly<Record<string, string>>>> = {
  order: { asc: "Oldest first", desc: "Newest first" },
  headers: { "0": "None", "1": "Column names", "2": "Column names, project names above" },
  period: { day: "Day", week: "Week", month: "Month", quarter: "Quarter", year: "Year" },
  partial: { exclude: "Left out (#N/A with the days)", include: "Shown with the days there are" },
  values: {
    value: "Values",
    pop: "Change on the previous period",
    yoy: "Change on a year earlier (YoY)",
    coverage: "Days with data",
  },
  fill: { none: "Left empty", previous: "The last value (levels)", zero: "Zero (flows)" },
  agg: { sum: "Sum", avg: "Average", last: "Last", first: "First", min: "Minimum", max: "Maximum" },
  layout: { wide: "Wide (periods across)", long: "Long (a row per figure)" },
  rows: { standard: "The standard template", service: "The service's own rows" },
  breakdown: { chain: "By chain", product_id: "By product" },
};

const wordsFor = (key: OptionKey, value: string): string => CHOICE_WORDS[key]?.[value] ?? value;

function optionsControl(param: ParamSpec, env: ControlEnv, report: Report): Control {
  const values: OptionValues = {};
  const parts: HTMLElement[] = [];
  let chains: ReturnType<typeof picker> | undefined;
  const group = h("div", { class: "stack options", role: "group", "aria-label": "Options" });
  // Folded until opened, as Fluent folds a form's advanced part: an accordion item like every other.
  const folded = accordionSection({
    id: "b-options",
    heading: "Options (defaults)",
    level: 3,
    content: group,
  });
  const emit = (): void => {
    const set = Object.values(values).filter((v) =>
      Array.isArray(v) ? v.length > 0 : v !== undefined
    ).length;
    folded.setHeading(set === 0 ? "Options (defaults)" : `Options (${set} set)`);
    report({ kind: "options", options: { ...values } });
  };
  for (const key of param.optionKeys ?? []) {
    const id = `b-opt-${key}`;
    if (key === "bridged") {
      const box = checkboxField(id, "Count bridged assets", true);
      box.onChange((checked) => {
        values.bridged = checked ? undefined : "false";
        emit();
      });
      parts.push(box.element);
    } else if (key === "chains" || key === "sectors") {
      const p = picker({ id, label: OPTION_LABELS[key] ?? key, multiple: true });
      if (key === "sectors")
        p.setItems(env.catalogue.sectors.map((s) => ({ id: s.id, name: s.name })));
      else chains = p;
      p.onChange((chosen) => {
        values[key] = chosen;
        emit();
      });
      parts.push(p.element);
    } else {
      const def = OPTION_DEFAULTS[key];
      const made = dropdownField(
        id,
        OPTION_LABELS[key] ?? key,
        [
          { value: "", label: def ? `${wordsFor(key, def)} (default)` : "By the metric (default)" },
          // Exactly what this function takes: the functions' own table (METRIC takes no values=coverage).
          ...(optionChoices(env.fn, key) ?? [])
            .filter((c) => c !== def)
            .map((c) => ({ value: c, label: wordsFor(key, c) })),
        ],
        ""
      );
      made.onChange((value) => {
        values[key] = value || undefined;
        emit();
      });
      parts.push(made.element);
    }
  }
  group.replaceChildren(...parts);
  // A function whose one option the builder does not offer (AGGREGATION's vintage=): no empty fold.
  if (parts.length === 0) return { element: h("div", { hidden: true }), set: () => emit() };
  return {
    element: h("div", { class: "field options-control" }, folded.element),
    set: () => emit(),
    projectChanged: (projectId) => {
      if (!chains) return;
      const p = chains;
      p.setItems([]);
      values.chains = undefined;
      emit();
      if (projectId) {
        void env.chainsOf(projectId).then(
          (list) => p.setItems(list.map((c) => ({ id: c, name: c }))),
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
    case "columns":
      return compsColumnsControl(param, env.catalogue, report);
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
