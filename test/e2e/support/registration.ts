/**
 * The custom functions registered the way Excel's shared runtime registers them. Excel provides
 * `CustomFunctions` before the page's scripts run and learns the id → function map from the
 * `CustomFunctions.associate` calls the build appends to the functions bundle; it then calls a cell's
 * function by id with Excel's arguments (null for omitted ones, 2-D arrays for range parameters) and an
 * invocation object. The stand-in below does the same in Chromium and records every association, so a test
 * can hold what Excel would see to functions.json and to the command-line evaluator.
 */
import { execFile } from "child_process";
import { promisify } from "util";
import type { Page } from "playwright-core";
import { coerce, prepareArguments } from "../../../src/sheet/arguments";
import { isErrorCell, toGrid } from "../../../src/sheet/cells";
import { computeArguments, systemClock } from "../../../src/sheet/expressions";
import { parseFormula } from "../../../src/sheet/formula";
import type { ParameterMeta } from "../../../src/sheet/registry";
import { jsonCell, type JsonCell } from "../../../src/cli/output/json";
import { ROOT } from "./build";
import { builtCli } from "../../support/node-build";

const execFileAsync = promisify(execFile);

/** One formula per function, each with a result that is data (not an error) on the simulator. */
export const ONE_FORMULA_PER_FUNCTION: Readonly<Record<string, string>> = {
  VALUE: '=CRYPTO.VALUE("aave","revenue","2024-03-31")',
  ASOF: '=CRYPTO.ASOF("aave","tvl","2024-03-31")',
  COMPS: '=CRYPTO.COMPS("aave,uniswap","revenue:ttm, fees:30d","2024-03-31")',
  METRIC: '=CRYPTO.METRIC("aave","fees,revenue","2024-01-01","2024-01-10")',
  STATEMENT: '=CRYPTO.STATEMENT("aave","year","max","layout=long")',
  PROJECTS: '=CRYPTO.PROJECTS("sectors=lending")',
  PROJECT: '=CRYPTO.PROJECT("aave","chains")',
  PRODUCT: '=CRYPTO.PRODUCT("aave","aave-v3")',
  PRODUCT_METRIC: '=CRYPTO.PRODUCT_METRIC("aave","aave-v3","fees","2024-01-01","2024-01-05")',
  METRICS: '=CRYPTO.METRICS("aave")',
  SECTORS: "=CRYPTO.SECTORS()",
  SECTOR: '=CRYPTO.SECTOR("lending")',
  AGGREGATION: '=CRYPTO.AGGREGATION("aave","revenue","ath")',
  AGGREGATIONS: '=CRYPTO.AGGREGATIONS("aave,uniswap","fees")',
  BREAKDOWN: '=CRYPTO.BREAKDOWN("fees","aave,uniswap,gmx","2024-01-01","2024-03-31")',
  CHANGES: '=CRYPTO.CHANGES("aave","fees,revenue")',
};

interface FunctionMeta {
  id: string;
  name: string;
  parameters: ParameterMeta[];
  options?: { requiresAddress?: boolean };
}

interface RecordingWindow {
  __associations?: { id: string }[];
  __associated?: Record<string, (...args: unknown[]) => unknown>;
}

/**
 * Before any page script: a `CustomFunctions` like Excel's, whose `associate` records each call (both forms,
 * `associate(id, fn)` and `associate({id: fn})`) and then hands it on to whatever office.js installs (office.js
 * keeps the global it finds and sets its own `associate` on it).
 */
export async function installExcelRegistration(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as RecordingWindow & { CustomFunctions?: unknown };
    const associations: { id: string }[] = [];
    const associated: Record<string, (...args: unknown[]) => unknown> = {};
    w.__associations = associations;
    w.__associated = associated;
    let handOn: ((...args: unknown[]) => void) | undefined;
    const record = (id: unknown, fn: unknown): void => {
      associations.push({ id: String(id) });
      if (typeof fn === "function") associated[String(id).toUpperCase()] = fn as never;
    };
    class ExcelError extends Error {
      constructor(
        readonly code: string,
        message?: string
      ) {
        super(message ?? "");
      }
    }
    const host = {
      Error: ExcelError,
      ErrorCode: {
        invalidValue: "#VALUE!",
        notAvailable: "#N/A",
        divisionByZero: "#DIV/0!",
        invalidNumber: "#NUM!",
        nullReference: "#NULL!",
        invalidName: "#NAME?",
        invalidReference: "#REF!",
      },
    };
    Object.defineProperty(host, "associate", {
      enumerable: true,
      get:
        () =>
        (...args: unknown[]): void => {
          if (typeof args[0] === "string") record(args[0], args[1]);
          else if (args[0] && typeof args[0] === "object")
            for (const [id, fn] of Object.entries(args[0])) record(id, fn);
          handOn?.(...args);
        },
      set: (fn: (...args: unknown[]) => void) => (handOn = fn),
    });
    w.CustomFunctions = host;
  });
}

/** The ids in the order they were associated, repeats included. */
export function associatedIds(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    ((window as unknown as RecordingWindow).__associations ?? []).map((a) => a.id)
  );
}

/** The ids functions.json declares, as Excel reads them. */
export async function declaredFunctions(page: Page, pageUrl: string): Promise<FunctionMeta[]> {
  const url = new URL("functions.json", pageUrl).href;
  const json = (await page.evaluate(
    async (u): Promise<unknown> => (await fetch(u, { cache: "no-store" })).json(),
    url
  )) as { functions: FunctionMeta[] };
  return json.functions;
}

/**
 * Calls the associated function for `formula` as Excel calls it from a cell: arguments prepared from the
 * metadata as Excel prepares them (the same preparation the CLI uses), the invocation object last, the
 * result awaited in the page. A thrown CustomFunctions.Error comes back as its code and message.
 */
export async function callAsExcel(
  page: Page,
  metadata: readonly FunctionMeta[],
  formula: string
): Promise<JsonCell[][]> {
  const call = parseFormula(formula);
  const meta = metadata.find((f) => f.id === call.name.toUpperCase());
  if (!meta) throw new Error(`${formula}: no function ${call.name} in functions.json`);
  const label = `CRYPTO.${meta.name}`;
  const computed = computeArguments(call.args, systemClock());
  if (!computed.ok) throw new Error(`${formula}: ${computed.error.message}`);
  const args = prepareArguments(computed.args, meta.parameters).map((prepared, i) => {
    if (prepared.kind !== "fixed") throw new Error(`${formula}: lifted calls are not used here`);
    const value = prepared.value;
    if (Array.isArray(value) || value === null) return value;
    const coerced = coerce(value, meta.parameters[i], label);
    if (isErrorCell(coerced)) throw new Error(`${formula}: ${coerced.message}`);
    return coerced;
  });
  const invocation: Record<string, string> = { functionName: meta.id };
  if (meta.options?.requiresAddress) invocation.address = "Sheet1!A1";
  const raw = await page.evaluate(
    async ({ id, args, invocation }) => {
      const serialise = (value: unknown): unknown =>
        Array.isArray(value)
          ? value.map(serialise)
          : value instanceof Error
            ? { code: (value as Error & { code?: unknown }).code, message: value.message }
            : value;
      const fn = (window as unknown as RecordingWindow).__associated?.[id];
      if (!fn) return { thrown: { code: "#NAME?", message: `${id} was never associated` } };
      try {
        return { value: serialise(await fn(...args, invocation)) };
      } catch (thrown) {
        return { thrown: serialise(thrown) };
      }
    },
    { id: meta.id, args, invocation }
  );
  const value = "thrown" in raw ? raw.thrown : raw.value;
  return toGrid(value).map((row) => row.map(jsonCell));
}

/** The built command-line evaluator (dist/node/cli/main.js) as a user runs it: one JSON grid per formula. */
export async function cliResults(
  formulas: readonly string[],
  service: { baseUrl: string; apiKey: string; extraCaFile?: string }
): Promise<JsonCell[][][]> {
  const main = await builtCli();
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.CRYPTOMETRICS_BASE_URL;
  delete env.CRYPTOMETRICS_API_KEY;
  if (service.extraCaFile) env.NODE_EXTRA_CA_CERTS = service.extraCaFile;
  const { stdout } = await execFileAsync(
    process.execPath,
    [
      main,
      "eval",
      "--format",
      "json",
      "--base-url",
      service.baseUrl,
      "--api-key",
      service.apiKey,
      ...formulas,
    ],
    { cwd: ROOT, env, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 }
  ).catch((error: { stdout?: string; stderr?: string; code?: number }) => {
    // Exit code 1 (a formula whose whole result is an error) still prints every result.
    if (error.code === 1 && error.stdout) return { stdout: error.stdout };
    throw new Error(`the CLI failed (${error.code}): ${error.stderr ?? ""}`);
  });
  return JSON.parse(stdout) as JsonCell[][][];
}
