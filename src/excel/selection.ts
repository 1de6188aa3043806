/**
 * The active cell, for the diagnostics panel, and word of selection changes. Selection events come from the
 * common API (Office.context.document), available on every Excel that runs the add-in.
 */
import type { ExcelRun } from "./run";

export function activeCellAddress(run: ExcelRun): Promise<string> {
  return run(async (context) => {
    const cell = context.workbook.getActiveCell();
    cell.load("address");
    await context.sync();
    return cell.address;
  });
}

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

export function onSelectionChanged(events: SelectionEvents, listener: () => void): () => void {
  const handler = (): void => listener();
  events.add(handler);
  return () => events.remove(handler);
}
