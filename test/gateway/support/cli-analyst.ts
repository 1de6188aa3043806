/**
 * An analyst as a process of their own: the command-line evaluator (the add-in's functions, engine and client,
 * one runtime per process as one Excel has) running a model's formulas as one recalculation, against the
 * service straight or a gateway with a token. Each analyst has their own cache directory (which also holds the
 * CLI's rate budget) and saves nothing, so analysts share nothing but what the gateway shares.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

interface AnalystRun {
  /** What the formulas gave (the CLI's JSON output), or the failure text. */
  results: unknown;
  code: number | null;
  stderr: string;
}

export async function runAnalyst(
  cli: string,
  baseUrl: string,
  key: string,
  formulas: readonly string[]
): Promise<AnalystRun> {
  const dir = mkdtempSync(join(tmpdir(), "cm-analyst-"));
  const keyFile = join(dir, "key");
  writeFileSync(keyFile, key, { mode: 0o600 });
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      [
        cli,
        "eval",
        "--base-url",
        baseUrl,
        "--api-key-file",
        keyFile,
        "--cache-dir",
        join(dir, "cache"),
        "--no-cache",
        "--format",
        "json",
        ...formulas,
      ],
      {
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, CRYPTOMETRICS_CACHE_DIR: join(dir, "cache") },
      }
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    // "close", not "exit": a process can have exited while what it wrote is still in its pipes. On a loaded
    // machine "exit" came first and an analyst's whole answer read as nothing (seen in the team property).
    child.on("error", (error) => done({ results: undefined, code: null, stderr: String(error) }));
    child.on("close", (code) => {
      let results: unknown;
      try {
        results = JSON.parse(stdout) as unknown;
      } catch {
        results = stdout;
      }
      done({ results, code, stderr });
    });
  });
}
