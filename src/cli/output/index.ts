import { formatCsv } from "./csv";
import { formatJson } from "./json";
import { formatTable } from "./table";
import { FormattedResult, OutputFormat } from "./types";

export { OUTPUT_FORMATS } from "./types";
export type { FormattedResult, OutputFormat } from "./types";

export function formatResults(format: OutputFormat, results: readonly FormattedResult[]): string {
  switch (format) {
    case "table":
      return formatTable(results);
    case "csv":
      return formatCsv(results);
    case "json":
      return formatJson(results);
  }
}
