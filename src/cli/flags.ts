/**
 * The command line: `eval [--base-url URL] [--api-key-file FILE] [--format table|csv|json] [--file PATH]
 * [--cache-dir DIR] [--no-cache] [--rate-limit N] [--legacy-host] [FORMULA ...]` and
 * `cache info|clear [--cache-dir DIR]`, read with node's util.parseArgs in strict mode, so an unknown flag is a
 * usage error.
 */
import { parseArgs } from "util";
import { UsageError } from "./errors";
import { OUTPUT_FORMATS, OutputFormat } from "./output";
import { firstLineOf } from "../client";

interface EvalOptions {
  command: "eval";
  baseUrl?: string;
  /** --api-key-file: where the key is read from (`-`: standard input); see api-key.ts. */
  apiKeyFile?: string;
  /** --api-key: accepted, with a warning (a command line is visible to others). */
  apiKey?: string;
  format: OutputFormat;
  /** Act as an Excel without rich values (no formatted numbers, no entity cards). */
  legacyHost: boolean;
  /** --file may be given more than once; files are read in order, before the FORMULA arguments. */
  files: string[];
  formulas: string[];
  cacheDir?: string;
  /** --no-cache: no answer is read from or saved to the cache directory (the rate budget is still shared). */
  noCache: boolean;
  /** --refresh: fetch again what the formulas use, even where the cache is fresh, and say what changed. */
  refresh: boolean;
  /** --lineage (json only): `{"results": [...], "lineage": [...]}` instead of the plain array (lineage.ts). */
  lineage: boolean;
  /** Requests per minute the plan allows; default the service's documented 60. */
  rateLimit?: number;
}

export interface CacheCommand {
  command: "cache";
  action: "info" | "clear";
  cacheDir?: string;
  format: OutputFormat;
}

type ParsedCommandLine = { command: "help" } | EvalOptions | CacheCommand;

const USAGE =
  "usage: cryptometrics eval [--base-url URL] [--api-key-file FILE] [--format table|csv|json] [--lineage] [--file PATH] " +
  "[--cache-dir DIR] [--no-cache] [--refresh] [--rate-limit N] [--legacy-host] [FORMULA ...]\n" +
  "       cryptometrics cache info|clear [--cache-dir DIR] [--format table|json]";

export const HELP = `${USAGE}

Evaluates CRYPTO formulas outside Excel through the add-in's own functions, as one recalculation.

  FORMULA            as written in Excel, e.g. '=CRYPTO.METRIC("aave","revenue",TODAY()-365)';
                     the leading = and the CRYPTO. prefix are optional. Arguments: "text", numbers,
                     TRUE/FALSE, nothing (omitted), array constants {"a","b"} (a row) or {"a";"b"} (a column),
                     and expressions of TODAY(), NOW(), DATE(y,m,d), EDATE, EOMONTH, YEAR, MONTH, DAY
                     with + - * / and & (e.g. DATE(2024,1,1)+30, "period="&"month"), other CRYPTO calls
                     (with the CRYPTO. prefix: CRYPTO.METRIC(CRYPTO.PROJECT("aave"),"fees")) and
                     FIELDVALUE(value,"field"), also as the whole formula:
                     'FIELDVALUE(CRYPTO.PROJECT("aave"),"Symbol")'. No cell references here.
  --file PATH        read formulas from PATH, one per non-empty line (may be repeated); a line that
                     cannot be evaluated gets a #USAGE result in its place, the others still run
  --base-url URL     service base URL (default: $CRYPTOMETRICS_BASE_URL); https, or http on loopback only
  --api-key-file FILE
                     read the API key from FILE (- for standard input); without it, the key comes from
                     $CRYPTOMETRICS_API_KEY_FILE (a file), else $CRYPTOMETRICS_API_KEY, else a prompt
                     when a terminal is attached. (--api-key KEY still works, but warns: a key on the
                     command line is seen by other users (ps) and written to npm's debug log.)
  --format FORMAT    table (default, aligned text), csv (RFC 4180, CRLF) or json; a card (an entity
                     value, e.g. PROJECT("aave")) prints as its text, and in json as its
                     Excel.EntityCellValue object
  --lineage          with --format json: print {"results": [...], "lineage": [...]} instead of the
                     array of results; lineage[i] says where results[i] came from: its formula, the
                     vintage its values were known at (add vintage=<it> to the formula's options to get
                     them again), the service's address, and the service's definition and source of
                     each metric it reads (one request per project detail not already cached)
  --cache-dir DIR    where answers are saved between runs (default: $CRYPTOMETRICS_CACHE_DIR, else
                     $XDG_CACHE_HOME/cryptometrics, i.e. ~/.cache/cryptometrics)
  --no-cache         neither read nor save answers (runs still share the rate budget kept there)
  --refresh          fetch again every figure the formulas use, even where the cache is fresh, and
                     say on stderr how many figures the service changed since they were fetched
  --rate-limit N     requests per minute your plan allows (default 60, the service's documented limit)
  --legacy-host      act as an older Excel: dates as plain serials, tables instead of cards
  -h, --help         this help

Answers are saved in the cache directory: catalogues for 24 hours, figures until the service's daily update
(00:00 UTC), so a file evaluated again the same day needs no request; an answer that lacks the day the
service should have published (today, UTC) is asked again after 30 minutes. Runs using one key, one after another
or at the same time, share one budget of requests per minute. \`cache info\` shows where the cache is and its
size (at most 50 MB, least recently used first out); \`cache clear\` empties it.

Exit status: 0 when no formula's whole result is an error, 1 when one is, 2 for usage errors
(a --file line included).
`;

/** The command line's flags, util.parseArgs's table (the help and the README name each; a test holds them). */
export const FLAGS = {
  "base-url": { type: "string" },
  "api-key": { type: "string" },
  "api-key-file": { type: "string" },
  format: { type: "string" },
  file: { type: "string", multiple: true },
  "cache-dir": { type: "string" },
  "no-cache": { type: "boolean" },
  refresh: { type: "boolean" },
  lineage: { type: "boolean" },
  "rate-limit": { type: "string" },
  "legacy-host": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** util.parseArgs messages run to several sentences with advice for another program; keep the first. */
function firstSentence(message: string): string {
  const end = message.search(/\.\s/);
  return (end < 0 ? message : message.slice(0, end)).replace(/\.$/, "");
}

function readArgs(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: FLAGS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError("usage", `${firstSentence(firstLineOf(error))} (see --help)`, {
      cause: error,
    });
  }
}

type Values = ReturnType<typeof readArgs>["values"];

function outputFormat(values: Values, allowed: readonly OutputFormat[]): OutputFormat {
  const format = values.format ?? "table";
  if (!(allowed as readonly string[]).includes(format)) {
    throw new UsageError(
      "usage",
      `unknown format '${format}' (use ${allowed.join(", ").replace(/, (?=[^,]*$)/, " or ")})`
    );
  }
  return format as OutputFormat;
}

/** Flags that only `eval` takes are refused elsewhere rather than silently ignored. */
function refuseEvalFlags(values: Values, command: string): void {
  for (const flag of [
    "base-url",
    "api-key",
    "api-key-file",
    "file",
    "no-cache",
    "refresh",
    "lineage",
    "rate-limit",
  ] as const) {
    if (values[flag] !== undefined)
      throw new UsageError("usage", `--${flag} does not apply to '${command}'`);
  }
}

function rateLimit(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < 1 || n > 6000)
    throw new UsageError(
      "usage",
      `--rate-limit takes a whole number of requests per minute from 1 to 6000, got '${text}'`
    );
  return n;
}

function cacheCommand(values: Values, args: readonly string[]): CacheCommand {
  const [action, ...rest] = args;
  if (action !== "info" && action !== "clear")
    throw new UsageError(
      "usage",
      action === undefined
        ? "cache: say info or clear"
        : `unknown cache action '${action}' (use info or clear)`
    );
  if (rest.length > 0)
    throw new UsageError("usage", `cache ${action} takes no argument '${rest[0]}'`);
  refuseEvalFlags(values, `cache ${action}`);
  return {
    command: "cache",
    action,
    format: outputFormat(values, ["table", "json"]),
    ...(values["cache-dir"] !== undefined ? { cacheDir: values["cache-dir"] } : {}),
  };
}

export function parseCommandLine(argv: readonly string[]): ParsedCommandLine {
  const parsed = readArgs(argv);
  const { values, positionals } = parsed;
  if (values.help) return { command: "help" };
  const [command, ...formulas] = positionals;
  if (command === undefined) throw new UsageError("usage", `missing command: ${USAGE}`);
  if (command === "cache") return cacheCommand(values, formulas);
  if (command !== "eval")
    throw new UsageError("usage", `unknown command '${command}' (the commands are eval and cache)`);
  const options: EvalOptions = {
    command: "eval",
    format: outputFormat(values, OUTPUT_FORMATS),
    legacyHost: values["legacy-host"] === true,
    files: values.file ?? [],
    formulas,
    noCache: values["no-cache"] ?? false,
    refresh: values.refresh ?? false,
    lineage: values.lineage ?? false,
  };
  // Lineage is data for programs: the envelope is json's; a table or csv has no place for it.
  if (options.lineage && options.format !== "json")
    throw new UsageError(
      "usage",
      `--lineage needs --format json (the lineage is printed beside the results as JSON), not '${options.format}'`
    );
  if (values["base-url"] !== undefined) options.baseUrl = values["base-url"];
  if (values["api-key"] !== undefined) options.apiKey = values["api-key"];
  if (values["api-key-file"] !== undefined) options.apiKeyFile = values["api-key-file"];
  if (values["cache-dir"] !== undefined) options.cacheDir = values["cache-dir"];
  if (values["rate-limit"] !== undefined) options.rateLimit = rateLimit(values["rate-limit"]);
  return options;
}
