/**
 * Settings: the API key (masked input, saved in OfficeRuntime.storage, never in the workbook; shown only as
 * its last four characters), "Test connection" in plain words, "Forget key"; the service URL and the rate
 * limit; the size of the cache saved on this computer, with "Clear cache". The key typed in the field is
 * cleared as soon as it is saved: the page does not keep it around.
 */
import { describeCache } from "../../runtime/cache-controls";
import { testConnection } from "../../runtime/connection-test";
import type { AppContext } from "../app-context";
import { h, replaceChildren } from "../../ui/dom";
import { setValue, valueOf } from "../../ui/fluent";
import { statusLine, withBusy } from "../../ui/status";
import { messageOf } from "../../client/errors";

const TEST_TIMEOUT_MS = 20_000;
/** The cache grows as cells are calculated: its size is read again this often while Settings is shown. */
const CACHE_TICK_MS = 10_000;

function cacheSection(ctx: AppContext): HTMLElement {
  const state = h("p", { id: "cache-state", class: "hint" }, "Reading the cache size…");
  const status = statusLine("cache-status");
  const show = async (): Promise<void> => {
    try {
      state.textContent = describeCache(await ctx.cache.info());
    } catch (error) {
      state.textContent = `The cache size cannot be read: ${messageOf(error)}`;
    }
  };
  const clear = h("fluent-button", { id: "clear-cache", appearance: "outline" }, "Clear cache");
  clear.addEventListener("click", () =>
    withBusy(clear, status, "Clearing…", async () => {
      await ctx.cache.clear();
      await show();
      status.show("success", "Cleared. The next calculation asks the service again.");
    })
  );
  const section = h(
    "div",
    { class: "stack", id: "cache-section" },
    h("h2", {}, "Cache"),
    h(
      "p",
      { class: "hint" },
      "Answers are kept on this computer, so a workbook reopened the same day needs no request. Catalogues stay fresh for 24 hours, figures until the service's daily update (00:00 UTC); older ones are shown, marked stale, only when the service cannot be reached."
    ),
    state,
    h("div", { class: "buttons" }, clear),
    status.element
  );
  void show();
  setInterval(() => {
    if (section.isConnected && section.offsetParent !== null) void show();
  }, CACHE_TICK_MS);
  return section;
}

export function settingsView(ctx: AppContext): HTMLElement {
  const keyState = h("p", { id: "key-state", class: "hint" });
  const keyField = h(
    "fluent-text-field",
    { id: "api-key", type: "password", placeholder: "Paste your API key", autocomplete: "off" },
    "API key"
  );
  const keyStatus = statusLine("key-status");
  const connectionResult = statusLine("connection-result");
  const urlField = h(
    "fluent-text-field",
    { id: "base-url", type: "url", placeholder: "https://…", autocomplete: "off" },
    "Service URL"
  );
  const rateField = h("input", {
    id: "rate-limit",
    class: "input",
    type: "number",
    min: 1,
    max: 6000,
    step: 1,
  });
  const serviceStatus = statusLine("service-status");

  const refreshState = async (): Promise<void> => {
    const snapshot = await ctx.settings.snapshot();
    replaceChildren(
      keyState,
      snapshot.hasKey
        ? `Key in use: ${snapshot.maskedKey}${snapshot.usingDefaultKey ? " (the simulator's demo key)" : ""}. Stored on this computer, outside the workbook.`
        : "No key saved. Paste the key from your account page."
    );
    setValue(urlField, snapshot.baseUrl);
    rateField.value = String(snapshot.rateLimitPerMinute);
  };

  const saveKey = h("fluent-button", { id: "save-key", appearance: "accent" }, "Save key");
  saveKey.addEventListener("click", () =>
    withBusy(saveKey, keyStatus, "Saving…", async () => {
      await ctx.settings.saveApiKey(valueOf(keyField));
      setValue(keyField, "");
      await refreshState();
      keyStatus.show("success", "Key saved. Test the connection to check it.");
      ctx.connectionChanged();
    })
  );

  const testButton = h("fluent-button", { id: "test-connection" }, "Test connection");
  testButton.addEventListener("click", () =>
    withBusy(testButton, connectionResult, "Testing…", async () => {
      // A key pasted but not yet saved is what the user means to test.
      if (valueOf(keyField).trim() !== "") {
        await ctx.settings.saveApiKey(valueOf(keyField));
        setValue(keyField, "");
        await refreshState();
      }
      let stopRetries = (): void => undefined;
      const outcome = await testConnection(async () => {
        const client = (await ctx.runtime()).client;
        stopRetries = client.on("retry", (e) =>
          connectionResult.show("busy", `Testing… no good answer yet (${e.reason}); trying again.`)
        );
        return client;
      }, AbortSignal.timeout(TEST_TIMEOUT_MS)).finally(() => stopRetries());
      if (outcome.simulated !== undefined) ctx.source.noteResult(outcome.simulated);
      connectionResult.element.dataset.verdict = outcome.verdict;
      connectionResult.show(outcome.verdict === "valid" ? "success" : "error", outcome.message);
      if (outcome.verdict === "valid") ctx.connectionChanged();
    })
  );

  const forget = h("fluent-button", { id: "forget-key", appearance: "outline" }, "Forget key");
  forget.addEventListener("click", () =>
    withBusy(forget, keyStatus, "Forgetting…", async () => {
      await ctx.settings.forgetApiKey();
      await refreshState();
      keyStatus.show("success", "The key was removed from this computer.");
      ctx.connectionChanged();
    })
  );

  const saveService = h("fluent-button", { id: "save-connection" }, "Save service settings");
  saveService.addEventListener("click", () =>
    withBusy(saveService, serviceStatus, "Saving…", async () => {
      await ctx.settings.saveConnection(valueOf(urlField), Number(rateField.value));
      await refreshState();
      serviceStatus.show("success", "Saved. Formulas use the new settings from now on.");
      ctx.connectionChanged();
    })
  );

  void refreshState();
  return h(
    "div",
    { class: "stack" },
    h("h2", {}, "Your API key"),
    keyState,
    keyField,
    h("div", { class: "buttons" }, saveKey, testButton, forget),
    keyStatus.element,
    connectionResult.element,
    h("fluent-divider", {}),
    h("h2", {}, "Service"),
    urlField,
    h(
      "p",
      { class: "hint" },
      ctx.build.mode === "development"
        ? "Development builds point at the local simulator (demo data)."
        : "The metrics service's address; plain http is accepted for this computer only."
    ),
    h(
      "div",
      { class: "field" },
      h("label", { for: "rate-limit", class: "label" }, "Requests per minute (your plan's limit)"),
      rateField
    ),
    h("div", { class: "buttons" }, saveService),
    serviceStatus.element,
    h("fluent-divider", {}),
    cacheSection(ctx)
  );
}
