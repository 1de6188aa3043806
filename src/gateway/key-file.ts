/**
 * Reading the gateway's secret files (the service key, the key-encryption key, the tokens): errors in the
 * operator's words, and a size cap so that a wrong path (a log, a binary) is refused before it is read whole.
 */
import { readFileSync, statSync } from "node:fs";

/** Why a file could not be read: "no such file", "permission denied", or the error's own message. */
export function fileProblem(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  if (code === "ENOENT") return "no such file";
  if (code === "EACCES") return "permission denied";
  return error instanceof Error ? error.message : String(error);
}

/** The text of a key file of at most `maxKb` KB; otherwise throws `failure(why)`. */
export function readKeyFile(file: string, maxKb: number, failure: (why: string) => Error): string {
  try {
    if (statSync(file).size > maxKb * 1_024)
      throw new Error(`it is over ${maxKb} KB: not a key file`);
    return readFileSync(file, "utf8");
  } catch (error) {
    throw failure(fileProblem(error));
  }
}
