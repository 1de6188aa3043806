/**
 * Settings, "How you connect": Your key (pasted here, kept in OfficeRuntime.storage) or Team gateway (sign in
 * with Microsoft 365; nothing secret on this computer). In Team gateway mode:
 * - who is signed in, or that nobody is, or that the sign-in is under way, or that it ended and needs the user
 *   (renewal failed): one line, announced; Sign in (the only place an interactive sign-in starts: a click) and
 *   Sign out (forgets the account);
 * - the user's own service key, when the gateway takes them: registered or not (its last four characters),
 *   Register key / Remove key; the key typed is sent to the gateway once and cleared from the field;
 * - the budget serving the user, as the gateway counts it, also shown by Diagnostics' usage meter.
 */
import type { AppContext } from "../app-context";
import type { ConnectionMode } from "../../runtime/settings";
import type { SessionState } from "../../runtime/sign-in/session";
import type { GatewayMe } from "../../runtime/sign-in/gateway-account";
import { h, setText } from "../../ui/dom";
import { submitOnEnter, textField } from "../../ui/controls";
import { statusLine } from "../../ui/status";
import { runBusy } from "./feedback";

/** The gateway's budget is read again this often while the pane shows it. */
const BUDGET_TICK_MS = 15_000;

export interface ConnectionForm {
  element: HTMLElement;
  show(mode: ConnectionMode): void;
}

/** Words for each state of the sign-in. */
function describeSignIn(state: SessionState): string {
  switch (state.status) {
    case "signed-out":
      return state.message ? `Not signed in. ${state.message}` : "Not signed in.";
    case "signing-in":
      return "Signing in…";
    case "signed-in":
      return `Signed in as ${state.account.name ? `${state.account.name} (${state.account.username})` : state.account.username}.`;
    case "renewal-failed":
      return `Your sign-in as ${state.account.username} has ended: sign in again to keep your cells calculating. ${state.message}`;
    case "unavailable":
      return state.message;
  }
}

export function connectionForm(
  ctx: AppContext,
  onModeChanged: (mode: ConnectionMode) => Promise<void>
): ConnectionForm {
  const session = ctx.signIn;
  // One sentence says how the add-in connects now; one button switches (the other way is hidden).
  const modeState = h("p", { id: "mode-state" });
  const modeKey = h(
    "fluent-button",
    { id: "mode-key", appearance: "outline", hidden: true },
    "Use your own key instead"
  );
  const modeGateway = h(
    "fluent-button",
    { id: "mode-gateway", appearance: "outline" },
    "Use the team gateway (sign in)"
  );
  const modeStatus = statusLine("mode-status");

  const state = h("p", { id: "sign-in-state", role: "status", "aria-live": "polite" });
  const signIn = h("fluent-button", { id: "sign-in", appearance: "primary" }, "Sign in");
  const signOut = h("fluent-button", { id: "sign-out", appearance: "outline" }, "Sign out");
  const signInStatus = statusLine("sign-in-status");

  const ownState = h("p", { id: "own-key-state", class: "hint" });
  const ownField = textField({
    id: "own-key",
    label: "Your own service key (if your plan gives you one)",
    type: "password",
    hint: "Sent once to the team gateway, which keeps it encrypted and uses it for your requests only.",
  });
  const saveOwn = h("fluent-button", { id: "save-own-key" }, "Register key");
  submitOnEnter(ownField, saveOwn);
  const forgetOwn = h(
    "fluent-button",
    { id: "forget-own-key", appearance: "outline" },
    "Remove key"
  );
  const ownStatus = statusLine("own-key-status");
  const ownSection = h(
    "div",
    { class: "stack", id: "own-key-section", hidden: true },
    h("h4", {}, "Your own service key"),
    ownState,
    ownField.element,
    h("div", { class: "buttons" }, saveOwn, forgetOwn),
    ownStatus.element
  );

  const budgetText = h("p", { id: "team-budget-label", class: "label" }, "Budget");
  const budgetBar = h("fluent-progress-bar", {
    id: "team-budget",
    "aria-labelledby": "team-budget-label",
    max: 1,
    value: 0,
  }) as HTMLElement & { max: number; value: number };
  const budgetSection = h(
    "div",
    { class: "stack", id: "team-budget-section", hidden: true },
    budgetText,
    budgetBar
  );

  const gatewayPanel = h(
    "div",
    { class: "stack", id: "gateway-panel", hidden: true },
    state,
    h("div", { class: "buttons" }, signIn, signOut),
    signInStatus.element,
    budgetSection,
    ownSection
  );

  let mode: ConnectionMode = "key";
  let me: GatewayMe | undefined;

  const showBudget = (): void => {
    if (!me || me.budget.key === "none" || me.budget.limit <= 0) {
      budgetSection.hidden = true;
      ctx.diagnostics.setTeamBudget(undefined);
      return;
    }
    const { used, limit, windowMs, key } = me.budget;
    const per = windowMs === 60_000 ? "minute" : `${Math.round(windowMs / 1000)} s`;
    setText(
      budgetText,
      `${key === "own" ? "Your key's budget" : "Team budget"}: ${used} of ${limit} requests this ${per}, as the gateway counts them`
    );
    budgetBar.max = limit;
    budgetBar.value = Math.min(used, limit);
    budgetBar.setAttribute("aria-valuetext", budgetText.textContent);
    budgetSection.hidden = false;
    ctx.diagnostics.setTeamBudget(
      key === "team" || key === "own" ? { used, limit, windowMs, key, at: ctx.now() } : undefined
    );
  };

  const showOwnKey = (): void => {
    const own = me?.ownKey;
    ownSection.hidden = !own?.accepted;
    if (!own?.accepted) return;
    setText(
      ownState,
      own.registered
        ? `Registered (ending ${own.last4 ?? "…"}${own.since ? `, since ${own.since.slice(0, 10)}` : ""}): your requests use your own key and its own budget.`
        : own.required
          ? "This team gateway needs your own service key before it can serve you: register it below."
          : "Not registered: the team's key serves you."
    );
    forgetOwn.hidden = !own.registered;
    setText(saveOwn, own.registered ? "Replace key" : "Register key");
  };

  /** What the gateway says about the signed-in user (budget, own key); quiet on failure. */
  const readMe = async (): Promise<void> => {
    if (!session || session.state.status !== "signed-in") {
      me = undefined;
    } else {
      try {
        me = await (await session.gateway()).me();
      } catch {
        me = undefined;
      }
    }
    showBudget();
    showOwnKey();
  };

  const render = (s: SessionState): void => {
    setText(state, describeSignIn(s));
    state.dataset.state = s.status;
    const signedIn = s.status === "signed-in";
    signIn.hidden = signedIn || s.status === "unavailable";
    setText(signIn, s.status === "renewal-failed" ? "Sign in again" : "Sign in");
    signOut.hidden = !(signedIn || s.status === "renewal-failed");
    if (s.status === "signing-in") setBusyLook(true);
    else setBusyLook(false);
    if (!signedIn) {
      me = undefined;
      showBudget();
      showOwnKey();
    }
  };
  const setBusyLook = (busy: boolean): void => {
    if (busy) signIn.setAttribute("disabled-focusable", "");
    else signIn.removeAttribute("disabled-focusable");
  };

  // Signing in (or out) changes what every view can load: they reload, as after a new key (the views that
  // failed "not signed in" before now load; a renewal, signed in to signed in, changes nothing).
  let wasSignedIn = session?.state.status === "signed-in";
  session?.onChange((s) => {
    render(s);
    if (s.status === "signed-in") void readMe();
    const signedIn = s.status === "signed-in";
    if (signedIn !== wasSignedIn) {
      wasSignedIn = signedIn;
      ctx.connectionChanged();
    }
  });

  signIn.addEventListener("click", () => {
    if (!session) return;
    void runBusy(signIn, signInStatus, "Signing in…", "sign in", async () => {
      const after = await session.signIn();
      if (after.status === "signed-in") {
        signInStatus.clear();
        await readMe();
      } else signInStatus.error(describeSignIn(after));
    });
  });
  signOut.addEventListener("click", () => {
    if (!session) return;
    void runBusy(signOut, signInStatus, "Signing out…", "sign out", async () => {
      await session.signOut();
      signInStatus.show("success", "Signed out. Your account is forgotten on this computer.");
    });
  });

  saveOwn.addEventListener("click", () => {
    if (!session) return;
    const key = ownField.value().trim();
    if (!key || /\s/.test(key)) {
      ownField.setError(
        key
          ? "The key contains spaces: paste it exactly as shown on your account page."
          : "Paste your service key first."
      );
      ownField.focus();
      return;
    }
    ownField.setError(undefined);
    void runBusy(saveOwn, ownStatus, "Registering…", "register your key", async () => {
      try {
        await (await session.gateway()).registerKey(key);
      } finally {
        ownField.setValue("");
      }
      await readMe();
      ctx.connectionChanged();
      ownStatus.show("success", "Registered. Your next calculations use your own key.");
    });
  });
  forgetOwn.addEventListener("click", () => {
    if (!session) return;
    void runBusy(forgetOwn, ownStatus, "Removing…", "remove your key", async () => {
      await (await session.gateway()).forgetKey();
      await readMe();
      ctx.connectionChanged();
      ownStatus.show("success", "Removed from the team gateway.");
    });
  });

  const choose = (next: ConnectionMode, button: HTMLElement): void => {
    void runBusy(button, modeStatus, "Switching…", "switch how you connect", async () => {
      await onModeChanged(next);
      // What the mode means is the line above; this says the switch happened.
      modeStatus.show(
        "success",
        next === "gateway" ? "Switched to the team gateway." : "Switched to your own key."
      );
    });
  };
  modeKey.addEventListener("click", () => {
    if (mode !== "key") choose("key", modeKey);
  });
  modeGateway.addEventListener("click", () => {
    if (mode !== "gateway") choose("gateway", modeGateway);
  });

  setInterval(() => {
    if (mode === "gateway" && gatewayPanel.isConnected && gatewayPanel.offsetParent !== null)
      void readMe();
  }, BUDGET_TICK_MS);

  const element = h(
    "div",
    { class: "stack", id: "connection-section" },
    h("h3", {}, "How you connect"),
    modeState,
    session ? h("div", { class: "buttons" }, modeKey, modeGateway) : null,
    modeStatus.element,
    gatewayPanel
  );

  return {
    element,
    show(next) {
      mode = session ? next : "key";
      setText(
        modeState,
        mode === "gateway"
          ? "Team gateway: you sign in, and the gateway at the service address calls the service for you. No key is kept on this computer."
          : "Your key: the API key you save below is kept on this computer, outside any workbook."
      );
      modeKey.hidden = mode !== "gateway";
      modeGateway.hidden = mode === "gateway";
      gatewayPanel.hidden = mode !== "gateway";
      if (mode === "gateway" && session) {
        render(session.state);
        void session.start().then(() => {
          render(session.state);
          return readMe();
        });
      } else {
        ctx.diagnostics.setTeamBudget(undefined);
      }
    },
  };
}
