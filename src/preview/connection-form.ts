/**
 * The preview page's connection settings: the same stored settings as the taskpane (same origin, same
 * storage), in a compact form. Development builds start on the simulator with its demo key.
 */
import type { Settings } from "../runtime/settings";
import { testConnection, type ConnectionClient } from "../runtime/connection-test";
import { h } from "../ui/dom";
import { statusLine, withBusy } from "../ui/status";

export function connectionForm(
  settings: Settings,
  client: () => Promise<ConnectionClient>,
  saved: (simulated: boolean | undefined) => void
): HTMLElement {
  const summary = h("summary", { id: "connection-summary" }, "Connection");
  const url = h("input", {
    id: "preview-base-url",
    class: "input",
    type: "url",
    autocomplete: "off",
  });
  const key = h("input", {
    id: "preview-api-key",
    class: "input",
    type: "password",
    autocomplete: "off",
    placeholder: "Paste your API key (leave empty to keep the saved one)",
  });
  const status = statusLine("preview-connection-status");
  const details = h(
    "details",
    { id: "connection" },
    summary,
    h("div", { class: "field" }, h("label", { for: url.id, class: "label" }, "Service URL"), url),
    h("div", { class: "field" }, h("label", { for: key.id, class: "label" }, "API key"), key)
  );
  const show = async (): Promise<void> => {
    const s = await settings.snapshot();
    url.value = s.baseUrl;
    summary.textContent = s.baseUrl
      ? `Connection: ${s.baseUrl} · key ${s.hasKey ? s.maskedKey : "not set"}`
      : "Connection: not set up";
    details.open = !s.baseUrl || !s.hasKey;
  };
  const save = h("fluent-button", { id: "preview-save", appearance: "accent" }, "Save and test");
  save.addEventListener("click", () =>
    withBusy(save, status, "Testing…", async () => {
      await settings.saveConnection(url.value, await settings.rateLimit());
      if (key.value.trim() !== "") await settings.saveApiKey(key.value);
      key.value = "";
      const outcome = await testConnection(client, AbortSignal.timeout(20_000));
      status.show(outcome.verdict === "valid" ? "success" : "error", outcome.message);
      await show();
      details.open = outcome.verdict !== "valid";
      saved(outcome.simulated);
    })
  );
  details.append(h("div", { class: "buttons" }, save));
  void show();
  // The outcome stays in view when the form folds away after a successful test.
  return h("div", { class: "connection" }, details, status.element);
}
