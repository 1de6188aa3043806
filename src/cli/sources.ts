/**
 * Where the formulas of one invocation come from, each with a label for messages: "formulas.txt:3" for
 * line 3 of a --file, "formula 2" for the second FORMULA argument.
 */
import { readFileSync } from "fs";
import { describeReadError, UsageError } from "./errors";

export interface FormulaSource {
  readonly text: string;
  readonly label: string;
  /** A line of a --file (its errors stay with it) rather than a FORMULA argument. */
  readonly fromFile?: boolean;
}

/**
 * A line of a --file. Its label is made when asked for: a model of 100,000 lines would otherwise hold
 * 100,000 "model.txt:<n>" strings for the few messages that name a line.
 */
class FileLine implements FormulaSource {
  readonly fromFile = true;
  constructor(
    readonly text: string,
    private readonly path: string,
    private readonly line: number
  ) {}

  get label(): string {
    return `${this.path}:${this.line}`;
  }
}

export type ReadText = (path: string) => string;

const readUtf8: ReadText = (path) => readFileSync(path, "utf8");

/** One formula per non-empty line; a UTF-8 byte order mark and CRLF line ends are tolerated. */
function formulasInFile(path: string, read: ReadText = readUtf8): FormulaSource[] {
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
      .map((line, i): FormulaSource => new FileLine(line, path, i + 1))
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
