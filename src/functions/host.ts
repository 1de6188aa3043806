/**
 * What the Excel host can display. Formatted number values ({type: "Double", basicValue, numberFormat}) let
 * a date column show as dates without the user formatting cells; hosts without them get plain serials.
 * Entity values (data-type cards) let PROJECT return a card; hosts without them get the field/value table.
 * Both are checked at run time, once. The CLI and the pages declare themselves through
 * globalThis.__CM_HOST__ (see src/sheet/host.ts; src/cli/host.ts for the CLI).
 */
interface HostFlag {
  name: string;
  formattedNumbers: boolean;
  entities?: boolean;
}

// Only Office's answers are kept: a declared host flag is read on each call (a property read), so a host
// that switches (the CLI's --legacy-host, in one process with the default) is followed at once.
let cached: boolean | undefined;
let cachedEntities: boolean | undefined;

function hostFlag(): HostFlag | undefined {
  return (globalThis as { __CM_HOST__?: HostFlag }).__CM_HOST__;
}

/**
 * Whether the host has the shared runtime's CustomFunctionsRuntime 1.4 (data types returned by custom
 * functions) and ExcelApi `excelApi`; false where Office is not there to ask.
 */
function probe(excelApi: string): boolean {
  try {
    const requirements = Office.context.requirements;
    return (
      requirements.isSetSupported("CustomFunctionsRuntime", "1.4") &&
      requirements.isSetSupported("ExcelApi", excelApi)
    );
  } catch {
    return false;
  }
}

/**
 * How the user asks again, for error messages: Excel has Refresh (taskpane and ribbon), the CLI is run again.
 * `when` ends the sentence: "once it is back", "in a minute".
 */
export function retryHint(when: string): string {
  return hostFlag()?.name === "cli" ? `run the command again ${when}` : `use Refresh ${when}`;
}

/** Where the user sets the key and URL, for error messages: the CLI has flags, Excel has the taskpane. */
export function settingsHint(): string {
  const flag = hostFlag();
  return flag?.name === "cli"
    ? "pass --api-key-file FILE or set CRYPTOMETRICS_API_KEY"
    : "set your API key in the Cryptometrics taskpane (Settings)";
}

/** Where the user sets the service address, for an answer that is not the service's. */
export function addressHint(): string {
  return hostFlag()?.name === "cli"
    ? "check --base-url or CRYPTOMETRICS_BASE_URL"
    : "check the service address in the Cryptometrics taskpane (Settings)";
}

export function supportsFormattedNumbers(): boolean {
  const flag = hostFlag();
  if (flag) return flag.formattedNumbers;
  // A number format on a Double cell value came with ExcelApi 1.19. Both, or plain serials.
  cached ??= probe("1.19");
  return cached;
}

export function supportsEntities(): boolean {
  const flag = hostFlag();
  if (flag) return flag.entities === true;
  // The entity, FormattedNumber and card layout types (List and Table sections) came with ExcelApi 1.16.
  // The cards use nothing newer.
  cachedEntities ??= probe("1.16");
  return cachedEntities;
}

/** For tests and hosts that change capability (forget the probed answers). */
export function resetHostProbe(): void {
  cached = undefined;
  cachedEntities = undefined;
}
