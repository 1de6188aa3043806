/**
 * What the Excel host can display. Formatted number values ({type: "Double", basicValue, numberFormat}) let
 * a date column show as dates without the user formatting cells; hosts without them get plain serials.
 * The CLI declares itself through globalThis.__CM_HOST__ (see src/sheet/host.ts, and src/cli/host.ts for the CLI).
 */
interface HostFlag {
  name: string;
  formattedNumbers: boolean;
}

let cached: boolean | undefined;

function probe(): boolean {
  const flag = (globalThis as { __CM_HOST__?: HostFlag }).__CM_HOST__;
  if (flag) return flag.formattedNumbers;
  try {
    // Data types in custom functions need the shared runtime's CustomFunctionsRuntime 1.4; a number format
    // on a Double cell value came with ExcelApi 1.19. Both, or plain serials.
    const requirements = Office.context.requirements;
    return (
      requirements.isSetSupported("CustomFunctionsRuntime", "1.4") &&
      requirements.isSetSupported("ExcelApi", "1.19")
    );
  } catch {
    return false;
  }
}

/** Where the user sets the key and URL, for error messages: the CLI has flags, Excel has the taskpane. */
export function settingsHint(): string {
  const flag = (globalThis as { __CM_HOST__?: HostFlag }).__CM_HOST__;
  return flag?.name === "cli"
    ? "pass --api-key or set CRYPTOMETRICS_API_KEY"
    : "set your API key in the Cryptometrics taskpane (Settings)";
}

export function supportsFormattedNumbers(): boolean {
  cached ??= probe();
  return cached;
}

/** For tests and hosts that change capability (forget the probed answer). */
export function resetHostProbe(): void {
  cached = undefined;
}
