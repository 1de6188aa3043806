/**
 * Settings: the API key (masked input, saved in OfficeRuntime.storage, never in the workbook; shown only as
 * its last four characters), "Test connection" in plain words within 3 seconds, "Forget key"; the service
 * address and the rate limit. A pasted key is tried against the service before it is saved: a key the
 * service refuses is not kept (one it cannot check, the service being unreachable, is kept and says so).
 * Fields check themselves inline (aria-invalid, the reason under the field) before anything is sent.
 * The size of the cache saved on this computer, with "Clear cache". The key typed in the field is cleared
 * once handled: the page does not keep it around.
 */
import {
  CONNECTION_TEST_LIMITS,
  testConnection,
  type ConnectionOutcome,
} from "../../runtime/connection-test";
import type { AppContext } from "../app-context";
import { apiKeyProblem, rateLimitProblem, serviceUrlProblem } from "../model/field-checks";
import { h, replaceChildren } from "../../ui/dom";
import { textField } from "../../ui/controls";
import { statusLine, withBusy, type StatusLine } from "../../ui/status";
import { explainError } from "../model/plain-errors";
import { describeCache } from "../../runtime/cache-controls";

/** The cache grows as cells are calculated: its size is read again this often while Settings is shown. */
const CACHE_TICK_MS = 10_000;

function cacheSection(ctx: AppContext): HTMLElement {
  const state = h("p", { id: "cache-state", class: "hint" }, "Reading the cache size…");
  const status = statusLine("cache-status");
  const show = async (): Promise<void> => {
    try {
      state.textContent = describeCache(await ctx.cache.info());
    } catch (error) {
      state.textContent = explainError(error, "read the cache size").message;
    }
  };
  const clear = h("fluent-button", { id: "clear-cache", appearance: "outline" }, "Clear cache");
  clear.addEventListener(
    "click",
    () =>
      void withBusy(
        clear,
        status,
        "Clearing…",
        async () => {
          await ctx.cache.clear();
          await show();
          status.show("success", "Cleared. The next calculation asks the service again.");
        },
        (error) => status.error(explainError(error, "clear the cache").message)
      )
  );
  const section = h(
    "div",
    { class: "stack", id: "cache-section" },
    h("h3", {}, "Cache"),
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
  const keyField = textField({
    id: "api-key",
    label: "API key",
    type: "password",
    placeholder: "Paste your API key",
  });
  const keyStatus = statusLine("key-status");
  const connectionResult = statusLine("connection-result");
  const urlField = textField({
    id: "base-url",
    label: "Service address",
    type: "url",
    placeholder: "https://…",
    hint:
      ctx.build.mode === "development"
        ? "Development builds point at the local simulator (demo data)."
        : "The metrics service's address; plain http is accepted for this computer only.",
  });
  const rateField = textField({
    id: "rate-limit",
    label: "Requests per minute (your plan's limit)",
    inputmode: "numeric",
    maxlength: 4,
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
    urlField.setValue(snapshot.baseUrl);
    rateField.setValue(String(snapshot.rateLimitPerMinute));
  };

  /** The connection test with its 3-second policy; `candidate` tries a key that is not saved yet. */
  const probe = (candidate?: string): Promise<ConnectionOutcome> =>
    testConnection(async () => {
      const runtime = await ctx.runtime();
      return candidate === undefined
        ? runtime.probeClient(CONNECTION_TEST_LIMITS)
        : runtime.probeClient(CONNECTION_TEST_LIMITS, candidate);
    });

  const showOutcome = (outcome: ConnectionOutcome, line: StatusLine): void => {
    if (outcome.simulated !== undefined) ctx.source.noteResult(outcome.simulated);
    connectionResult.element.dataset.verdict = outcome.verdict;
    if (outcome.verdict === "valid") line.show("success", outcome.message);
    else
      line.error(
        outcome.message,
        outcome.verdict === "unreachable" || outcome.verdict === "service-problem"
          ? [{ id: "retry", label: "Test again", run: () => testButton.click() }]
          : []
      );
  };

  /**
   * Tries the pasted key, saves it unless the service refuses it. Returns false when nothing was saved
   * (the field then says why and keeps focus).
   */
  const tryAndSaveKey = async (line: StatusLine): Promise<boolean> => {
    const typed = keyField.value().trim();
    const problem = apiKeyProblem(typed);
    keyField.setError(problem);
    if (problem) {
      line.clear();
      keyField.focus();
      return false;
    }
    const outcome = await probe(typed);
    if (outcome.verdict === "key-rejected" || outcome.verdict === "subscription") {
      keyField.setError(
        outcome.verdict === "key-rejected"
          ? "The service refused this key, so it was not saved. Paste the whole key from your account page."
          : "The service knows this key, but your plan does not cover this data. It was not saved."
      );
      connectionResult.element.dataset.verdict = outcome.verdict;
      line.error(outcome.message);
      keyField.focus();
      return false;
    }
    await ctx.settings.saveApiKey(typed);
    keyField.setValue("");
    await refreshState();
    ctx.connectionChanged();
    if (outcome.verdict === "valid") {
      showOutcome({ ...outcome, message: `Key saved. ${outcome.message}` }, line);
    } else {
      connectionResult.element.dataset.verdict = outcome.verdict;
      line.show("info", `Key saved, but not checked: ${outcome.message}`);
    }
    return true;
  };

  const saveKey = h("fluent-button", { id: "save-key", appearance: "primary" }, "Save key");
  saveKey.addEventListener(
    "click",
    () =>
      void withBusy(
        saveKey,
        keyStatus,
        "Checking the key with the service…",
        () => tryAndSaveKey(keyStatus),
        (error) => keyStatus.error(explainError(error, "save the key").message)
      )
  );

  const testButton = h("fluent-button", { id: "test-connection" }, "Test connection");
  testButton.addEventListener(
    "click",
    () =>
      void withBusy(
        testButton,
        connectionResult,
        "Testing…",
        async () => {
          keyStatus.clear();
          // A key pasted but not yet saved is what the user means to test (and saved if it works).
          if (keyField.value().trim() !== "") {
            await tryAndSaveKey(connectionResult);
            return;
          }
          const outcome = await probe();
          showOutcome(outcome, connectionResult);
          // A working connection after a failing one: what failed to load loads now.
          if (outcome.verdict === "valid") ctx.connectionChanged();
        },
        (error) => connectionResult.error(explainError(error, "test the connection").message)
      )
  );

  const forget = h("fluent-button", { id: "forget-key", appearance: "outline" }, "Forget key");
  forget.addEventListener(
    "click",
    () =>
      void withBusy(forget, keyStatus, "Forgetting…", async () => {
        await ctx.settings.forgetApiKey();
        await refreshState();
        connectionResult.clear();
        keyStatus.show("success", "The key was removed from this computer.");
        ctx.connectionChanged();
      })
  );

  const saveService = h("fluent-button", { id: "save-connection" }, "Save service settings");
  saveService.addEventListener(
    "click",
    () =>
      void withBusy(
        saveService,
        serviceStatus,
        "Saving…",
        async () => {
          const urlProblem = serviceUrlProblem(urlField.value());
          const rateProblem = rateLimitProblem(rateField.value());
          urlField.setError(urlProblem);
          rateField.setError(rateProblem);
          if (urlProblem || rateProblem) {
            serviceStatus.clear();
            (urlProblem ? urlField : rateField).focus();
            return;
          }
          await ctx.settings.saveConnection(urlField.value(), Number(rateField.value().trim()));
          await refreshState();
          // What was said about the old connection no longer holds.
          keyStatus.clear();
          connectionResult.clear();
          delete connectionResult.element.dataset.verdict;
          serviceStatus.show("success", "Saved. Formulas use the new settings from now on.");
          ctx.connectionChanged();
        },
        (error) => {
          urlField.setError(explainError(error, "save the service address").message);
          serviceStatus.clear();
          urlField.focus();
        }
      )
  );
  // A fixed field loses its error at once; a new one shows when the field is left.
  for (const [field, problem] of [
    [urlField, serviceUrlProblem],
    [rateField, rateLimitProblem],
    [keyField, apiKeyProblem],
  ] as const) {
    field.input.addEventListener("input", () => {
      if (field.input.hasAttribute("data-invalid") && !problem(field.value()))
        field.setError(undefined);
    });
  }

  void refreshState();
  return h(
    "div",
    { class: "stack" },
    h("h3", {}, "Your API key"),
    keyState,
    keyField.element,
    h("div", { class: "buttons" }, saveKey, testButton, forget),
    keyStatus.element,
    connectionResult.element,
    h("fluent-divider", { role: "separator" }),
    h("h3", {}, "Service"),
    urlField.element,
    rateField.element,
    h("div", { class: "buttons" }, saveService),
    serviceStatus.element,
    h("fluent-divider", { role: "separator" }),
    cacheSection(ctx),
    h("fluent-divider", { role: "separator" }),
    h("h3", {}, "Help"),
    h(
      "p",
      { class: "hint" },
      "Every CRYPTO function, its arguments and options: ",
      h(
        "fluent-link",
        {
          id: "settings-help-link",
          href: ctx.build.helpUrl,
          target: "_blank",
          rel: "noopener noreferrer",
        },
        "Function reference"
      ),
      "."
    ),
    ctx.workbook.kind === "excel"
      ? null
      : h(
          "p",
          { class: "hint", id: "workbook-kind" },
          ctx.workbook.kind === "recording"
            ? "Outside Excel: workbook actions are recorded, not written."
            : "Outside Excel: open Cryptometrics from Excel to write into a workbook."
        )
  );
}
