/**
 * The views' one way to report a failure and run a button's action: plain words (plain-errors.ts) on the
 * status line as an alert, with Retry and Go to Settings buttons where they help. Retry and the busy state
 * keep keyboard focus on the page: the action's own button stays focusable while busy (aria-disabled), and
 * a Retry pressed inside the alert hands focus to that button before the alert is replaced.
 */
import type { AppContext } from "../app-context";
import { explainError } from "../model/plain-errors";
import { withBusy, type StatusAction, type StatusLine } from "../../ui/status";

export function reportError(
  ctx: Pick<AppContext, "navigate">,
  status: StatusLine,
  error: unknown,
  doing: string,
  retry?: () => void
): void {
  const plain = explainError(error, doing);
  const actions: StatusAction[] = [];
  for (const action of plain.actions) {
    if (action === "retry" && retry) actions.push({ id: "retry", label: "Retry", run: retry });
    if (action === "settings")
      actions.push({
        id: "settings",
        label: "Go to Settings",
        run: () => ctx.navigate("settings"),
      });
  }
  status.error(plain.message, actions);
}

/**
 * Wires a button to an action: busy while it runs, failures reported in plain words with Retry (which
 * focuses the button again and re-runs the action).
 */
export function onPress<T>(
  ctx: Pick<AppContext, "navigate">,
  button: HTMLElement,
  status: StatusLine,
  busyText: string,
  doing: string,
  action: () => Promise<T>
): void {
  const run = (): Promise<T | undefined> =>
    withBusy(button, status, busyText, action, (error) =>
      reportError(ctx, status, error, doing, () => {
        button.focus();
        void run();
      })
    );
  button.addEventListener("click", () => void run());
}

/**
 * Runs a button's action once: busy while it runs, a failure said in plain words on the status line. No Retry:
 * the button is next to it.
 */
export function runBusy<T>(
  button: HTMLElement,
  status: StatusLine,
  busyText: string,
  doing: string,
  action: () => Promise<T>
): Promise<T | undefined> {
  return withBusy(button, status, busyText, action, (error) =>
    status.error(explainError(error, doing).message)
  );
}
