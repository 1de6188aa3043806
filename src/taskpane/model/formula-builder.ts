/**
 * The formula builder's model: what the user picked with the controls → the formula text (as the function
 * reference writes it) and the call its live preview evaluates. Pure: the view keeps a BuilderState and
 * asks for a build on every change.
 */
import { isIsoDate } from "../../client";
import type { OptionKey } from "../../functions/options";
import {
  LIST_OPTIONS,
  OPTION_DEFAULTS,
  specFor,
  type FunctionSpec,
  type ParamSpec,
} from "./function-specs";
import { formulaText, idListArg, OMITTED, text, type FormulaArg } from "./formula-text";
import {
  columnsArg,
  MAX_COMPS_COLUMNS,
  rowProblems,
  type CompsColumnRow,
} from "./comps-column-rows";

export type DateValue =
  | { mode: "none" }
  | { mode: "fixed"; date: string }
  /** The last `days` days: TODAY()-days. */
  | { mode: "rolling"; days: number };

export type OptionValues = Partial<Record<OptionKey, string | readonly string[]>>;

export type ParamValue =
  | { kind: "ids"; ids: readonly string[] }
  | { kind: "date"; value: DateValue }
  | { kind: "choice"; value?: string }
  | { kind: "columns"; rows: readonly CompsColumnRow[] }
  | { kind: "options"; options: OptionValues };

export interface BuilderState {
  fn: string;
  /** By parameter name. */
  values: Readonly<Record<string, ParamValue>>;
  /** A series summed: `=SUM(CRYPTO.METRIC(…,"headers=0; dates=0"))`, its values only (SUMMABLE functions). */
  sum?: boolean;
}

/**
 * The functions whose values the builder can sum. Their table has a Date column, which a plain SUM of the
 * spill adds as serial numbers (45,292 for 2024-01-01): the sum leaves headings and dates out.
 */
export const SUMMABLE: readonly string[] = ["METRIC", "PRODUCT_METRIC"];
/** What summing adds to the options: no header row, no Date column. */
export const SUM_OPTIONS = "headers=0; dates=0";

/**
 * Not ready: `missing` says what is still to be chosen (guidance, never an error: nothing is wrong before
 * the user has chosen), `problems` what is wrong with what was chosen (an error).
 */
type BuildResult =
  | { ok: true; formula: string; name: string; args: FormulaArg[]; sum?: boolean }
  | { ok: false; problems: string[]; missing: string[] };

export function emptyState(fn: string): BuilderState {
  return { fn, values: {} };
}

/**
 * Where the builder starts for a function: a series with a start date starts a year back (TODAY()-365),
 * so its preview and its first insert are a bounded, recent range rather than years of daily rows.
 */
const DEFAULT_START: DateValue = { mode: "rolling", days: 365 };

export function startingState(fn: string): BuilderState {
  const spec = specFor(fn);
  const start = spec?.params.find((p) => p.name === "start" && p.kind === "date");
  return start
    ? withValue(emptyState(fn), start.name, { kind: "date", value: DEFAULT_START })
    : emptyState(fn);
}

export function withValue(state: BuilderState, param: string, value: ParamValue): BuilderState {
  return { ...state, values: { ...state.values, [param]: value } };
}

const SINGLE_IDS = new Set(["project", "metric", "product", "sector"]);
const MANY_IDS = new Set(["projects", "metrics"]);

/**
 * What the user chose, kept across the functions they pass through: ids by what they name ("ids:project",
 * whether METRIC's project or AGGREGATIONS' projects), dates by parameter name ("date:start"), and the sum.
 * Passing through a function that does not take a choice (COMPS takes no metric) does not forget it.
 */
export type Remembered = Readonly<Record<string, ParamValue | boolean>>;

const idsKey = (kind: string): string | undefined =>
  SINGLE_IDS.has(kind) || MANY_IDS.has(kind) ? `ids:${kind.replace(/s$/, "")}` : undefined;

/** The memory with this state's choices laid over it (a choice cleared here is forgotten). */
export function remember(memory: Remembered, state: BuilderState): Remembered {
  const spec = specFor(state.fn);
  if (!spec) return memory;
  const next: Record<string, ParamValue | boolean> = { ...memory };
  for (const param of spec.params) {
    const value = state.values[param.name];
    const key = idsKey(param.kind) ?? (param.kind === "date" ? `date:${param.name}` : undefined);
    if (!key) continue;
    if (value === undefined) delete next[key];
    else next[key] = value;
  }
  if (SUMMABLE.includes(spec.name)) next.sum = state.sum === true;
  return next;
}

/**
 * Another function, with what was chosen that it takes: the project (and metric, dates, sum) stay when the
 * user switches METRIC to VALUE, even by way of COMPS. A list given to a parameter of one id keeps its first
 * id; options do not carry over (each function takes its own).
 */
export function switchFunction(memory: Remembered, fn: string): BuilderState {
  let next = startingState(fn);
  const spec = specFor(fn);
  if (!spec) return next;
  for (const param of spec.params) {
    const key = idsKey(param.kind);
    const value = key
      ? memory[key]
      : param.kind === "date"
        ? memory[`date:${param.name}`]
        : undefined;
    if (typeof value !== "object") continue;
    if (key && value.kind === "ids") {
      const ids = idsOf(value);
      if (ids.length === 0) continue;
      next = withValue(next, param.name, {
        kind: "ids",
        ids: SINGLE_IDS.has(param.kind) ? ids.slice(0, 1) : ids,
      });
    } else if (!key && value.kind === "date") {
      next = withValue(next, param.name, value);
    }
  }
  return memory.sum === true && SUMMABLE.includes(fn) ? { ...next, sum: true } : next;
}

/** "key=value; key=value" in the spec's key order; defaults and empty lists are left out. */
export function optionsText(keys: readonly OptionKey[], options: OptionValues): string {
  const parts: string[] = [];
  for (const key of keys) {
    const value = options[key];
    if (value === undefined) continue;
    if (LIST_OPTIONS.includes(key)) {
      const ids = (typeof value === "string" ? [value] : value).filter((id) => id !== "");
      if (ids.length > 0) parts.push(`${key}=${ids.join(",")}`);
      continue;
    }
    const single = typeof value === "string" ? value : value[0];
    // Writing a default would only lengthen the formula.
    if (single === undefined || single === "" || single === OPTION_DEFAULTS[key]) continue;
    parts.push(`${key}=${single}`);
  }
  return parts.join("; ");
}

function idsOf(value: ParamValue | undefined): readonly string[] {
  return value?.kind === "ids" ? value.ids.filter((id) => id.trim() !== "") : [];
}

interface Findings {
  problems: string[];
  missing: string[];
  /** The values are summed (the options say headers=0; dates=0). */
  sum: boolean;
}

function argFor(param: ParamSpec, value: ParamValue | undefined, found: Findings): FormulaArg {
  const { problems } = found;
  const missing = (): FormulaArg => {
    if (!param.optional) found.missing.push(`Choose ${param.label.toLowerCase()}.`);
    return OMITTED;
  };
  switch (param.kind) {
    case "project":
    case "metric":
    case "product":
    case "sector": {
      const ids = idsOf(value);
      if (ids.length > 1) problems.push(`${param.label} takes one value.`);
      return ids.length === 0 ? missing() : text(ids[0]);
    }
    case "projects":
    case "metrics": {
      const ids = idsOf(value);
      // A comma list while it fits one text of a formula (255 characters); a column of texts past that.
      return ids.length === 0 ? missing() : idListArg(ids);
    }
    case "columns": {
      const rows = value?.kind === "columns" ? value.rows : [];
      if (rows.length === 0) {
        found.missing.push("Add a column.");
        return OMITTED;
      }
      if (rows.length > MAX_COMPS_COLUMNS) {
        problems.push(`COMPS takes at most ${MAX_COMPS_COLUMNS} columns, not ${rows.length}.`);
        return OMITTED;
      }
      const wrong = rowProblems(rows);
      // A row without its metric is still to be chosen; a metric COMPS would misread is wrong.
      for (const p of wrong) (p.unchosen ? found.missing : problems).push(p.message);
      return wrong.length > 0 ? OMITTED : columnsArg(rows);
    }
    case "date": {
      const date = value?.kind === "date" ? value.value : { mode: "none" as const };
      if (date.mode === "fixed") {
        if (!isIsoDate(date.date)) {
          // Not typed yet is still to be done; typed and not a date is wrong.
          (date.date.trim() === "" ? found.missing : problems).push(`${param.label}: pick a date.`);
          return OMITTED;
        }
        return text(date.date);
      }
      if (date.mode === "rolling") {
        if (!Number.isInteger(date.days) || date.days < 0 || date.days > 36_500) {
          problems.push(`${param.label}: the number of days must be a whole number from 0.`);
          return OMITTED;
        }
        return { kind: "today-minus", days: date.days };
      }
      return missing();
    }
    case "granularity":
    case "interval":
    case "field":
    case "aggregation": {
      const choice = value?.kind === "choice" ? value.value : undefined;
      return choice ? text(choice) : missing();
    }
    case "options": {
      const options = value?.kind === "options" ? value.options : {};
      const keys = param.optionKeys ?? [];
      // Summing: no header row and no Date column, whatever the options said of them.
      const written = found.sum
        ? [
            optionsText(
              keys.filter((k) => k !== "headers" && k !== "dates"),
              options
            ),
            SUM_OPTIONS,
          ]
            .filter((part) => part !== "")
            .join("; ")
        : optionsText(keys, options);
      return written ? text(written) : OMITTED;
    }
  }
}

/** METRIC reads several projects with one metric, or several metrics of one project: not both. */
function crossCheck(spec: FunctionSpec, state: BuilderState, problems: string[]): void {
  if (spec.name !== "METRIC") return;
  const projects = idsOf(state.values.project).length;
  const metrics = idsOf(state.values.metric).length;
  if (projects > 1 && metrics > 1) {
    problems.push(
      "METRIC takes several projects with one metric, or several metrics of one project."
    );
  }
}

function crossCheckDates(spec: FunctionSpec, state: BuilderState, problems: string[]): void {
  const start = state.values.start;
  const end = state.values.end;
  if (
    !spec.params.some((x) => x.name === "start") ||
    start?.kind !== "date" ||
    end?.kind !== "date"
  )
    return;
  if (
    start.value.mode === "fixed" &&
    end.value.mode === "fixed" &&
    start.value.date > end.value.date
  )
    problems.push("Start is after end.");
}

/** Growth rates do not add up: a sum of changes is no figure. */
function crossCheckSum(state: BuilderState, problems: string[]): void {
  const options = state.values.options;
  const values = options?.kind === "options" ? options.options.values : undefined;
  const growth = typeof values === "string" ? values : values?.[0];
  if (growth === "pop" || growth === "yoy")
    problems.push(
      `Sum the values adds figures, and changes (values=${growth}) do not add up: choose plain values, or leave the sum off.`
    );
}

export function build(state: BuilderState): BuildResult {
  const spec = specFor(state.fn);
  if (!spec) return { ok: false, problems: [`Unknown function ${state.fn}.`], missing: [] };
  const sum = state.sum === true && SUMMABLE.includes(spec.name);
  const found: Findings = { problems: [], missing: [], sum };
  const args = spec.params.map((param) => argFor(param, state.values[param.name], found));
  const { problems, missing } = found;
  crossCheck(spec, state, problems);
  crossCheckDates(spec, state, problems);
  if (sum) crossCheckSum(state, problems);
  if (problems.length > 0 || missing.length > 0) return { ok: false, problems, missing };
  const call = formulaText(spec.name, args);
  return sum
    ? { ok: true, name: spec.name, args, formula: `=SUM(${call.slice(1)})`, sum: true }
    : { ok: true, name: spec.name, args, formula: call };
}
