import { csvChunks } from "./csv";
import { jsonChunks } from "./json";
import { tableChunks } from "./table";
import { FormattedResult, OutputFormat } from "./types";

export { OUTPUT_FORMATS } from "./types";
export type { FormattedResult, OutputFormat } from "./types";

/** The output a piece at a time (a line, a row): the CLI writes it as it goes, never all of it at once. */
export function formatChunks(
  format: OutputFormat,
  results: readonly FormattedResult[]
): Iterable<string> {
  switch (format) {
    case "table":
      return tableChunks(results);
    case "csv":
      return csvChunks(results);
    case "json":
      return jsonChunks(results);
  }
}

/** The whole output as one text (for tests and small outputs). */
export function formatResults(format: OutputFormat, results: readonly FormattedResult[]): string {
  let text = "";
  for (const chunk of formatChunks(format, results)) text += chunk;
  return text;
}
