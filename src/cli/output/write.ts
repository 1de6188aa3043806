/**
 * Writing the results out a piece at a time: a `PROJECTS()` of 125,000 rows as JSON is over 200 MB of text,
 * which built as one string (and its copy on the way to the pipe) would double the process's memory.
 */
import { formatChunks } from "./index";
import type { FormattedResult, OutputFormat } from "./types";

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
  results: readonly FormattedResult[]
): Promise<void> {
  let piece = "";
  for (const chunk of formatChunks(format, results)) {
    piece += chunk;
    if (piece.length < OUTPUT_PIECE_CHARS) continue;
    sink.stdout(piece);
    piece = "";
    await sink.drain?.();
  }
  if (piece !== "") sink.stdout(piece);
}
