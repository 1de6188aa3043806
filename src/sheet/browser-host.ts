/**
 * The custom-functions host outside Excel. office.js loaded in a plain browser defines `CustomFunctions`
 * with `associate` only, without `Error` and `ErrorCode`, which the functions need to report errors; the
 * host shim supplies them (installed only where missing, so inside Excel nothing changes). Declaring the
 * host as one that shows formatted numbers makes date columns arrive as dates, and as one that takes entity
 * values makes PROJECT give a card, as in current Excel.
 */
import {
  createCustomFunctionsShim,
  declareHost,
  installCustomFunctions,
  type CustomFunctionsShim,
} from "./host";

export const BROWSER_HOST = { name: "browser", formattedNumbers: true, entities: true } as const;

/** Call only once the page knows it is NOT inside Office (Office.onReady gave no host). */
export function completeBrowserHost(target: object = globalThis): void {
  const host = target as { CustomFunctions?: Partial<CustomFunctionsShim> };
  if (host.CustomFunctions === undefined) {
    installCustomFunctions(target);
  } else if (typeof host.CustomFunctions.Error !== "function") {
    const shim = createCustomFunctionsShim();
    host.CustomFunctions.Error = shim.Error;
    host.CustomFunctions.ErrorCode = shim.ErrorCode;
  }
  declareHost(BROWSER_HOST, target);
}
