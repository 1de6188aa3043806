/** A line of feedback under a group of controls: polite live region, kind shown by colour and a word. */
import { h, replaceChildren } from "./dom";
import { messageOf } from "../client/errors";

export type StatusKind = "info" | "success" | "error" | "busy";

export interface StatusLine {
  element: HTMLElement;
  show(kind: StatusKind, message: string): void;
  clear(): void;
}

export function statusLine(id: string): StatusLine {
  const element = h("p", { id, class: "status", role: "status", "aria-live": "polite" });
  return {
    element,
    show(kind, message) {
      element.dataset.kind = kind;
      replaceChildren(
        element,
        kind === "busy"
          ? h("fluent-progress-ring", { class: "ring", "aria-hidden": "true" })
          : null,
        message
      );
    },
    clear() {
      delete element.dataset.kind;
      replaceChildren(element);
    },
  };
}

/**
 * Starts an action with its button disabled and a failure shown on the status line. Returns nothing and
 * never rejects, so a click handler can start it and be done: every outcome ends on the status line.
 */
export function withBusy(
  button: HTMLElement,
  status: StatusLine,
  busyText: string,
  action: () => Promise<unknown>
): void {
  void runBusy(button, status, busyText, action);
}

async function runBusy(
  button: HTMLElement,
  status: StatusLine,
  busyText: string,
  action: () => Promise<unknown>
): Promise<void> {
  button.setAttribute("disabled", "");
  status.show("busy", busyText);
  try {
    await action();
  } catch (error) {
    status.show("error", messageOf(error));
  } finally {
    button.removeAttribute("disabled");
  }
}
