/**
 * The sign-in dialog (the fallback where the Office host has no nested app authentication): opened by the
 * taskpane with the Office dialog API, it signs in with MSAL (redirect to Microsoft and back here), then sends
 * the access token for the team gateway to the taskpane with messageParent and is closed. MSAL keeps its state
 * in this window's session storage only (gone when the dialog closes): the account is not remembered on this
 * computer, and renewing means signing in from the taskpane again.
 *
 * The sign-in settings (client id, authority, scope: public values the gateway publishes) come in the query on
 * the first load and are kept in session storage across Microsoft's redirect.
 */
import { PublicClientApplication, type AuthenticationResult } from "@azure/msal-browser";
import type { DialogMessage } from "../runtime/sign-in/sources";

const SETTINGS_KEY = "cryptometrics.signInDialog";

interface DialogSettings {
  clientId: string;
  authority: string;
  scopes: string[];
}

function settings(): DialogSettings | undefined {
  const query = new URLSearchParams(window.location.search);
  const clientId = query.get("clientId");
  if (clientId) {
    const fresh = {
      clientId,
      authority: query.get("authority") ?? "https://login.microsoftonline.com/organizations",
      scopes: (query.get("scopes") ?? "").split(" ").filter((s) => s !== ""),
    };
    window.sessionStorage.setItem(SETTINGS_KEY, JSON.stringify(fresh));
    return fresh;
  }
  const kept = window.sessionStorage.getItem(SETTINGS_KEY);
  return kept ? (JSON.parse(kept) as DialogSettings) : undefined;
}

function send(message: DialogMessage): void {
  Office.context.ui.messageParent(JSON.stringify(message));
}

function show(text: string): void {
  const state = document.getElementById("sign-in-dialog-state");
  if (state) state.textContent = text;
}

async function run(): Promise<void> {
  const s = settings();
  if (!s || !/^https:\/\//.test(s.authority)) {
    send({ status: "error", message: "the sign-in window was opened without its settings" });
    return;
  }
  const app = new PublicClientApplication({
    auth: {
      clientId: s.clientId,
      authority: s.authority,
      redirectUri: `${window.location.origin}${window.location.pathname}`,
    },
    cache: { cacheLocation: "sessionStorage" },
  });
  await app.initialize();
  const result: AuthenticationResult | null = await app.handleRedirectPromise();
  if (!result) {
    await app.loginRedirect({ scopes: s.scopes });
    return;
  }
  window.sessionStorage.removeItem(SETTINGS_KEY);
  send({
    status: "ok",
    token: result.accessToken,
    expiresAt: result.expiresOn?.getTime() ?? Date.now() + 60 * 60_000,
    account: {
      username: result.account?.username ?? "",
      ...(result.account?.name ? { name: result.account.name } : {}),
    },
  });
  show("Signed in. You can close this window.");
}

void Office.onReady().then(() =>
  run().catch((error: unknown) => {
    show("Sign-in failed. Close this window and try again from the taskpane.");
    send({
      status: "error",
      message: error instanceof Error ? error.message.slice(0, 300) : "sign-in failed",
    });
  })
);
