/**
 * Entry point of `npm run cli -- eval ...` (node dist/node/cli/main.js). `run` does the work and is what
 * tests call in-process; the bottom of the file binds it to the real process: argv, environment,
 * stdout/stderr, Ctrl-C and the exit code.
 *
 * Exit codes: 0 when no formula's whole result is an error, 1 when at least one is (or the build is broken),
 * 2 for usage errors, 130 when interrupted. Usage errors are one line on stderr, never a stack trace.
 *
 * A --file line that cannot be evaluated at all (it does not parse, names no function, has the wrong number
 * of arguments) costs only itself: it gets a #USAGE result at its place, the other lines are evaluated and
 * printed, and the exit code is 2. A model file is many formulas; one typo should not hide the rest.
 * FORMULA arguments typed on the command line are still refused as a whole, before any request.
 */
import { changeText, newestChanges, type Change } from "../engine";
import { parseCommandLine, HELP } from "./flags";
import type { SheetClock } from "../sheet/expressions";
import {
  EXIT_FORMULA_ERROR,
  EXIT_INTERRUPTED,
  EXIT_OK,
  EXIT_USAGE,
  exitCodeOf,
  isStopError,
  UsageError,
} from "./errors";
import { evaluateFormulas, type Stale } from "./evaluation";
import {
  anyWholeError,
  evaluatedLine,
  readLines,
  refusedCount,
  resultsOf,
  bindLine,
  labelOf,
  type Line,
  type Ready,
} from "./lines";
import { installCliHost } from "./host";
import { writeResults, type OutputFormat, type OutputSink } from "./output";
import { printable, singleLine } from "./output/cells-text";
import { Registry, signature } from "../sheet/registry";
import { loadRegistry } from "./registry-files";
import { collectFormulas, ReadText } from "./sources";
import { setLogSink, type LogRecord } from "../client";
import { runCacheCommand, type CacheAdmin } from "./cache/command";
import { FileBlobStore } from "./cache/file-store";
import { clearLedgers } from "./cache/file-ledger";
import { FileLedgerStore } from "./cache/restatement-files";
import { cacheSettings, type CacheSettings } from "./cache/settings";
import {
  configureCliRuntime,
  releaseCliRuntime,
  refreshCliRuntime,
  settleCliRuntime,
  takeStaleAnswers,
  lineageOfRun,
  type RuntimeSettings,
} from "./runtime-setup";
import { lineageInputs, traceLine, unTraced, type LineageInput, type LineTrace } from "./lineage";
import type { Lineage } from "../functions/lineage";
import { firstLineOf } from "../client";
import { userMessage } from "../functions/messages";
import { readKeyFile, resolveApiKey, type PromptKey, type ReadKeyFile } from "./api-key";
import { checkCacheDir, type Verdict } from "./cache/ownership";
import { terminalPrompt } from "./prompt";
import { isatty } from "tty";
import { versionInAddress } from "../runtime/address-check";

export interface CliIo extends OutputSink {
  stderr(text: string): void;
  /** Aborting it cancels the recalculation (Ctrl-C); run then returns 130. */
  signal?: AbortSignal;
  /** Asks for the API key when none is given; only where a terminal is attached. */
  promptKey?: PromptKey;
}

export type CliEnv = Readonly<Record<string, string | undefined>>;

export type { RuntimeSettings } from "./runtime-setup";

/** What varies between the real process and a test. */
export interface CliDeps {
  /** `legacy`: act as an Excel without rich values (--legacy-host). */
  installHost(legacy?: boolean): void;
  loadRegistry(): Registry;
  configureRuntime(settings: RuntimeSettings, cache?: CacheSettings): void;
  /** --refresh: everything fetched again; returns the restatements recorded since (as they are). */
  refresh?(): () => readonly Change[];
  /** Waits until the answers fetched are saved (before the process exits). */
  settle?(): Promise<void>;
  /**
   * The run was interrupted: report the requests still under way as answered to the shared record of
   * request starts (other runs would otherwise hold them for minutes), within a short deadline.
   */
  release?(): Promise<void>;
  /** The cache directory's store, for `cache info` and `cache clear`. */
  cacheAdmin?(settings: CacheSettings): CacheAdmin;
  readText?: ReadText;
  /** Reads --api-key-file (and $CRYPTOMETRICS_API_KEY_FILE); the file system by default. */
  readKeyFile?: ReadKeyFile;
  /** The recalculation's clock, for TODAY() and NOW(); the system clock when absent. */
  clock?: SheetClock;
  /** The cells answered with kept (stale) values since the last call, by address (the runtime's diagnostics). */
  takeStale?: () => ReadonlyMap<string, Stale>;
  /** Whether the cache directory may be used (ownership.ts); the real check by default. */
  checkCacheDir?: (dir: string) => Verdict;
  /** --lineage: each line's lineage row (`kept`: the run saved what it saw, so vintage= can re-derive it). */
  lineage?: (inputs: readonly LineageInput[], kept: boolean) => Promise<Lineage[]>;
}

export { USAGE_CODE } from "./lines";

const PROGRAM = "cryptometrics";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

export const defaultDeps: CliDeps = {
  installHost: (legacy) => installCliHost(globalThis, legacy),
  loadRegistry: () => loadRegistry(),
  configureRuntime: configureCliRuntime,
  refresh: refreshCliRuntime,
  settle: settleCliRuntime,
  release: releaseCliRuntime,
  takeStale: takeStaleAnswers,
  lineage: lineageOfRun,
  cacheAdmin: (settings) => {
    const store = new FileBlobStore({ dir: settings.dir, maxBytes: settings.maxBytes });
    return {
      dir: store.dir,
      usage: () => store.usage(),
      span: () => store.span(),
      // The saved answers and the record of restatements kept beside them.
      clear: async () => {
        await store.clear();
        await new FileLedgerStore(settings.dir).clear();
      },
      clearBudget: () => clearLedgers(settings.dir),
    };
  },
};

function configure(
  deps: CliDeps,
  settings: RuntimeSettings,
  cache: CacheSettings | undefined
): void {
  try {
    deps.configureRuntime(settings, cache);
  } catch (error) {
    if (isRecord(error) && error.kind === "invalid-input") {
      // In words, not the client's call label ("createClient: …").
      throw new UsageError("config", userMessage(firstLineOf(error)), { cause: error });
    }
    throw error;
  }
}

/**
 * The cache settings when the directory may be used (ownership.ts); otherwise none, said on stderr: the run
 * goes on without saved answers and without the request budget it would share with other runs.
 */
function usableCache(cache: CacheSettings, deps: CliDeps, io: CliIo): CacheSettings | undefined {
  const verdict = (deps.checkCacheDir ?? checkCacheDir)(cache.dir);
  if (verdict.ok) return cache;
  io.stderr(
    `${PROGRAM}: not using the cache directory ${printable(cache.dir)}: ${printable(verdict.reason)}. ` +
      "This run reads and saves no answers there and does not share its request budget with other runs; " +
      "pass --cache-dir with a directory of your own.\n"
  );
  return undefined;
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

/** The signals that end a run early, each with the exit status a shell gives it (128 + its number). */
const STOPPING_SIGNALS = { SIGINT: EXIT_INTERRUPTED, SIGTERM: 143, SIGHUP: 129 } as const;
type StoppingSignal = keyof typeof STOPPING_SIGNALS;

/** Which signal aborted the run (the abort's reason); Ctrl-C's when it does not say. */
function interruption(signal: AbortSignal | undefined): { name: StoppingSignal; code: number } {
  const reason: unknown = signal?.reason;
  const name =
    typeof reason === "string" && reason in STOPPING_SIGNALS
      ? (reason as StoppingSignal)
      : "SIGINT";
  return { name, code: STOPPING_SIGNALS[name] };
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
  if (command.command === "cache") {
    const settings = cacheSettings(env, command);
    const verdict = (deps.checkCacheDir ?? checkCacheDir)(settings.dir);
    if (!verdict.ok)
      throw new UsageError(
        "usage",
        `cannot use the cache directory ${settings.dir}: ${verdict.reason}`
      );
    const admin = deps.cacheAdmin?.(settings);
    if (!admin) throw new UsageError("usage", "this build of the command line has no cache");
    io.stdout(await runCacheCommand(command, admin));
    return EXIT_OK;
  }
  const cache = cacheSettings(env, command);
  // Syntax first, before anything is loaded: a typo should not wait for (or depend on) the build.
  const { lines, registry } = readLines(
    collectFormulas(command.files, command.formulas, deps.readText),
    () => {
      deps.installHost(command.legacyHost);
      return deps.loadRegistry();
    }
  );
  // The lines to evaluate, by their place among all lines (see lines.ts for what each holds when).
  const at: number[] = [];
  lines.forEach((line, i) => {
    if ("plan" in line) at.push(i);
  });
  // Only formulas that Excel would accept get as far as the configuration; a file whose every line was
  // refused needs no service to show why.
  if (at.length === 0)
    return report(
      command.format,
      lines,
      io,
      command.lineage ? lineageInputs(lines, new Map()).map(unTraced) : undefined
    );
  const baseUrl = command.baseUrl ?? (env.CRYPTOMETRICS_BASE_URL || undefined);
  if (!baseUrl)
    throw new UsageError("usage", "no base URL: pass --base-url or set CRYPTOMETRICS_BASE_URL");
  // As the taskpane's Settings: a version in the address would ask for /v2/v2/…, found nowhere.
  const version = versionInAddress(baseUrl, "The CLI");
  if (version) throw new UsageError("usage", `base URL ${baseUrl}: ${version}`);
  const { key: apiKey, warnings } = await resolveApiKey({
    file: command.apiKeyFile,
    value: command.apiKey,
    env,
    baseUrl,
    read: deps.readKeyFile ?? readKeyFile,
    prompt: io.promptKey,
  });
  for (const warning of warnings) io.stderr(`${PROGRAM}: ${warning}\n`);
  const usable = usableCache(cache, deps, io);
  configure(
    deps,
    {
      baseUrl,
      apiKey,
      ...(command.rateLimit ? { rateLimitPerMinute: command.rateLimit } : {}),
    },
    usable
  );

  const found = command.refresh ? deps.refresh?.() : undefined;
  const traces = command.lineage ? new Map<number, LineTrace>() : undefined;
  const ready = (i: number): Ready => lines[at[i]] as Ready;
  const outcome = await evaluateFormulas(
    at.map((_, i) => ready(i).plan),
    (i) => bindLine(ready(i), registry),
    {
      clock: deps.clock,
      signal: io.signal,
      takeStale: deps.takeStale,
      onGrid: (i, grid, formula) => {
        const line = ready(i);
        const evaluated = evaluatedLine(line, formula, grid);
        lines[at[i]] = evaluated;
        // Traced from the bound call while it is at hand; its values were all known by now.
        traces?.set(
          at[i],
          traceLine(formula, line.source.label, evaluated.result.formula, Date.now())
        );
      },
    }
  );
  if ("interrupted" in outcome) {
    await deps.release?.();
    const signal = interruption(io.signal);
    io.stderr(`${PROGRAM}: interrupted${signal.name === "SIGINT" ? "" : ` (${signal.name})`}\n`);
    return signal.code;
  }
  // Before the answers are saved: project details the lineage reads are saved with them.
  const lineage = traces
    ? await (deps.lineage ?? lineageOfRun)(lineageInputs(lines, traces), usable?.saved === true)
    : undefined;
  // The answers reach the cache directory before the process ends (the next run reads them).
  await deps.settle?.();
  const code = await report(command.format, lines, io, lineage);
  markStale(new Map([...outcome.stale].map(([i, s]) => [at[i], s])), (i) => labelOf(lines[i]), io);
  if (found) reportChanges(found(), io);
  return code;
}

/** At most this many changes found by --refresh are named one by one; the rest are counted. */
const MAX_CHANGE_LINES = 20;

/** What --refresh found: how many figures the service changed, the newest named (CHANGES lists them all). */
function reportChanges(changes: readonly Change[], io: CliIo): void {
  const n = changes.length;
  io.stderr(
    `${PROGRAM}: refresh: ${n === 0 ? "no figure" : `${n} figure${n === 1 ? "" : "s"}`} changed since ${n === 1 ? "it was" : "they were"} last fetched\n`
  );
  for (const c of newestChanges(changes, MAX_CHANGE_LINES))
    io.stderr(`${PROGRAM}: changed: ${singleLine(changeText(c))}\n`);
  if (n > MAX_CHANGE_LINES) io.stderr(`${PROGRAM}: changed: and ${n - MAX_CHANGE_LINES} more\n`);
}

/** At most this many stale results are named one by one; the rest are counted. */
const MAX_STALE_LINES = 20;

function utcMinute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * Every result that shows figures kept from before (the service failed or was slow, and the cache had
 * them) is named on stderr, with when they were fetched and why they were not fetched afresh: printed
 * figures never pass for current ones unnoticed. (In Excel the cell's Diagnostics say the same.)
 */
function markStale(
  stale: ReadonlyMap<number, Stale>,
  labelOf: (line: number) => string,
  io: CliIo
): void {
  if (stale.size === 0) return;
  const entries = [...stale].sort((a, b) => a[0] - b[0]);
  io.stderr(
    `${PROGRAM}: ${stale.size} result${stale.size === 1 ? " shows" : "s show"} figures kept from before, not current ones:\n`
  );
  for (const [i, s] of entries.slice(0, MAX_STALE_LINES)) {
    io.stderr(
      `${PROGRAM}: stale: ${singleLine(labelOf(i))}: fetched ${utcMinute(s.fetchedAt)}; ${singleLine(s.reason)}\n`
    );
  }
  if (entries.length > MAX_STALE_LINES)
    io.stderr(`${PROGRAM}: stale: and ${entries.length - MAX_STALE_LINES} more\n`);
}

/** Prints every result in input order, a refused line's #USAGE at its place; returns the exit code. */
async function report(
  format: OutputFormat,
  lines: readonly Line[],
  io: CliIo,
  lineage?: readonly Lineage[]
): Promise<number> {
  await writeResults(io, format, resultsOf(lines), lineage);
  const refused = refusedCount(lines);
  if (refused > 0) {
    io.stderr(
      `${PROGRAM}: ${refused} line${refused === 1 ? "" : "s"} not evaluated (usage errors, shown at ${refused === 1 ? "its place" : "their places"})\n`
    );
    return EXIT_USAGE;
  }
  return anyWholeError(lines) ? EXIT_FORMULA_ERROR : EXIT_OK;
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
  // Ctrl-C, a kill, a closed terminal: the run stops the same way, reporting its requests under way to the
  // shared record of request starts before it exits (a second signal ends it at once).
  for (const name of Object.keys(STOPPING_SIGNALS) as StoppingSignal[])
    process.once(name, () => controller.abort(name));
  // Past a file-size limit (ulimit -f) a write fails with EFBIG instead of the kernel ending the process
  // (SIGXFSZ, exit 153, no output): the saved cache then skips that answer as on a full disk.
  process.on("SIGXFSZ", () => undefined);
  // A reader that goes away (`| head`) is not an error worth a stack trace.
  const ignoreBrokenPipe = (error: NodeJS.ErrnoException): void => {
    if (error.code !== "EPIPE") throw error;
  };
  process.stdout.on("error", ignoreBrokenPipe);
  process.stderr.on("error", ignoreBrokenPipe);
  let pending: Promise<void>[] = [];
  const code = await run(process.argv.slice(2), process.env, {
    stdout: (text) => void pending.push(write(process.stdout, text)),
    stderr: (text) => void pending.push(write(process.stderr, text)),
    drain: async () => {
      const writing = pending;
      pending = [];
      await Promise.all(writing);
    },
    signal: controller.signal,
    // process.stdin is touched only on a terminal: creating it on a pipe would make `--api-key-file -` a
    // non-blocking read.
    promptKey:
      isatty(0) && isatty(2)
        ? terminalPrompt(process.stdin, process.stderr, () => controller.abort())
        : undefined,
  });
  await Promise.all(pending);
  // Exit explicitly: caches, rate limiters and keep-alive sockets below may hold the event loop open,
  // and a command-line tool should end when its output is written.
  process.exit(code);
}

if (require.main === module) void main();
