/**
 * The CLI as a custom-functions host: Excel's error types from the shared shim, and the flag that tells the
 * functions layer it runs under the CLI, and which Excel it stands for. By default a current Excel (formatted
 * numbers, entity values: PROJECT without a field gives a card); with --legacy-host an older one (plain date
 * serials, the field/value table instead of a card). Users of the CLI set the key with --api-key-file or
 * $CRYPTOMETRICS_API_KEY rather than in the taskpane.
 */
import { installHost, type HostInfo } from "../sheet/host";

export const CLI_HOST: Readonly<HostInfo> = Object.freeze({
  name: "cli",
  formattedNumbers: true,
  entities: true,
});

/** An Excel before CustomFunctionsRuntime 1.4 / ExcelApi 1.16: no rich values at all. */
const LEGACY_CLI_HOST: Readonly<HostInfo> = Object.freeze({
  name: "cli",
  formattedNumbers: false,
  entities: false,
});

/** Call before loading the functions module (and again to switch between a modern and a legacy host). */
export function installCliHost(target: object = globalThis, legacy = false): void {
  installHost(legacy ? LEGACY_CLI_HOST : CLI_HOST, target);
}
