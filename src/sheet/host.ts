/**
 * The Office host boundary outside Excel: the little of Excel's custom-functions runtime that the functions
 * layer touches (`CustomFunctions.Error`, `CustomFunctions.ErrorCode`, `associate`), plus the flag that
 * tells it which host it runs in. Installed on globalThis before the functions module is loaded, and only
 * where nothing is there already (inside Excel, or in a test that brings its own, we stay out of the way).
 *
 * The host flag, `globalThis.__CM_HOST__`, is the documented contract with src/functions, e.g.
 *   { name: "cli", formattedNumbers: true, entities: true }   (src/cli/host.ts; "browser": browser-host.ts)
 * `formattedNumbers: true` means the host understands `{ type: "Double", basicValue, numberFormat }` cells
 * (dates come back as real dates instead of bare serials); `entities: true` that it takes entity values
 * (`Excel.EntityCellValue`, data-type cards), so PROJECT without a field returns a card, not a table.
 */

export const ERROR_CODES = {
  invalidValue: "#VALUE!",
  notAvailable: "#N/A",
  divisionByZero: "#DIV/0!",
  invalidNumber: "#NUM!",
  nullReference: "#NULL!",
  invalidName: "#NAME?",
  invalidReference: "#REF!",
} as const;

type ErrorCodeName = keyof typeof ERROR_CODES;
type ErrorCodeValue = (typeof ERROR_CODES)[ErrorCodeName];

const CODE_VALUES: ReadonlySet<string> = new Set(Object.values(ERROR_CODES));

export function isErrorCode(value: unknown): value is ErrorCodeValue {
  return typeof value === "string" && CODE_VALUES.has(value);
}

/** Same shape as @types/custom-functions-runtime's CustomFunctions.Error: `code`, optional `message`. */
export class HostFunctionError extends Error {
  readonly code: ErrorCodeValue;

  constructor(code: ErrorCodeValue, message?: string) {
    // An error cell's value, not a failure to debug: no stack trace (capturing one per #N/A cell cost more
    // than the cell's cached look-up). Excel's own CustomFunctions.Error is unaffected.
    const limit = Error.stackTraceLimit;
    if (typeof limit === "number") Error.stackTraceLimit = 0;
    super(message ?? "");
    if (typeof limit === "number") Error.stackTraceLimit = limit;
    this.name = "CustomFunctions.Error";
    this.code = code;
  }
}

export interface HostInfo {
  name: string;
  formattedNumbers: boolean;
  entities: boolean;
}

export interface CustomFunctionsShim {
  Error: typeof HostFunctionError;
  ErrorCode: typeof ERROR_CODES;
  /** Excel maps metadata ids to functions this way; hosts outside Excel read functions.meta.json instead. */
  associate: (idOrMappings: string | Record<string, unknown>, fn?: unknown) => void;
}

interface HostGlobals {
  CustomFunctions?: unknown;
  __CM_HOST__?: HostInfo;
}

export function createCustomFunctionsShim(): CustomFunctionsShim {
  return {
    Error: HostFunctionError,
    ErrorCode: ERROR_CODES,
    associate: () => undefined,
  };
}

/** Install the CustomFunctions shim unless one exists; returns whether it installed one. */
export function installCustomFunctions(target: object = globalThis): boolean {
  const host = target as HostGlobals;
  if (host.CustomFunctions !== undefined) return false;
  host.CustomFunctions = createCustomFunctionsShim();
  return true;
}

/** Tell the functions layer which host it runs under (a copy: no caller can change the host's constant). */
export function declareHost(info: Readonly<HostInfo>, target: object = globalThis): void {
  (target as HostGlobals).__CM_HOST__ = { ...info };
}

/** Everything the functions layer expects from its host; call before loading the functions module. */
export function installHost(info: Readonly<HostInfo>, target: object = globalThis): void {
  installCustomFunctions(target);
  declareHost(info, target);
}

/**
 * A current Excel with the add-in loaded, for the harnesses that stand for it in Node (the fault lab, the
 * benches): rich values like the CLI's default host, but its messages speak of the taskpane and Refresh.
 */
export const EXCEL_STAND_IN: Readonly<HostInfo> = Object.freeze({
  name: "excel",
  formattedNumbers: true,
  entities: true,
});
