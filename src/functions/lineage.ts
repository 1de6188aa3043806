/**
 * Lineage of a figure: where a formula's values came from, written beside a frozen model (Freeze's lineage
 * sheet) and with the CLI's json results. For each formula: its text, the vintage its values were known at
 * (`vintage=` of that instant re-derives them: src/engine/ledger), the service or team gateway that answered
 * (its address, never a key), and for every project and metric it reads, the definition and the source the
 * service gives (`metric_definitions`, `metric_sources` of the project's, or product's, detail).
 *
 * The projects and metrics come from the formula's arguments as its function's registry names their kinds
 * (a project, a list of them, a metric, COMPS's columns…), resolved against the catalogues as the function
 * resolved them. What cannot be resolved (an argument from a cell the record does not hold, an unknown id) is
 * said in the row, never guessed.
 */
import { messageOf } from "../client";
import type { Engine } from "../engine";
import type { Argument, FormulaCall } from "../sheet/formula";
import { parseColumns } from "./impl/comps-columns";
import { specFor, type ParamKind } from "./registry";

/** A formula to trace: its text, the cell it is in (its diagnostics record), and its arguments. */
export interface LineageFormula {
  /** Where the values are, e.g. "Sheet1!A1:D9" (a spill), or the CLI's "model.txt:3". */
  range: string;
  /** The formula as written. */
  formula: string;
  functionName: string;
  /** Its arguments by the registry's parameter names, as the call received them. */
  args: Readonly<Record<string, unknown>>;
  /**
   * When its values were computed (the diagnostics record's time): they were all known then. Undefined when
   * this session did not compute them (a workbook opened with its values): their vintage is not known.
   */
  computedAt?: number;
}

/** One project and metric a formula reads, with what the service says of it. */
export interface LineageMetric {
  projectId: string;
  productId?: string;
  metricId: string;
  /** The service's definition of the metric for the project (metric_definitions); undefined: none given. */
  definition?: string;
  /** The service's source of it (metric_sources); undefined: none given. */
  source?: string;
  /** Why nothing could be said of it (an id not resolved, a detail not read). */
  problem?: string;
}

export interface Lineage {
  range: string;
  formula: string;
  /**
   * The instant its values were known at, ISO with Z, rounded up to the second: vintage= takes it. "" when not
   * known (see `note`).
   */
  vintage: string;
  /** The service's (or team gateway's) address. */
  service: string;
  via: "service" | "team gateway";
  metrics: LineageMetric[];
  /** What the reader of the row should know (a vintage not known, and why). */
  note?: string;
}

/** Said of a formula this session did not compute. */
export const UNKNOWN_VINTAGE =
  "its values were computed before this session: when they were known is not recorded (recalculate, then freeze, to record it)";

export interface LineageSource {
  engine: Pick<Engine, "resolveProject" | "resolveMetric" | "project" | "product">;
  /** The address the runtime calls: the service, or the team's gateway. */
  baseUrl: string;
  via: "service" | "team gateway";
}

/**
 * The address as a lineage row shows it: scheme, host, port and path only. A user name, password, query or
 * fragment in the configured address (`https://user:secret@host/?key=…`) could carry a credential, and a
 * lineage sheet or a json file travels with the model: they are never written.
 */
export function serviceAddress(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return "(an address that is not a URL)";
  }
  return `${url.protocol}//${url.host}${url.pathname === "/" ? "" : url.pathname}`;
}

/** A literal argument's value as a function receives it; undefined for one computed or left out. */
function literalValue(arg: Argument | undefined): unknown {
  if (!arg || arg.kind === "omitted" || arg.kind === "expression") return undefined;
  if (arg.kind === "array") return arg.rows.map((row) => row.map((cell) => cell.value));
  return arg.value;
}

/**
 * What a call's text says of it, for a formula without a diagnostics record (a range Freeze did not see
 * computed, a CLI line): its function and its literal arguments by the registry's parameter names.
 * `computed` names the project, product or metric parameters given by an expression, whose values the text
 * does not hold (the row says so rather than guessing); a nested call as the whole argument is not one: its
 * own arguments name what it reads (`VALUE(CRYPTO.PROJECT("aave"),"tvl")` reads aave).
 */
export function callArguments(call: FormulaCall): {
  functionName: string;
  args: Record<string, unknown>;
  computed: string[];
} {
  const spec = specFor(call.name);
  const args: Record<string, unknown> = {};
  const computed: string[] = [];
  spec?.params.forEach((p, i) => {
    const arg = call.args[i];
    const value = literalValue(arg);
    if (value !== undefined) args[p.name] = value;
    else if (arg?.kind === "expression" && arg.expression.kind === "crypto") {
      // A nested call as the project (or metric): what it names of that kind, e.g. PROJECT("aave")'s aave.
      const named = namesOfKind(arg.expression.call, p.kind);
      if (named.length > 0) args[p.name] = named;
    } else if (computedArgument(arg) && NAMING_KINDS.has(p.kind)) computed.push(p.name);
  });
  return { functionName: spec?.name ?? call.name, args, computed };
}

/** The kinds a value of `kind` can come from: a project from a project or a list of them, and so on. */
const SAME_KIND: Partial<Record<ParamKind, readonly ParamKind[]>> = {
  project: ["project", "projects"],
  projects: ["project", "projects"],
  metric: ["metric", "metrics"],
  metrics: ["metric", "metrics"],
  product: ["product"],
};

/** The texts a call's literal arguments give for parameters of `kind`'s family. */
function namesOfKind(call: FormulaCall, kind: ParamKind): string[] {
  const family = SAME_KIND[kind];
  if (!family) return [];
  const { args } = callArguments(call);
  return (specFor(call.name)?.params ?? [])
    .filter((p) => family.includes(p.kind))
    .flatMap((p) => texts(args[p.name]));
}

function computedArgument(arg: Argument | undefined): boolean {
  return arg?.kind === "expression" && arg.expression.kind !== "crypto";
}

/** The parameter kinds whose values name what a formula reads. */
const NAMING_KINDS: ReadonlySet<ParamKind> = new Set([
  "project",
  "projects",
  "product",
  "metric",
  "metrics",
  "columns",
]);

/** Every text inside an argument (a cell range arrives as rows of cells), each comma list split. */
function texts(value: unknown): string[] {
  if (typeof value === "string")
    return value
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean);
  if (Array.isArray(value)) return value.flatMap(texts);
  return [];
}

/** At most this many project × metric pairs per formula: a lineage row, not a catalogue. */
const MAX_LINEAGE_PAIRS = 200;

/** The texts of a formula's projects, products and metrics, by its parameters' kinds. */
function namedArgs(f: LineageFormula): {
  projects: string[];
  products: string[];
  metrics: string[];
} {
  const out = { projects: [] as string[], products: [] as string[], metrics: [] as string[] };
  const spec = specFor(f.functionName);
  const into: Partial<Record<ParamKind, string[]>> = {
    project: out.projects,
    projects: out.projects,
    product: out.products,
    metric: out.metrics,
    metrics: out.metrics,
  };
  for (const param of spec?.params ?? []) {
    const value = f.args[param.name];
    if (param.kind === "columns") {
      try {
        for (const column of parseColumns(texts(value))) {
          out.metrics.push(column.numerator.metric);
          if (column.denominator) out.metrics.push(column.denominator.metric);
        }
      } catch {
        // A column the function refused: it shows as the cell's error, and names no metric here.
      }
      continue;
    }
    const list = into[param.kind];
    if (list) for (const t of texts(value)) if (!list.includes(t)) list.push(t);
  }
  return out;
}

/** The instant values computed at `at` were known at, as vintage= writes it: up to the next whole second. */
export function vintageOf(at: number): string {
  return new Date(Math.ceil(at / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

/** The lineage of each formula; never rejects (what cannot be read is said in its row). */
export async function lineageOf(
  source: LineageSource,
  formulas: readonly LineageFormula[]
): Promise<Lineage[]> {
  const { engine } = source;
  return Promise.all(
    formulas.map(async (f) => {
      const named = namedArgs(f);
      const metrics: LineageMetric[] = [];
      const resolvedMetrics = await Promise.all(
        named.metrics.map(async (text) => {
          try {
            return { text, id: (await engine.resolveMetric(text)).metricId };
          } catch (error) {
            return { text, problem: messageOf(error) };
          }
        })
      );
      for (const projectText of named.projects) {
        let projectId: string;
        try {
          projectId = (await engine.resolveProject(projectText)).projectId;
        } catch (error) {
          metrics.push({ projectId: projectText, metricId: "", problem: messageOf(error) });
          continue;
        }
        const details = named.products.length > 0 ? named.products : [undefined];
        for (const productId of details) {
          let definitions: { metricId: string; definition: string }[] = [];
          let sources: { metricId: string; definition: string }[] = [];
          let problem: string | undefined;
          try {
            const detail = productId
              ? (await engine.product(projectId, productId)).value
              : (await engine.project(projectId)).value;
            definitions = [...detail.metricDefinitions];
            sources = [...detail.metricSources];
          } catch (error) {
            problem = `its detail could not be read: ${messageOf(error)}`;
          }
          for (const m of resolvedMetrics) {
            if (metrics.length >= MAX_LINEAGE_PAIRS) break;
            if (m.id === undefined) {
              metrics.push({
                projectId,
                ...(productId ? { productId } : {}),
                metricId: m.text,
                problem: m.problem,
              });
              continue;
            }
            const definition = definitions.find((d) => d.metricId === m.id)?.definition;
            const from = sources.find((d) => d.metricId === m.id)?.definition;
            metrics.push({
              projectId,
              ...(productId ? { productId } : {}),
              metricId: m.id,
              ...(definition !== undefined ? { definition } : {}),
              ...(from !== undefined ? { source: from } : {}),
              ...(problem ? { problem } : {}),
            });
          }
        }
      }
      return {
        range: f.range,
        formula: f.formula,
        vintage: f.computedAt === undefined ? "" : vintageOf(f.computedAt),
        service: serviceAddress(source.baseUrl),
        via: source.via,
        metrics,
        ...(f.computedAt === undefined ? { note: UNKNOWN_VINTAGE } : {}),
      };
    })
  );
}
