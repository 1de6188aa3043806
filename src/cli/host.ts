/**
 * The CLI as a custom-functions host: Excel's error types from the shared shim, and the flag that tells the
 * functions layer it runs under the CLI (a host that renders formatted numbers, and whose users set the key
 * with --api-key rather than in the taskpane).
 */
import { installHost, type HostInfo } from "../sheet/host";

export const CLI_HOST: Readonly<HostInfo> = Object.freeze({ name: "cli", formattedNumbers: true });

/** Call before loading the functions module. */
export function installCliHost(target: object = globalThis): void {
  installHost(CLI_HOST, target);
}
