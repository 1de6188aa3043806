import { Grid } from "../../sheet/cells";

/** One formula's outcome as the output formats receive it. */
export interface FormattedResult {
  /** The canonical formula text, `=CRYPTO.NAME(args)`. */
  formula: string;
  grid: Grid;
}

export const OUTPUT_FORMATS = ["table", "csv", "json"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
