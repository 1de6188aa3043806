/**
 * Entry point of `npm run cli -- eval ...` (node dist/node/cli/main.js). `run` does the work and is what
 * tests call in-process; the bottom of the file binds it to the real process: argv, environment,
 * stdout/stderr, Ctrl-C and the exit code.
 *
 * Exit codes: 0 when no formula's whole result is an error, 1 when at least one is (or the build is broken),
 * 2 for usage errors, 130 when interrupted. Usage errors are one line on stderr, never a stack trace.
 */
import { parseCommandLine, HELP } from "./flags";
import { bindFormula, BoundFormula } from "../sheet/bind";
import { Grid, isWholeError } from "../sheet/cells";
import {
  EXIT_FORMULA_ERROR,
  EXIT_INTERRUPTED,
  EXIT_OK,
  exitCodeOf,
  isStopError,
  UsageError,
  withLabel,
} from "./errors";
import { recalculate } from "../sheet/recalculate";
import { FormulaCall, parseFormula, printFormula } from "../sheet/formula";
import { installCliHost } from "./host";
import { formatResults } from "./output";
import { printable, singleLine } from "./output/cells-text";
import { Registry, signature } from "../sheet/registry";
import { loadRegistry } from "./registry-files";
import { collectFormulas, FormulaSource, ReadText } from "./sources";
import { setLogSink, type LogRecord } from "../client";
import { configureRuntime } from "../runtime/runtime";
import { firstLineOf } from "../client/errors";

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Aborting it cancels the recalculation (Ctrl-C); run then returns 130. */
  signal?: AbortSignal;
}

export type CliEnv = Readonly<Record<string, string | undefined>>;

/** As src/runtime's configureRuntime takes them; an empty key means "none set" (the cells will say so). */
export interface RuntimeSettings {
  baseUrl: string;
  apiKey: string;
}

/** What varies between the real process and a test. */
export interface CliDeps {
  installHost(): void;
  loadRegistry(): Registry;
  configureRuntime(settings: RuntimeSettings): void;
  readText?: ReadText;
}

const PROGRAM = "cryptometrics";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/**
 * The one place the CLI configures the runtime the functions run on (base URL, key; the real fetch). The
 * runtime refuses a base URL it will not talk to (plain http off loopback) with an error of kind
 * "invalid-input": for the CLI that is a usage error (see configure below).
 */
let configured: RuntimeSettings | undefined;

function configureSharedRuntime(settings: RuntimeSettings): void {
  // Evaluations in one process with the same service and key share the runtime, hence its cache (as a
  // workbook's recalculations do): the same formulas again cost no request.
  if (configured?.baseUrl === settings.baseUrl && configured.apiKey === settings.apiKey) return;
  configureRuntime({ baseUrl: settings.baseUrl, apiKey: settings.apiKey });
  configured = { ...settings };
}

export const defaultDeps: CliDeps = {
  installHost: () => installCliHost(),
  loadRegistry: () => loadRegistry(),
  configureRuntime: configureSharedRuntime,
};

function labelled(source: FormulaSource, error: unknown): unknown {
  return isStopError(error) ? withLabel(source.label, error) : error;
}

interface ParsedSource {
  source: FormulaSource;
  call: FormulaCall;
}

function parseAll(sources: readonly FormulaSource[]): ParsedSource[] {
  return sources.map((source) => {
    try {
      return { source, call: parseFormula(source.text) };
    } catch (error) {
      throw labelled(source, error);
    }
  });
}

function bindAll(parsed: readonly ParsedSource[], registry: Registry): BoundFormula[] {
  return parsed.map(({ source, call }, i) => {
    try {
      return bindFormula(call, registry, i + 1);
    } catch (error) {
      throw labelled(source, error);
    }
  });
}

function configure(deps: CliDeps, baseUrl: string, apiKey: string | undefined): void {
  try {
    deps.configureRuntime({ baseUrl, apiKey: apiKey ?? "" });
  } catch (error) {
    if (isRecord(error) && error.kind === "invalid-input") {
      throw new UsageError("config", firstLineOf(error), { cause: error });
    }
    throw error;
  }
}

function helpText(deps: CliDeps): string {
  let registry: Registry;
  try {
    deps.installHost();
    registry = deps.loadRegistry();
  } catch {
    return HELP; // Help must work even from a broken build.
  }
  const lines = registry
    .list()
    .map(
      ({ meta }) => `  ${signature(meta)}${meta.description ? `\n      ${meta.description}` : ""}`
    );
  return lines.length === 0 ? HELP : `${HELP}\nFunctions:\n${lines.join("\n")}\n`;
}

function interrupted(signal: AbortSignal | undefined): Promise<"interrupted"> {
  return new Promise((resolve) => {
    if (!signal) return;
    if (signal.aborted) resolve("interrupted");
    signal.addEventListener("abort", () => resolve("interrupted"), { once: true });
  });
}

async function evaluate(
  argv: readonly string[],
  env: CliEnv,
  io: CliIo,
  deps: CliDeps
): Promise<number> {
  const command = parseCommandLine(argv);
  if (command.command === "help") {
    io.stdout(helpText(deps));
    return EXIT_OK;
  }
  const sources = collectFormulas(command.files, command.formulas, deps.readText);
  // Syntax first, before anything is loaded: a typo should not wait for (or depend on) the build.
  const parsed = parseAll(sources);
  deps.installHost();
  const registry = deps.loadRegistry();
  const formulas = bindAll(parsed, registry);
  // Only formulas that Excel would accept get as far as the configuration.
  const baseUrl = command.baseUrl ?? (env.CRYPTOMETRICS_BASE_URL || undefined);
  const apiKey = command.apiKey ?? (env.CRYPTOMETRICS_API_KEY || undefined);
  if (!baseUrl)
    throw new UsageError("usage", "no base URL: pass --base-url or set CRYPTOMETRICS_BASE_URL");
  configure(deps, baseUrl, apiKey);

  const recalculation = recalculate(formulas);
  const outcome = await Promise.race([recalculation.results, interrupted(io.signal)]);
  if (outcome === "interrupted") {
    recalculation.cancel();
    io.stderr(`${PROGRAM}: interrupted\n`);
    return EXIT_INTERRUPTED;
  }
  const grids: Grid[] = outcome;
  const results = formulas.map((formula, i) => ({
    formula: printFormula({ ...formula.call, name: formula.fn.meta.name }),
    grid: grids[i],
  }));
  io.stdout(formatResults(command.format, results));
  return grids.some(isWholeError) ? EXIT_FORMULA_ERROR : EXIT_OK;
}

/** Run the CLI with the given arguments (without node and script), environment and streams; returns the exit code. */
export async function run(
  argv: readonly string[],
  env: CliEnv,
  io: CliIo,
  deps: CliDeps = defaultDeps
): Promise<number> {
  try {
    return await evaluate(argv, env, io, deps);
  } catch (error) {
    if (isStopError(error)) {
      io.stderr(`${PROGRAM}: ${printable(firstLineOf(error))}\n`);
      return exitCodeOf(error);
    }
    // A bug of ours or of a layer below: still one line, and the exit status says "not a clean run".
    io.stderr(`${PROGRAM}: internal error: ${printable(firstLineOf(error))}\n`);
    return EXIT_FORMULA_ERROR;
  }
}

function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (text === "") resolve();
    else stream.write(text, () => resolve());
  });
}

/**
 * Warnings and errors the layers below log (retries given up, unexpected failures) go to stderr, one line
 * each, so stdout stays results only. Set for the process, not per run: the sink is global.
 */
function logToStderr(record: LogRecord): void {
  if (record.level !== "warn" && record.level !== "error") return;
  const data = record.data ? ` ${JSON.stringify(record.data)}` : "";
  process.stderr.write(
    `${singleLine(`${PROGRAM}: ${record.level}: [${record.logger}] ${record.message}${data}`)}\n`
  );
}

async function main(): Promise<void> {
  setLogSink(logToStderr);
  const controller = new AbortController();
  process.once("SIGINT", () => controller.abort());
  // A reader that goes away (`| head`) is not an error worth a stack trace.
  const ignoreBrokenPipe = (error: NodeJS.ErrnoException): void => {
    if (error.code !== "EPIPE") throw error;
  };
  process.stdout.on("error", ignoreBrokenPipe);
  process.stderr.on("error", ignoreBrokenPipe);
  const pending: Promise<void>[] = [];
  const code = await run(process.argv.slice(2), process.env, {
    stdout: (text) => void pending.push(write(process.stdout, text)),
    stderr: (text) => void pending.push(write(process.stderr, text)),
    signal: controller.signal,
  });
  await Promise.all(pending);
  // Exit explicitly: caches, rate limiters and keep-alive sockets below may hold the event loop open,
  // and a command-line tool should end when its output is written.
  process.exit(code);
}

if (require.main === module) void main();
