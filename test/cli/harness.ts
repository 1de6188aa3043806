/**
 * Runs the CLI in-process against the fake functions module (test/fixtures/cli), with a recording
 * runtime configuration in place of src/runtime.
 */
import { readFileSync } from "fs";
import { resolve } from "path";
import { installCliHost } from "../../src/cli/host";
import { CliDeps, CliEnv, CliIo, run, RuntimeSettings } from "../../src/cli/main";
import { createRegistry } from "../../src/sheet/registry";
import * as fakeFunctions from "../fixtures/cli/functions";

export const fixtureMeta: unknown = JSON.parse(
  readFileSync(resolve(__dirname, "../fixtures/cli/functions.meta.json"), "utf8")
);

export const BASE = ["--base-url", "https://metrics.example"];

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
  configured: RuntimeSettings[];
}

/** An error like the runtime's CryptometricsError for a refused configuration. */
class InvalidInput extends Error {
  readonly kind = "invalid-input";
}

export function fakeDeps(configured: RuntimeSettings[], overrides: Partial<CliDeps> = {}): CliDeps {
  return {
    installHost: (legacy) => installCliHost(globalThis, legacy),
    loadRegistry: () => createRegistry(fixtureMeta, fakeFunctions),
    configureRuntime: (settings) => {
      const url = new URL(settings.baseUrl);
      if (
        url.protocol === "http:" &&
        url.hostname !== "127.0.0.1" &&
        url.hostname !== "localhost"
      ) {
        throw new InvalidInput(`refusing plain http base URL ${settings.baseUrl}: use https`);
      }
      configured.push(settings);
    },
    // The fake runtime uses no cache directory: nothing is checked or created (tests of the rule inject theirs).
    checkCacheDir: (dir) => ({ ok: true, dir }),
    ...overrides,
  };
}

export async function runCli(
  argv: readonly string[],
  options: {
    env?: CliEnv;
    signal?: AbortSignal;
    deps?: Partial<CliDeps>;
    /** More of the streams' side: a terminal's key prompt. */
    io?: Pick<CliIo, "promptKey">;
  } = {}
): Promise<Outcome> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const configured: RuntimeSettings[] = [];
  const io = {
    stdout: (text: string) => void stdout.push(text),
    stderr: (text: string) => void stderr.push(text),
    ...(options.signal ? { signal: options.signal } : {}),
    ...options.io,
  };
  const code = await run(argv, options.env ?? {}, io, fakeDeps(configured, options.deps));
  return { code, stdout: stdout.join(""), stderr: stderr.join(""), configured };
}

/** eval with a base URL and json output: the parsed results. */
export async function evalJson(
  ...formulas: string[]
): Promise<{ code: number; results: unknown[] }> {
  const outcome = await runCli(["eval", ...BASE, "--format", "json", ...formulas]);
  if (outcome.stderr !== "") throw new Error(`unexpected stderr: ${outcome.stderr}`);
  return { code: outcome.code, results: JSON.parse(outcome.stdout) as unknown[] };
}

export function resetFixtureLog(): void {
  fakeFunctions.callLog.length = 0;
  fakeFunctions.cancelled.length = 0;
}
