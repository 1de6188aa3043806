/**
 * Settings, as forms that each tell one current story (one status line per form; a field's own error is
 * that form's story while it shows, and the line is clear meanwhile):
 * - Service: the service address and the rate limit. The address is tried before it is kept, as a key is
 *   (runtime/address-check.ts): a wrong one is refused under the field with what to change ("drop /v2");
 *   one that does not answer right now may be kept unchecked, saying so. Saving starts a new runtime: what
 *   was in flight for the old settings is cancelled and every view reloads.
 * - Your API key: the key in use (masked: its last four characters), the field, Save key (tried against the
 *   service first: a key the service refuses is not kept; one it cannot check is kept and says so), Test
 *   connection (plain words within 3 seconds), Forget key (shown while a key is saved on this computer). A
 *   new or forgotten key starts a new runtime too: nothing more goes out with the old key.
 * - The cache saved on this computer (its own form), and the function reference.
 * The key lives in OfficeRuntime.storage, outside the workbook; the key typed in the field is cleared
 * once handled. Each form is a function of its own (`serviceForm`, `keyForm`), so another way to connect
 * (a team gateway with sign-in) is one more form beside them.
 */
import {
  CONNECTION_TEST_LIMITS,
  testConnection,
  type ConnectionOutcome,
} from "../../runtime/connection-test";
import { checkServiceAddress, type AddressVerdict } from "../../runtime/address-check";
import type { AppContext } from "../app-context";
import {
  apiKeyProblem,
  rateLimitNote,
  rateLimitProblem,
  serviceUrlProblem,
} from "../model/field-checks";
import { h, replaceChildren, setText, type Child } from "../../ui/dom";
import { submitOnEnter, textField, type TextField } from "../../ui/controls";
import { statusLine, withBusy, type StatusLine } from "../../ui/status";
import { explainError } from "../model/plain-errors";
import { runBusy } from "./feedback";
import { describeCache } from "../../runtime/cache-controls";
import { connectionForm, type ConnectionForm } from "./sign-in-view";

/** The cache grows as cells are calculated: its size is read again this often while Settings is shown. */
const CACHE_TICK_MS = 10_000;

/**
 * One of the settings' forms (`${name}-form`), a group named by its heading (`${name}-heading`): its fields,
 * its buttons in a row, its status line last.
 */
function formGroup(
  name: string,
  heading: string,
  fields: readonly Child[],
  buttons: readonly HTMLElement[],
  status: StatusLine
): HTMLElement {
  return h(
    "div",
    { class: "stack", id: `${name}-form`, role: "group", "aria-labelledby": `${name}-heading` },
    h("h3", { id: `${name}-heading` }, heading),
    ...fields,
    h("div", { class: "buttons" }, ...buttons),
    status.element
  );
}

/** A field shown wrong loses its error as soon as its text is right (it is checked again on save). */
function clearWhenFixed(field: TextField, problem: (text: string) => string | undefined): void {
  field.input.addEventListener("input", () => {
    if (field.input.hasAttribute("data-invalid") && !problem(field.value()))
      field.setError(undefined);
  });
}

function cacheSection(ctx: AppContext): HTMLElement {
  const state = h("p", { id: "cache-state", class: "hint" }, "Reading the cache size…");
  const status = statusLine("cache-status");
  const show = async (): Promise<void> => {
    try {
      setText(state, describeCache(await ctx.cache.info()));
    } catch (error) {
      setText(state, explainError(error, "read the cache size").message);
    }
  };
  const clear = h("fluent-button", { id: "clear-cache", appearance: "outline" }, "Clear cache");
  clear.addEventListener(
    "click",
    () =>
      void runBusy(clear, status, "Clearing…", "clear the cache", async () => {
        await ctx.cache.clear();
        await show();
        status.show("success", "Cleared. The next calculation asks the service again.");
      })
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

/** What the forms share: the settings refreshed on screen, and the connection changed for every view. */
interface FormEnv {
  ctx: AppContext;
  /** Shows the stored settings again (the key in use, the address, the limit). */
  refresh(): Promise<void>;
  /** Starts a runtime on the stored settings (the old one's calls are cancelled), then views reload. */
  reconnect(): Promise<void>;
}

interface ServiceForm {
  element: HTMLElement;
  saveButton: HTMLElement;
  show(baseUrl: string, rateLimit: number): void;
  /** Puts focus on the address field, with a reason under it (a test found the address wrong). */
  flagAddress(reason: string): void;
  /** Called when the address is kept: what its answer said (undefined: kept unchecked). */
  onSaved(listener: (verdict: Extract<AddressVerdict, { ok: true }> | undefined) => void): void;
}

function serviceForm(env: FormEnv): ServiceForm {
  const { ctx } = env;
  const urlField = textField({
    id: "base-url",
    label: "Service address",
    type: "url",
    placeholder: "https://…",
    hint:
      ctx.build.mode === "development"
        ? "The metrics service's address, without /v2. Development builds start on the local simulator (demo data)."
        : "The metrics service's address, without /v2. It is tried before it is kept; plain http is accepted for this computer only.",
  });
  const rateField = textField({
    id: "rate-limit",
    label: "Requests per minute (your plan's limit)",
    inputmode: "numeric",
    maxlength: 4,
  });
  const status = statusLine("service-status");
  const save = h("fluent-button", { id: "save-connection" }, "Save service settings");
  const keepUnchecked = h(
    "fluent-button",
    { id: "keep-unchecked", appearance: "outline", hidden: true },
    "Keep the address unchecked"
  );
  let saved = { baseUrl: "", rateLimit: 0 };
  const listeners: ((verdict: Extract<AddressVerdict, { ok: true }> | undefined) => void)[] = [];

  /** Saves what the fields hold; `addressChanged` tells the key's form that what it said no longer holds. */
  const keep = async (
    message: string,
    verdict?: Extract<AddressVerdict, { ok: true }>,
    addressChanged = true
  ): Promise<void> => {
    // Saving starts the new runtime itself (the old one's calls end as cancelled).
    await ctx.settings.saveConnection(urlField.value(), Number(rateField.value().trim()));
    urlField.setError(undefined);
    keepUnchecked.hidden = true;
    await env.refresh();
    if (verdict?.simulated !== undefined) ctx.source.noteResult(verdict.simulated);
    ctx.connectionChanged();
    const note = rateLimitNote(Number(rateField.value().trim()));
    if (note) status.show("info", `${message} ${note}`);
    else status.show("success", message);
    if (addressChanged) listeners.forEach((l) => l(verdict));
  };

  const trySave = async (): Promise<void> => {
    keepUnchecked.hidden = true;
    const urlProblem = serviceUrlProblem(urlField.value());
    const rateProblem = rateLimitProblem(rateField.value());
    urlField.setError(urlProblem);
    rateField.setError(rateProblem);
    if (urlProblem || rateProblem) {
      status.clear();
      (urlProblem ? urlField : rateField).focus();
      return;
    }
    const address = urlField.value().trim();
    if (address === saved.baseUrl) {
      // Only the rate limit changed: the address is the one in use.
      await keep("Saved. Formulas use the new limit from now on.", undefined, false);
      return;
    }
    status.show("busy", "Trying the address…");
    const limiter = await ctx.runtime().then(
      (runtime) => runtime.client.limiter,
      () => undefined
    );
    const verdict = await checkServiceAddress(address, {
      apiKey: ctx.settings.apiKey,
      limiter,
    });
    if (!verdict.ok) {
      // The field says why and what to change; the line is clear (one story at a time).
      status.clear();
      urlField.setError(`Not saved. ${verdict.message}`);
      keepUnchecked.hidden = !verdict.mayKeepUnchecked;
      urlField.focus();
      return;
    }
    await keep(`Saved. ${verdict.message} Formulas use it from now on.`, verdict);
  };

  submitOnEnter(urlField, save);
  submitOnEnter(rateField, save);
  save.addEventListener(
    "click",
    () =>
      void withBusy(save, status, "Saving…", trySave, (error) => {
        status.clear();
        urlField.setError(explainError(error, "save the service address").message);
        urlField.focus();
      })
  );
  keepUnchecked.addEventListener(
    "click",
    () =>
      void withBusy(keepUnchecked, status, "Saving…", () =>
        keep(
          "Saved without a check: the address did not answer. Test the connection once the service is back."
        )
      )
  );
  // A fixed field loses its error at once (and the offer to keep an unchecked address goes with it).
  for (const [field, problem] of [
    [urlField, serviceUrlProblem],
    [rateField, rateLimitProblem],
  ] as const) {
    field.input.addEventListener("input", () => (keepUnchecked.hidden = true));
    clearWhenFixed(field, problem);
  }

  return {
    element: formGroup(
      "service",
      "Service",
      [urlField.element, rateField.element],
      [save, keepUnchecked],
      status
    ),
    saveButton: save,
    show(baseUrl, rateLimit) {
      saved = { baseUrl: baseUrl.trim(), rateLimit };
      urlField.setValue(baseUrl);
      rateField.setValue(String(rateLimit));
    },
    flagAddress(reason) {
      status.clear();
      urlField.setError(reason);
      urlField.focus();
    },
    onSaved: (listener) => listeners.push(listener),
  };
}

interface KeyForm {
  element: HTMLElement;
  saveButton: HTMLElement;
  status: StatusLine;
  show(snapshot: {
    hasKey: boolean;
    maskedKey: string;
    usingDefaultKey: boolean;
    storedKey: boolean;
  }): void;
}

function keyForm(env: FormEnv, flagAddress: (reason: string) => void): KeyForm {
  const { ctx } = env;
  const keyState = h("p", { id: "key-state", class: "hint" });
  const keyField = textField({
    id: "api-key",
    label: "API key",
    type: "password",
    placeholder: "Paste your API key",
  });
  // The form's one status line (its id and data-verdict: what the last test or save found).
  const status = statusLine("connection-result");
  const verdict = (value: ConnectionOutcome["verdict"] | undefined): void => {
    if (value) status.element.dataset.verdict = value;
    else delete status.element.dataset.verdict;
  };

  /** The connection test with its 3-second policy; `candidate` tries a key that is not saved yet. */
  const probe = (candidate?: string): Promise<ConnectionOutcome> =>
    testConnection(async () => {
      const runtime = await ctx.runtime();
      return candidate === undefined
        ? runtime.probeClient(CONNECTION_TEST_LIMITS)
        : runtime.probeClient(CONNECTION_TEST_LIMITS, candidate);
    });

  const showOutcome = (outcome: ConnectionOutcome, prefix = ""): void => {
    if (outcome.simulated !== undefined) ctx.source.noteResult(outcome.simulated);
    verdict(outcome.verdict);
    keyField.setError(undefined);
    if (outcome.verdict === "valid") {
      status.show("success", `${prefix}${outcome.message}`);
      return;
    }
    if (outcome.verdict === "wrong-address") {
      // The address is what to fix: said under the address field, where the fix is typed.
      status.error(outcome.message, [
        { id: "fix-address", label: "Check the address", run: () => flagAddress(outcome.message) },
      ]);
      return;
    }
    status.error(
      `${prefix}${outcome.message}`,
      outcome.verdict === "unreachable" || outcome.verdict === "service-problem"
        ? [{ id: "retry", label: "Test again", run: () => testButton.click() }]
        : []
    );
  };

  /**
   * Tries the pasted key, saves it unless the service refuses it. Returns false when nothing was saved
   * (the field then says why and keeps focus; the line is clear).
   */
  const tryAndSaveKey = async (asked: "save" | "test"): Promise<boolean> => {
    const typed = keyField.value().trim();
    const problem = apiKeyProblem(typed);
    keyField.setError(problem);
    if (problem) {
      status.clear();
      verdict(undefined);
      keyField.focus();
      return false;
    }
    const outcome = await probe(typed);
    if (outcome.verdict === "key-rejected" || outcome.verdict === "subscription") {
      status.clear();
      verdict(outcome.verdict);
      // Said as the answer to what was asked: a test reports, a save says it did not keep the key.
      const finding =
        outcome.verdict === "key-rejected"
          ? "the service refused this key. Paste the whole key from your account page."
          : "the service knows this key, but your plan does not cover this data.";
      keyField.setError(
        asked === "save"
          ? `Not saved: ${finding}`
          : `${finding[0].toUpperCase()}${finding.slice(1)} The key in use is unchanged.`
      );
      keyField.focus();
      return false;
    }
    await ctx.settings.saveApiKey(typed);
    keyField.setValue("");
    await env.refresh();
    await env.reconnect();
    if (outcome.verdict === "valid") showOutcome(outcome, "Key saved. ");
    else {
      verdict(outcome.verdict);
      keyField.setError(undefined);
      status.show("info", `Key saved, but not checked: ${outcome.message}`);
    }
    return true;
  };

  const saveKey = h("fluent-button", { id: "save-key", appearance: "primary" }, "Save key");
  submitOnEnter(keyField, saveKey);
  saveKey.addEventListener(
    "click",
    () =>
      void runBusy(saveKey, status, "Checking the key with the service…", "save the key", () =>
        tryAndSaveKey("save")
      )
  );

  const testButton = h("fluent-button", { id: "test-connection" }, "Test connection");
  testButton.addEventListener(
    "click",
    () =>
      void runBusy(testButton, status, "Testing…", "test the connection", async () => {
        // A key pasted but not yet saved is what the user means to test (and saved if it works).
        if (keyField.value().trim() !== "") {
          await tryAndSaveKey("test");
          return;
        }
        const outcome = await probe();
        showOutcome(outcome);
        // A working connection after a failing one: what failed to load loads now.
        if (outcome.verdict === "valid") ctx.connectionChanged();
      })
  );

  const forget = h(
    "fluent-button",
    { id: "forget-key", appearance: "outline", hidden: true },
    "Forget key"
  );
  forget.addEventListener(
    "click",
    () =>
      void withBusy(forget, status, "Forgetting…", async () => {
        await ctx.settings.forgetApiKey();
        await env.refresh();
        await env.reconnect();
        verdict(undefined);
        keyField.setError(undefined);
        const now = await ctx.settings.snapshot();
        // Said with the key in use now, as the line above it says.
        status.show(
          "success",
          now.hasKey
            ? "Your key was removed from this computer. The simulator's demo key is in use again."
            : "Your key was removed from this computer. Paste a key to use the service again."
        );
        // The button went with the key: focus stays in the form.
        keyField.focus();
      })
  );
  clearWhenFixed(keyField, apiKeyProblem);

  return {
    element: formGroup(
      "key",
      "Your API key",
      [keyState, keyField.element],
      [saveKey, testButton, forget],
      status
    ),
    saveButton: saveKey,
    status,
    show(snapshot) {
      replaceChildren(
        keyState,
        snapshot.hasKey
          ? `Key in use: ${snapshot.maskedKey}${snapshot.usingDefaultKey ? " (the simulator's demo key)" : ""}.`
          : "No key saved. Paste the key from your account page."
      );
      // Only a key saved here can be forgotten (the build's demo key is not on this computer to remove).
      forget.hidden = !snapshot.storedKey;
    },
  };
}

export function settingsView(ctx: AppContext): HTMLElement {
  // The forms are made with `env`, which reaches them once they exist.
  const forms: { service?: ServiceForm; key?: KeyForm; connection?: ConnectionForm } = {};
  const env: FormEnv = {
    ctx,
    refresh: async () => {
      const snapshot = await ctx.settings.snapshot();
      forms.service?.show(snapshot.baseUrl, snapshot.rateLimitPerMinute);
      forms.key?.show({ ...snapshot, storedKey: snapshot.hasKey && !snapshot.usingDefaultKey });
      // Team gateway: sign-in instead of a key (the key's form goes; nothing secret is kept here).
      forms.connection?.show(snapshot.mode ?? "key");
      if (forms.key) forms.key.element.hidden = snapshot.mode === "gateway";
      // One primary action per view: the address first while there is none, then the key.
      const first = snapshot.baseUrl ? forms.key?.saveButton : forms.service?.saveButton;
      for (const button of [forms.service?.saveButton, forms.key?.saveButton]) {
        if (button === first) button?.setAttribute("appearance", "primary");
        else button?.removeAttribute("appearance");
      }
    },
    reconnect: async () => {
      // A new runtime on what is stored now: the old one's calls end as cancelled, nothing more is sent
      // to the old address or with the old key. A refused configuration is reported by the views.
      await ctx.settings.apply().catch(() => undefined);
      ctx.connectionChanged();
    },
  };
  const service = serviceForm(env);
  const key = keyForm(env, (reason) => service.flagAddress(reason));
  forms.service = service;
  forms.key = key;
  const connection = connectionForm(ctx, async (mode) => {
    await ctx.settings.saveMode(mode).catch(() => undefined);
    await env.refresh();
    ctx.connectionChanged();
  });
  forms.connection = connection;
  service.onSaved((verdict) => {
    // What the key's form said was about the old address.
    key.status.clear();
    delete key.status.element.dataset.verdict;
    if (!verdict?.keyRefused) return;
    void ctx.settings
      .snapshot()
      .then((now) =>
        key.status.show(
          "info",
          now.hasKey
            ? "The service at this address does not take the key in use: paste your key and save it."
            : "Now paste your API key and save it."
        )
      );
  });

  void env.refresh();
  return h(
    "div",
    { class: "stack" },
    service.element,
    h("fluent-divider", { role: "separator" }),
    connection.element,
    key.element,
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
