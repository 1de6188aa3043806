/**
 * Calling bound formulas the way Excel's custom-functions runtime does, as ONE recalculation: every call
 * (every element of a lifted call too) is made synchronously before any result is awaited, so the engine
 * beneath sees them together and can batch them. Evaluation never rejects: whatever a function does, the
 * formula gets a grid of cells.
 */
import { coerce, HostValue, PreparedArgument, prepareArguments } from "./arguments";
import { BoundFormula } from "./bind";
import { Cell, errorCell, Grid, isErrorCell, thrownToCell, toGrid, toLiftedCell } from "./cells";
import type { ExcelFunctionContext } from "./excel-functions";
import { computeArguments, systemClock, type SheetClock } from "./expressions";
import { EXPRESSION_ROOT, type Argument } from "./formula";
import {
  expressionFormula,
  fieldValueFormula,
  hasDeferred,
  resolveArguments,
  type NestedEnvironment,
  type ReferenceReader,
} from "./nested";
import { ERROR_CODES } from "./host";
import { NAMESPACE, RegisteredFunction } from "./registry";

/** What the host passes as the last argument (CustomFunctions.Invocation and its cancelable/streaming kin). */
interface HostInvocation {
  functionName: string;
  /** Only when the function asked for it (requiresAddress), as in Excel. */
  address?: string;
  /** Set by a cancelable or streaming function; the host calls it when the calculation is abandoned. */
  onCanceled?: () => void;
  /** Streaming functions only: the first value set is the result. */
  setResult?: (value: unknown) => void;
  /**
   * Excel's `isInValuePreview` (CustomFunctionsRuntime 1.5): true while the formula is still being typed
   * and Excel shows its value as a preview. Set only when the recalculation is one (see RecalculationOptions):
   * a host that never previews leaves it out, as Excel before 1.5 does.
   */
  isInValuePreview?: boolean;
}

/** How a host runs one recalculation. */
interface RecalculationOptions {
  /** Reads the formulas' cell references (the preview page's sheet). */
  read?: ReferenceReader;
  /** Every call is a value preview (a formula being typed): its invocation says so, as Excel's does. */
  preview?: boolean;
}

interface Recalculation {
  /** One grid per formula, in input order; never rejects. */
  results: Promise<Grid[]>;
  /** Abandon the calculation: every cancelable or streaming call still running gets its onCanceled. */
  cancel(): void;
}

interface CallSite {
  fn: RegisteredFunction;
  label: string;
  address: string;
  /** Handlers to run if the whole recalculation is cancelled; a settled call removes its own. */
  cancellers: Set<() => void>;
  preview: boolean;
}

function invocationFor(site: CallSite): HostInvocation {
  const invocation: HostInvocation = { functionName: site.fn.meta.name };
  if (site.fn.meta.options?.requiresAddress) invocation.address = site.address;
  if (site.preview) invocation.isInValuePreview = true;
  return invocation;
}

/** Call once; settle with whatever the function returned, or reject with what it threw. */
function callOnce(site: CallSite, args: readonly unknown[]): Promise<unknown> {
  const invocation = invocationFor(site);
  const options = site.fn.meta.options ?? {};
  let cancelled = false;
  const cancel = (): void => {
    if (cancelled) return;
    cancelled = true;
    site.cancellers.delete(cancel);
    invocation.onCanceled?.();
  };
  if (options.cancelable || options.stream) site.cancellers.add(cancel);
  // A call that has finished is no longer Excel's to cancel.
  const finished = (): void => void site.cancellers.delete(cancel);
  return new Promise<unknown>((resolve, reject) => {
    if (options.stream) {
      // A one-shot host: the first value a stream sets is the answer; then the stream is told to stop
      // (after the current job, so a function that sets onCanceled after its first value still hears it).
      invocation.setResult = (value) => {
        resolve(value);
        queueMicrotask(cancel);
      };
    }
    try {
      const returned = site.fn.implementation(...args, invocation);
      if (!options.stream) {
        const settled = Promise.resolve(returned);
        settled.then(finished, finished);
        resolve(settled);
      }
    } catch (thrown) {
      finished();
      reject(thrown);
    }
  });
}

async function callForCell(
  site: CallSite,
  args: readonly unknown[],
  lifted: boolean
): Promise<Grid> {
  try {
    const value = await callOnce(site, args);
    return lifted ? [[toLiftedCell(value)]] : toGrid(value);
  } catch (thrown) {
    return [[thrownToCell(thrown, site.label)]];
  }
}

type Resolved = { ok: true; values: unknown[] } | { ok: false; error: Cell };

/** Coerce each scalar argument to its parameter's type; the first refusal is the call's result. */
function resolveScalars(values: readonly (HostValue | HostValue[][])[], site: CallSite): Resolved {
  const out: unknown[] = [];
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    const parameter = site.fn.meta.parameters[i];
    if (Array.isArray(value) || parameter.dimensionality === "matrix") {
      out.push(value);
      continue;
    }
    const coerced = coerce(value, parameter, site.label);
    if (isErrorCell(coerced)) return { ok: false, error: coerced };
    out.push(coerced);
  }
  return { ok: true, values: out };
}

const MISSING = Symbol("missing");

/**
 * Excel's broadcasting of array arguments in a lifted call: the result is as tall as the tallest array and
 * as wide as the widest; a single row or column repeats; positions beyond a larger array's edge are #N/A.
 */
function pick(rows: HostValue[][], r: number, c: number): HostValue | typeof MISSING {
  const row = rows.length === 1 ? rows[0] : rows[r];
  if (row === undefined) return MISSING;
  const value = row.length === 1 ? row[0] : row[c];
  return value === undefined ? MISSING : value;
}

/** What every formula of one recalculation shares. */
interface Run {
  cancellers: Set<() => void>;
  clock: ExcelFunctionContext;
  read?: ReferenceReader;
  preview: boolean;
}

/**
 * A formula's nested calls, references and fields first (every nested call started now, with the
 * others of this recalculation), then its own call; a formula without any goes straight to its call.
 */
function startFormula(bound: BoundFormula, run: Run): Promise<Grid> {
  const args = bound.call.args;
  if (!bound.call.builtin && !hasDeferred(args)) return callFormula(bound, args, run);
  const env: NestedEnvironment = {
    start: (call) => {
      const nested = bound.nested?.get(call);
      if (!nested) {
        return Promise.resolve([
          [errorCell(ERROR_CODES.invalidName, `${NAMESPACE}.${call.name} was not bound`)],
        ]);
      }
      // A nested call sits in its formula's cell.
      return startFormula({ ...nested, row: bound.row, address: bound.address }, run);
    },
    read: run.read,
    clock: run.clock,
  };
  if (bound.call.builtin)
    return bound.call.builtin.name === EXPRESSION_ROOT
      ? expressionFormula(args, env)
      : fieldValueFormula(args, env);
  return resolveArguments(args, env).then((resolved) => callFormula(bound, resolved, run));
}

function callFormula(bound: BoundFormula, args: readonly Argument[], run: Run): Promise<Grid> {
  const { cancellers, clock } = run;
  const site: CallSite = {
    fn: bound.fn,
    label: `${NAMESPACE}.${bound.fn.meta.name}`,
    address: bound.address ?? `Sheet1!A${bound.row}`,
    cancellers,
    preview: run.preview,
  };
  const computed = computeArguments(args, clock);
  if (!computed.ok) return Promise.resolve([[computed.error]]);
  const prepared = prepareArguments(computed.args, bound.fn.meta.parameters);
  const lifted = prepared.filter(
    (p): p is Extract<PreparedArgument, { kind: "lifted" }> => p.kind === "lifted"
  );
  if (lifted.length === 0) {
    const resolved = resolveScalars(
      prepared.map((p) => (p.kind === "fixed" ? p.value : null)),
      site
    );
    return resolved.ok
      ? callForCell(site, resolved.values, false)
      : Promise.resolve([[resolved.error]]);
  }
  const height = lifted.reduce((n, p) => Math.max(n, p.rows.length), 0);
  const width = lifted.reduce((n, p) => Math.max(n, p.rows[0].length), 0);
  const cells: Promise<Cell>[][] = [];
  for (let r = 0; r < height; r += 1) {
    const row: Promise<Cell>[] = [];
    for (let c = 0; c < width; c += 1) {
      const values = prepared.map((p) => (p.kind === "fixed" ? p.value : pick(p.rows, r, c)));
      if (values.includes(MISSING)) {
        row.push(
          Promise.resolve(errorCell(ERROR_CODES.notAvailable, "array arguments of different sizes"))
        );
        continue;
      }
      const resolved = resolveScalars(values as (HostValue | HostValue[][])[], site);
      row.push(
        resolved.ok
          ? callForCell(site, resolved.values, true).then((grid) => grid[0][0])
          : Promise.resolve(resolved.error)
      );
    }
    cells.push(row);
  }
  return Promise.all(cells.map((row) => Promise.all(row)));
}

/**
 * Start every formula now (one recalculation) and collect their grids in input order. The clock is read
 * once: every TODAY() and NOW() of one recalculation gives the same moment, as in Excel.
 */
export function recalculate(
  formulas: readonly BoundFormula[],
  clock: SheetClock = systemClock,
  options: RecalculationOptions = {}
): Recalculation {
  const cancellers = new Set<() => void>();
  const run: Run = {
    cancellers,
    clock: clock(),
    read: options.read,
    preview: options.preview === true,
  };
  const results = Promise.all(formulas.map((formula) => startFormula(formula, run)));
  return {
    results,
    cancel: () => {
      const pending = [...cancellers];
      cancellers.clear();
      for (const cancel of pending) {
        try {
          cancel();
        } catch {
          // One function's failing cancel handler must not keep the others from hearing about it.
        }
      }
    },
  };
}
