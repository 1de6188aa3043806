/**
 * The preview page's connection settings: the same stored settings as the taskpane (same origin, same
 * storage), in a compact form that folds away once the connection works: a Fluent 2 accordion item (as the
 * card view's sections; fluent.ts registers the elements), its heading a button that Enter and Space fold and
 * unfold, its label saying what the connection is while folded. Development builds start on the
 * simulator with its demo key. A new address is tried before it is kept (runtime/address-check.ts), as
 * in the taskpane's Settings; the test uses the taskpane's 3-second policy and never keeps a key the
 * service refuses. The form's one status line tells the last outcome.
 */
import type { Settings } from "../runtime/settings";
import { testConnection, type ConnectionClient } from "../runtime/connection-test";
import { checkServiceAddress } from "../runtime/address-check";
import { h, setText } from "../ui/dom";
import { submitOnEnter, textField } from "../ui/controls";
import { statusLine, withBusy } from "../ui/status";
import { apiKeyProblem, serviceUrlProblem } from "../taskpane/model/field-checks";

export function connectionForm(
  settings: Settings,
  /** A client for the test, with the key to try (undefined: the stored one). */
  client: (apiKey?: string) => Promise<ConnectionClient>,
  saved: (simulated: boolean | undefined) => void
): HTMLElement {
  const url = textField({ id: "preview-base-url", label: "Service address", type: "url" });
  const key = textField({
    id: "preview-api-key",
    label: "API key",
    type: "password",
    placeholder: "Leave empty to keep the saved one",
  });
  const status = statusLine("preview-connection-status");
  // Not primary: the page's primary action is the formula bar's Enter.
  const save = h("fluent-button", { id: "preview-save" }, "Save and test");
  submitOnEnter(url, save);
  submitOnEnter(key, save);
  const form = h(
    "div",
    { class: "stack" },
    url.element,
    key.element,
    h("div", { class: "buttons" }, save)
  );
  const label = h("span", { slot: "heading", id: "connection-label" }, "Connection");
  const item = h(
    "fluent-accordion-item",
    { id: "connection-item", "heading-level": 2, size: "small", block: true },
    label,
    form
  );
  // Multi: in single mode the accordion keeps one item open and would never let this one fold.
  const accordion = h("fluent-accordion", { id: "connection", "expand-mode": "multi" }, item);
  const setOpen = (open: boolean): void => {
    item.toggleAttribute("expanded", open);
  };
  /** The heading's button, inside the item's shadow root: where focus goes when the form folds away. */
  const focusHeading = (): void =>
    (item.shadowRoot?.querySelector<HTMLElement>("[part='button']") ?? item).focus();

  const show = async (open?: boolean): Promise<void> => {
    const s = await settings.snapshot();
    url.setValue(s.baseUrl);
    setText(
      label,
      s.baseUrl
        ? `Connection: ${s.baseUrl} · key ${s.hasKey ? s.maskedKey : "not set"}`
        : "Connection: not set up"
    );
    setOpen(open ?? (!s.baseUrl || !s.hasKey));
  };

  save.addEventListener(
    "click",
    () =>
      void withBusy(save, status, "Testing…", async () => {
        const urlProblem = serviceUrlProblem(url.value());
        const typed = key.value().trim();
        const keyProblem = typed === "" ? undefined : apiKeyProblem(typed);
        url.setError(urlProblem);
        key.setError(keyProblem);
        if (urlProblem || keyProblem) {
          status.clear();
          (urlProblem ? url : key).focus();
          return;
        }
        const stored = await settings.snapshot();
        if (url.value().trim() !== stored.baseUrl.trim()) {
          const address = await checkServiceAddress(url.value(), {
            apiKey: typed === "" ? settings.apiKey : typed,
          });
          if (!address.ok) {
            status.clear();
            url.setError(`Not saved. ${address.message}`);
            url.focus();
            return;
          }
        }
        await settings.saveConnection(url.value(), await settings.rateLimit());
        const outcome = await testConnection(() => client(typed === "" ? undefined : typed));
        if (outcome.verdict === "key-rejected") {
          // The field says it; the line stays clear (one story at a time).
          key.setError("Not saved: the service refused this key. Paste the whole key.");
          status.clear();
          key.focus();
          return;
        }
        if (typed !== "") await settings.saveApiKey(typed);
        key.setValue("");
        if (outcome.verdict === "valid") status.show("success", outcome.message);
        else status.error(outcome.message);
        await show(outcome.verdict !== "valid");
        // Focus stays on the page: on the heading's button when the form folds away.
        if (outcome.verdict === "valid") focusHeading();
        saved(outcome.simulated);
      })
  );
  void show();
  // The outcome stays in view when the form folds away after a successful test.
  return h("div", { class: "connection" }, accordion, status.element);
}
