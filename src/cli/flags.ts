/**
 * The command line: `eval [--base-url URL] [--api-key KEY] [--format table|csv|json] [--file PATH]
 * [FORMULA ...]`, read with node's util.parseArgs in strict mode, so an unknown flag is a usage error.
 */
import { parseArgs } from "util";
import { UsageError } from "./errors";
import { OUTPUT_FORMATS, OutputFormat } from "./output";
import { firstLineOf } from "../client/errors";

export interface EvalOptions {
  command: "eval";
  baseUrl?: string;
  apiKey?: string;
  format: OutputFormat;
  /** --file may be given more than once; files are read in order, before the FORMULA arguments. */
  files: string[];
  formulas: string[];
}

export type ParsedCommandLine = { command: "help" } | EvalOptions;

export const USAGE =
  "usage: cryptometrics eval [--base-url URL] [--api-key KEY] [--format table|csv|json] [--file PATH] [FORMULA ...]";

export const HELP = `${USAGE}

Evaluates CRYPTO formulas outside Excel through the add-in's own functions, as one recalculation.

  FORMULA            as written in Excel, e.g. '=CRYPTO.METRIC("aave","revenue","2024-01-01")';
                     the leading = and the CRYPTO. prefix are optional. Arguments: "text", numbers,
                     TRUE/FALSE, nothing (omitted), array constants {"a","b"} (a row) or {"a";"b"} (a column).
  --file PATH        read formulas from PATH, one per non-empty line (may be repeated)
  --base-url URL     service base URL (default: $CRYPTOMETRICS_BASE_URL); https, or http on loopback only
  --api-key KEY      API key (default: $CRYPTOMETRICS_API_KEY)
  --format FORMAT    table (default, aligned text), csv (RFC 4180, CRLF) or json
  -h, --help         this help

Exit status: 0 when no formula's whole result is an error, 1 when one is, 2 for usage errors.
`;

const OPTIONS = {
  "base-url": { type: "string" },
  "api-key": { type: "string" },
  format: { type: "string" },
  file: { type: "string", multiple: true },
  help: { type: "boolean", short: "h" },
} as const;

/** util.parseArgs messages run to several sentences with advice for another program; keep the first. */
function firstSentence(message: string): string {
  const end = message.search(/\.\s/);
  return (end < 0 ? message : message.slice(0, end)).replace(/\.$/, "");
}

function readArgs(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError("usage", `${firstSentence(firstLineOf(error))} (see --help)`, {
      cause: error,
    });
  }
}

export function parseCommandLine(argv: readonly string[]): ParsedCommandLine {
  const parsed = readArgs(argv);
  const { values, positionals } = parsed;
  if (values.help) return { command: "help" };
  const [command, ...formulas] = positionals;
  if (command === undefined) throw new UsageError("usage", `missing command: ${USAGE}`);
  if (command !== "eval")
    throw new UsageError("usage", `unknown command '${command}' (the command is eval)`);
  const format = values.format ?? "table";
  if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError("usage", `unknown format '${format}' (use table, csv or json)`);
  }
  const options: EvalOptions = {
    command: "eval",
    format: format as OutputFormat,
    files: values.file ?? [],
    formulas,
  };
  if (values["base-url"] !== undefined) options.baseUrl = values["base-url"];
  if (values["api-key"] !== undefined) options.apiKey = values["api-key"];
  return options;
}
