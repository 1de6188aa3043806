/**
 * Flags and environment of `npm run simulator`, parsed into SimulatorOptions. Pure (argv and env are
 * passed in) so tests can check every flag without starting a process.
 */
import { RESTATEMENT_MODES, type RestatementMode } from "./restatements";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { DEFAULT_RATE_LIMIT, DEMO_API_KEY } from "./constants";
import { MAX_PROJECTS } from "./data/synthetic";
import { FAULTS, type Fault, type RunningSimulator, type SimulatorOptions } from "./types";
import { parseReading, READING_SWITCHES, type Readings } from "./readings";
import { parseDate } from "./util/days";
import { messageOf } from "../client";

export class SimulatorOptionError extends Error {
  override name = "SimulatorOptionError";
}

export const USAGE = `Usage: npm run simulator -- [options]

Serves a simulated Cryptometrics service (v2 and v1) on loopback. Every flag has an environment fallback.

  --port N              port (default 3001)                          SIMULATOR_PORT
  --host HOST           interface (default 127.0.0.1)                SIMULATOR_HOST
  --key KEY             accepted API key, repeatable (default demo)  SIMULATOR_KEYS=a,b
  --projects N          universe of N projects: the 51 demo ones,    SIMULATOR_PROJECTS
                        then deterministic synthetic ones (max ${MAX_PROJECTS})
  --latency MS|MIN-MAX  added latency                                SIMULATOR_LATENCY
  --rate-limit N        requests per window per key, 0 = off (60)    SIMULATOR_RATE_LIMIT
  --rate-window-ms MS   rate-limit window (60000)                    SIMULATOR_RATE_WINDOW_MS
  --no-retry-after      429s without Retry-After, whatever reading   SIMULATOR_RETRY_AFTER=false
  --fraction-429 X      share of requests answered 429 (0..1)        SIMULATOR_FRACTION_429
  --fraction-5xx X      share of requests answered 500/502/503       SIMULATOR_FRACTION_5XX
  --hang                never answer any request                     SIMULATOR_HANG=true
  --hang-path REGEX     never answer requests whose path matches     SIMULATOR_HANG=REGEX
  --fault NAME          ${FAULTS.join(" | ")}
                                                                     SIMULATOR_FAULT
  --fault-fraction X    share of requests hit by --fault (1)         SIMULATOR_FAULT_FRACTION
  --renamed OLD=NEW     answer 308 for a renamed project, repeatable SIMULATOR_RENAMED=a=b,c=d
  --seed N              seed of latency and injected failures (1)    SIMULATOR_SEED
  --today YYYY-MM-DD    fix the dataset's today (the clock goes on)  SIMULATOR_TODAY
  --report-unavailable  METRIC_NOT_AVAILABLE beyond §4.11 too        SIMULATOR_REPORT_UNAVAILABLE=true
  --duplicate-rows X    share of (project, day) rows sent twice      SIMULATOR_DUPLICATE_ROWS
                        (0..1, default 0.01; 0 = none)
  --restatements MODE   a service that restates: none | served       SIMULATOR_RESTATEMENTS
                        (days change after first served) | refill
                        (a block first counted twice, then refilled)
  --reading NAME=VALUE  a reading of the interface where it is loose SIMULATOR_READINGS=a=b,c=d
                        (repeatable; defaults: the least helpful):
${READING_SWITCHES.map((r) => `                          ${r.name}: ${Object.keys(r.values).join(" | ")}`).join("\n")}
  --https-cert FILE     serve HTTPS with this certificate...         SIMULATOR_HTTPS_CERT
  --https-key FILE      ...and this private key                      SIMULATOR_HTTPS_KEY
  --quiet               no access log on stderr                      SIMULATOR_QUIET=true
  --help
`;

interface CliOptions {
  help: boolean;
  quiet: boolean;
  simulator: SimulatorOptions;
}

type Env = Record<string, string | undefined>;

function number(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (text.trim() === "" || !Number.isFinite(value) || value < min || value > max) {
    throw new SimulatorOptionError(
      `${name} must be a number between ${min} and ${max}, got "${text}"`
    );
  }
  return value;
}

function latency(text: string): number | [number, number] {
  const range = /^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$/.exec(text.trim());
  if (range) {
    const [min, max] = [Number(range[1]), Number(range[2])];
    if (min > max)
      throw new SimulatorOptionError(
        `--latency range must be MIN-MAX with MIN <= MAX, got "${text}"`
      );
    return [min, max];
  }
  return number("--latency", text, 0, 600_000);
}

function renamed(pairs: string[]): Record<string, string> {
  const map: Record<string, string> = {};
  for (const pair of pairs) {
    const [from, to, extra] = pair.split("=");
    if (!from || !to || extra !== undefined)
      throw new SimulatorOptionError(`--renamed takes OLD=NEW, got "${pair}"`);
    map[from] = to;
  }
  return map;
}

export function parseCliOptions(argv: readonly string[], env: Env): CliOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: "string" },
        host: { type: "string" },
        key: { type: "string", multiple: true },
        projects: { type: "string" },
        latency: { type: "string" },
        "rate-limit": { type: "string" },
        "rate-window-ms": { type: "string" },
        "no-retry-after": { type: "boolean" },
        "fraction-429": { type: "string" },
        "fraction-5xx": { type: "string" },
        hang: { type: "boolean" },
        "hang-path": { type: "string" },
        fault: { type: "string" },
        "fault-fraction": { type: "string" },
        renamed: { type: "string", multiple: true },
        seed: { type: "string" },
        today: { type: "string" },
        "report-unavailable": { type: "boolean" },
        "duplicate-rows": { type: "string" },
        restatements: { type: "string" },
        reading: { type: "string", multiple: true },
        "https-cert": { type: "string" },
        "https-key": { type: "string" },
        quiet: { type: "boolean" },
        help: { type: "boolean" },
      },
    });
  } catch (error: unknown) {
    throw new SimulatorOptionError(messageOf(error));
  }
  const v = parsed.values;
  const pick = (flag: string | undefined, envName: string): string | undefined =>
    flag ?? (env[envName] !== undefined && env[envName] !== "" ? env[envName] : undefined);
  const options: SimulatorOptions = {};

  options.port = number("--port", pick(v.port, "SIMULATOR_PORT") ?? "3001", 0, 65535);
  options.host = pick(v.host, "SIMULATOR_HOST") ?? "127.0.0.1";
  const keys =
    v.key ??
    env.SIMULATOR_KEYS?.split(",")
      .map((k) => k.trim())
      .filter(Boolean);
  options.apiKeys = keys && keys.length > 0 ? keys : [DEMO_API_KEY];
  const projects = pick(v.projects, "SIMULATOR_PROJECTS");
  if (projects !== undefined) {
    options.projects = number("--projects", projects, 0, MAX_PROJECTS);
    if (!Number.isInteger(options.projects))
      throw new SimulatorOptionError(`--projects must be a whole number, got "${projects}"`);
  }

  const latencyText = pick(v.latency, "SIMULATOR_LATENCY");
  if (latencyText !== undefined) options.latencyMs = latency(latencyText);
  const limitText = pick(v["rate-limit"], "SIMULATOR_RATE_LIMIT");
  const windowText = pick(v["rate-window-ms"], "SIMULATOR_RATE_WINDOW_MS");
  // No Retry-After unless a reading or the environment asks for it: the interface documents none.
  const noRetryAfter = v["no-retry-after"] ?? env.SIMULATOR_RETRY_AFTER === "false";
  const limit =
    limitText === undefined ? DEFAULT_RATE_LIMIT.limit : number("--rate-limit", limitText, 0, 1e9);
  const windowMs =
    windowText === undefined
      ? DEFAULT_RATE_LIMIT.windowMs
      : number("--rate-window-ms", windowText, 1, 1e9);
  options.rateLimit =
    limit === 0 ? null : { limit, windowMs, ...(noRetryAfter ? { retryAfter: false } : {}) };
  if (noRetryAfter) options.retryAfter429 = false;

  const f429 = pick(v["fraction-429"], "SIMULATOR_FRACTION_429");
  if (f429 !== undefined) options.fraction429 = number("--fraction-429", f429, 0, 1);
  const f5xx = pick(v["fraction-5xx"], "SIMULATOR_FRACTION_5XX");
  if (f5xx !== undefined) options.fraction5xx = number("--fraction-5xx", f5xx, 0, 1);

  const hangPath =
    v["hang-path"] ??
    (env.SIMULATOR_HANG && env.SIMULATOR_HANG !== "true" && env.SIMULATOR_HANG !== "false"
      ? env.SIMULATOR_HANG
      : undefined);
  if (v.hang || env.SIMULATOR_HANG === "true") options.hang = true;
  else if (hangPath !== undefined) {
    try {
      options.hang = new RegExp(hangPath);
    } catch {
      throw new SimulatorOptionError(
        `--hang-path is not a valid regular expression: "${hangPath}"`
      );
    }
  }

  const fault = pick(v.fault, "SIMULATOR_FAULT");
  if (fault !== undefined) {
    if (!(FAULTS as readonly string[]).includes(fault))
      throw new SimulatorOptionError(`--fault must be one of ${FAULTS.join(", ")}, got "${fault}"`);
    options.fault = fault as Fault;
  }
  const faultFraction = pick(v["fault-fraction"], "SIMULATOR_FAULT_FRACTION");
  if (faultFraction !== undefined)
    options.faultFraction = number("--fault-fraction", faultFraction, 0, 1);

  const renames = v.renamed ?? env.SIMULATOR_RENAMED?.split(",").filter(Boolean);
  if (renames && renames.length > 0) options.renamed = renamed(renames);
  const seed = pick(v.seed, "SIMULATOR_SEED");
  if (seed !== undefined) options.seed = number("--seed", seed, 0, 2 ** 32 - 1);

  const today = pick(v.today, "SIMULATOR_TODAY");
  if (today !== undefined) {
    const day = parseDate(today);
    if (day === undefined)
      throw new SimulatorOptionError(`--today must be a YYYY-MM-DD date, got "${today}"`);
    // The dataset's today only: the clock goes on, so the rate limit's window keeps sliding.
    options.today = today;
  }

  if (v["report-unavailable"] || env.SIMULATOR_REPORT_UNAVAILABLE === "true")
    options.reportUnavailable = true;
  const duplicates = pick(v["duplicate-rows"], "SIMULATOR_DUPLICATE_ROWS");
  if (duplicates !== undefined)
    options.duplicateRows = number("--duplicate-rows", duplicates, 0, 1);

  const restating = pick(v.restatements, "SIMULATOR_RESTATEMENTS");
  if (restating !== undefined) {
    if (!(RESTATEMENT_MODES as readonly string[]).includes(restating))
      throw new SimulatorOptionError(
        `--restatements must be one of ${RESTATEMENT_MODES.join(", ")}, got "${restating}"`
      );
    options.restatements = restating as RestatementMode;
  }

  const readingTexts =
    v.reading ??
    env.SIMULATOR_READINGS?.split(",")
      .map((r) => r.trim())
      .filter(Boolean);
  if (readingTexts && readingTexts.length > 0) {
    let readings: Partial<Readings> = {};
    for (const text of readingTexts) {
      try {
        readings = { ...readings, ...parseReading(text) };
      } catch (error: unknown) {
        throw new SimulatorOptionError(`--reading ${text}: ${messageOf(error)}`);
      }
    }
    options.readings = readings;
  }

  const cert = pick(v["https-cert"], "SIMULATOR_HTTPS_CERT");
  const key = pick(v["https-key"], "SIMULATOR_HTTPS_KEY");
  if ((cert === undefined) !== (key === undefined))
    throw new SimulatorOptionError("--https-cert and --https-key go together");
  if (cert !== undefined && key !== undefined) {
    try {
      options.https = { cert: readFileSync(cert), key: readFileSync(key) };
    } catch (error: unknown) {
      throw new SimulatorOptionError(
        `Cannot read the HTTPS certificate or key: ${messageOf(error)}`
      );
    }
  }
  // A long-running server keeps a bounded log.
  options.maxLogEntries = 10_000;
  return {
    help: v.help ?? false,
    quiet: v.quiet ?? env.SIMULATOR_QUIET === "true",
    simulator: options,
  };
}

/** The banner printed at start: the URL and, when it is accepted, the demo key (custom keys are not echoed). */
export function banner(sim: RunningSimulator, options: SimulatorOptions): string {
  const keys = options.apiKeys ?? [DEMO_API_KEY];
  const custom = keys.filter((k) => k !== DEMO_API_KEY).length;
  return [
    `Cryptometrics simulator listening on ${sim.url}  (simulated data, not real figures)`,
    keys.includes(DEMO_API_KEY) ? `Demo API key: ${DEMO_API_KEY}` : "",
    custom > 0
      ? `Also accepting ${custom} custom key(s) given with --key/SIMULATOR_KEYS (not printed).`
      : "",
    options.readings && Object.keys(options.readings).length > 0
      ? `Readings: ${Object.entries(options.readings)
          .map(([name, value]) => `${name}=${String(value)}`)
          .join(", ")}; the others the least helpful (--help lists them).`
      : "Readings of the interface: the least helpful everywhere (--help lists the others).",
    "Press Ctrl+C to stop.",
  ]
    .filter(Boolean)
    .join("\n");
}

/**
 * SimulatorOptions from the SIMULATOR_* environment variables alone (same rules as the CLI), for tools that
 * start the simulator in-process, such as `npm start`. Throws SimulatorOptionError on an invalid value.
 */
export function simulatorOptionsFromEnv(env: Env): SimulatorOptions {
  return parseCliOptions([], env).simulator;
}
