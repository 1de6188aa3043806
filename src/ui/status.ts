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

/** Runs an action with its button disabled and the outcome on the status line. */
export async function withBusy<T>(
  button: HTMLElement,
  status: StatusLine,
  busyText: string,
  action: () => Promise<T>
): Promise<T | undefined> {
  button.setAttribute("disabled", "");
  status.show("busy", busyText);
  try {
    return await action();
  } catch (error) {
    status.show("error", messageOf(error));
    return undefined;
  } finally {
    button.removeAttribute("disabled");
  }
}
