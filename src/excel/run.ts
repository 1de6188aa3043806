/**
 * Excel.run, injected: each module here takes the runner, so unit tests hand it a context built with
 * office-addin-mock and nothing reaches for the Excel global except the default below.
 */
export type ExcelRun = <T>(batch: (context: Excel.RequestContext) => Promise<T>) => Promise<T>;

export const officeExcelRun: ExcelRun = (batch) => Excel.run(batch);

/** Requirement-set check (Office.context.requirements), injected for the same reason. */
export type Supports = (set: string, version: string) => boolean;

export const officeSupports: Supports = (set, version) => {
  try {
    return Office.context.requirements.isSetSupported(set, version);
  } catch {
    return false;
  }
};
