/**
 * Feedback under a group of controls: ONE status line per form, so what it says is the one current story
 * (a success replaces an error and the reverse; never both). Progress and results go to a polite status
 * line that always stays in the accessibility tree (an empty line is announced when it fills, once per
 * action); an error is a Fluent message bar with role "alert", in plain words, with the actions that help
 * (Retry, Go to Settings). `data-kind` on the element says which is showing (busy, info, success, error).
 * The line sits next to the controls it reports on; an action's outcome is scrolled into view (between the
 * pane's sticky bars) when it lands.
 */
import { h, replaceChildren } from "./dom";
import { messageOf } from "../client";
import { revealInPane } from "./pane-layout";

export type StatusKind = "info" | "success" | "error" | "busy";

export interface StatusAction {
  label: string;
  run(): void;
  /** For tests and styling, e.g. "retry", "settings". */
  id?: string;
}

export interface StatusLine {
  element: HTMLElement;
  show(kind: StatusKind, message: string): void;
  /** An error the user can act on: an alert with buttons. */
  error(message: string, actions?: readonly StatusAction[]): void;
  clear(): void;
  /** Scrolls what the line shows into view, where the user's eyes are (nothing when it is empty). */
  reveal(): void;
}

export function statusLine(id: string): StatusLine {
  const polite = h("p", { class: "status-text", role: "status", id: `${id}-text` });
  const alertHost = h("div", { class: "status-alert" });
  // Focusable by script only: an action pressed inside the alert leaves focus here, not on the page body,
  // when the alert (and the pressed button with it) is replaced.
  const element = h("div", { id, class: "status", tabindex: -1 }, polite, alertHost);
  const clearAlert = (): void => replaceChildren(alertHost);
  return {
    element,
    show(kind, message) {
      clearAlert();
      element.dataset.kind = kind;
      replaceChildren(
        polite,
        kind === "busy"
          ? h("fluent-spinner", { class: "ring", size: "tiny", "aria-hidden": "true" })
          : null,
        message
      );
    },
    error(message, actions = []) {
      element.dataset.kind = "error";
      replaceChildren(polite);
      replaceChildren(
        alertHost,
        h(
          "fluent-message-bar",
          { intent: "error", layout: "multiline", role: "alert", class: "error-bar" },
          message,
          ...actions.map((action) =>
            h(
              "fluent-button",
              {
                slot: "actions",
                size: "small",
                "data-action": action.id ?? null,
                onclick: () => {
                  element.focus();
                  action.run();
                },
              },
              action.label
            )
          )
        )
      );
    },
    clear() {
      delete element.dataset.kind;
      replaceChildren(polite);
      clearAlert();
    },
    reveal() {
      if (element.dataset.kind) revealInPane(element);
    },
  };
}

/**
 * Marks a button busy without taking it out of the focus order: `disabled-focusable` makes a Fluent button
 * aria-disabled and deaf to clicks while keeping keyboard focus on it (a disabled button would drop focus
 * to the page body).
 */
function setBusy(button: HTMLElement, busy: boolean): void {
  setInactive(button, busy);
}

/**
 * A Fluent button that cannot be used right now but keeps its place in the focus order: `disabled-focusable`
 * (aria-disabled in the component's ElementInternals), with aria-disabled on the element as well for
 * checkers and hosts that read only attributes.
 */
export function setInactive(button: HTMLElement, inactive: boolean): void {
  button.toggleAttribute("disabled-focusable", inactive);
  if (inactive) button.setAttribute("aria-disabled", "true");
  else button.removeAttribute("aria-disabled");
}

function isBusy(button: HTMLElement): boolean {
  return button.hasAttribute("disabled-focusable");
}

/**
 * Runs an action with its button busy and the outcome on the status line. A second press while busy is
 * ignored. A failure goes to `onError` (which words it and offers actions), else to the line as it is.
 * Never rejects: a click handler can start it with `void` and be done.
 */
export async function withBusy<T>(
  button: HTMLElement,
  status: StatusLine,
  busyText: string,
  action: () => Promise<T>,
  onError?: (error: unknown) => void
): Promise<T | undefined> {
  if (isBusy(button)) return undefined;
  setBusy(button, true);
  status.show("busy", busyText);
  try {
    return await action();
  } catch (error) {
    if (onError) onError(error);
    else status.error(messageOf(error));
    return undefined;
  } finally {
    setBusy(button, false);
    // The outcome lands where the user looks: next to the button, scrolled into view.
    status.reveal();
  }
}
