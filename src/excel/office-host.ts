/**
 * What Office itself provides to src/excel, and the only file here that touches Office's globals (the lint
 * rule's edge list names it): Excel.run, the requirement-set check and the document's selection events.
 * Every other module takes them injected, so unit tests hand them a context built with office-addin-mock and
 * nothing reaches for the Excel global except the defaults below.
 */

/** Excel.run, injected: each module here takes the runner. */
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

/**
 * Word of selection changes. Selection events come from the common API (Office.context.document), available
 * on every Excel that runs the add-in.
 */
export interface SelectionEvents {
  add(handler: () => void): void;
  remove(handler: () => void): void;
}

export const officeSelectionEvents: SelectionEvents = {
  add: (handler) =>
    Office.context.document.addHandlerAsync(Office.EventType.DocumentSelectionChanged, handler),
  remove: (handler) =>
    Office.context.document.removeHandlerAsync(Office.EventType.DocumentSelectionChanged, {
      handler,
    }),
};
