/**
 * The command line's output: the three formats (table.ts, csv.ts, json.ts) over one result type, written a
 * piece at a time.
 */
import type { FormattedResult } from "./cells-text";
import { csvChunks } from "./csv";
import { jsonChunks } from "./json";
import { tableChunks } from "./table";
import type { Lineage } from "../../functions/lineage";

export type { FormattedResult } from "./cells-text";

export const OUTPUT_FORMATS = ["table", "csv", "json"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The output a piece at a time (a line, a row): the CLI writes it as it goes, never all of it at once. */
function formatChunks(
  format: OutputFormat,
  results: readonly FormattedResult[],
  lineage?: readonly Lineage[]
): Iterable<string> {
  switch (format) {
    case "table":
      return tableChunks(results);
    case "csv":
      return csvChunks(results);
    case "json":
      // Lineage only in json (flags.ts refuses --lineage with another format).
      return jsonChunks(results, lineage);
  }
}

/** The whole output as one text (for tests and small outputs). */
export function formatResults(
  format: OutputFormat,
  results: readonly FormattedResult[],
  lineage?: readonly Lineage[]
): string {
  let text = "";
  for (const chunk of formatChunks(format, results, lineage)) text += chunk;
  return text;
}

/*
 * Writing the results out a piece at a time: a `PROJECTS()` of 125,000 rows as JSON is over 200 MB of text,
 * which built as one string (and its copy on the way to the pipe) would double the process's memory.
 */
export interface OutputSink {
  stdout(text: string): void;
  /** Resolves once what stdout was given has been handed on; waited for between pieces. */
  drain?(): Promise<void>;
}

/** 64 KB: a pipe's buffer on Linux, and few enough writes for a 200 MB output (about 3,500). */
export const OUTPUT_PIECE_CHARS = 64 * 1024;

export async function writeResults(
  sink: OutputSink,
  format: OutputFormat,
  results: readonly FormattedResult[],
  lineage?: readonly Lineage[]
): Promise<void> {
  let piece = "";
  for (const chunk of formatChunks(format, results, lineage)) {
    piece += chunk;
    if (piece.length < OUTPUT_PIECE_CHARS) continue;
    sink.stdout(piece);
    piece = "";
    await sink.drain?.();
  }
  if (piece !== "") sink.stdout(piece);
}
