/**
 * Where the formulas of one invocation come from, each with a label for messages: "formulas.txt:3" for
 * line 3 of a --file, "formula 2" for the second FORMULA argument.
 */
import { readFileSync } from "fs";
import { UsageError } from "./errors";
import { firstLineOf } from "../client/errors";

export interface FormulaSource {
  text: string;
  label: string;
  /** A line of a --file (its errors stay with it) rather than a FORMULA argument. */
  fromFile?: boolean;
}

export type ReadText = (path: string) => string;

const readUtf8: ReadText = (path) => readFileSync(path, "utf8");

function describeReadError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ENOENT") return "no such file";
  if (code === "EISDIR") return "is a directory";
  if (code === "EACCES") return "permission denied";
  return firstLineOf(error);
}

/** One formula per non-empty line; a UTF-8 byte order mark and CRLF line ends are tolerated. */
export function formulasInFile(path: string, read: ReadText = readUtf8): FormulaSource[] {
  let text: string;
  try {
    text = read(path);
  } catch (error) {
    throw new UsageError("usage", `cannot read --file ${path}: ${describeReadError(error)}`, {
      cause: error,
    });
  }
  return (
    text
      .replace(/^\uFEFF/, "")
      .split(/\r\n|\r|\n/)
      // Untrimmed, so a syntax error's column is the column in the file.
      .map((line, i) => ({ text: line, label: `${path}:${i + 1}`, fromFile: true }))
      .filter((source) => source.text.trim() !== "")
  );
}

export function collectFormulas(
  files: readonly string[],
  formulas: readonly string[],
  read: ReadText = readUtf8
): FormulaSource[] {
  const sources = [
    ...files.flatMap((path) => formulasInFile(path, read)),
    ...formulas.map((text, i) => ({ text, label: `formula ${i + 1}` })),
  ];
  if (sources.length === 0)
    throw new UsageError("usage", "no formula: pass FORMULA arguments or --file PATH");
  return sources;
}
