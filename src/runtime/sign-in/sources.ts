/**
 * The two ways the add-in signs in, each a TokenSource (src/client/token-provider.ts) over a port that is the
 * only thing touching Microsoft's code or Office:
 * - Nested app authentication (NAA): MSAL's nestable public client application, which asks the Office host
 *   for tokens (the host holds the session; nothing is stored by the add-in). Silent when the host can, a
 *   popup from the taskpane when the user must consent or sign in.
 * - The Office dialog fallback, where the host has no NAA (Excel on the web with a file outside
 *   OneDrive/SharePoint, older builds): a dialog page signs in with MSAL and sends the access token back; the
 *   taskpane keeps it in memory until it expires, then the user signs in again from the taskpane.
 */
import type {
  AccountInfo,
  AuthenticationResult,
  PopupRequest,
  SilentRequest,
} from "@azure/msal-browser";
import {
  InteractionRequired,
  type AccessToken,
  type SignedInAccount,
  type TokenSource,
} from "../../client";

/** What the add-in uses of MSAL's IPublicClientApplication. */
export interface NestableApp {
  getActiveAccount(): AccountInfo | null;
  getAllAccounts(): AccountInfo[];
  setActiveAccount(account: AccountInfo | null): void;
  acquireTokenSilent(request: SilentRequest): Promise<AuthenticationResult>;
  acquireTokenPopup(request: PopupRequest): Promise<AuthenticationResult>;
  clearCache(request?: { account?: AccountInfo | null }): Promise<void>;
}

/** What the gateway says about signing in (GET /gateway/v1/sign-in). */
export interface SignInConfig {
  clientId: string;
  authority: string;
  scopes: string[];
}

/** MSAL's errors that only the user can resolve. */
function needsUser(error: unknown): boolean {
  const e = error as { name?: unknown; errorCode?: unknown };
  return (
    e?.name === "InteractionRequiredAuthError" ||
    (typeof e?.errorCode === "string" &&
      /interaction_required|login_required|consent_required|no_account|no_tokens_found|user_cancelled/.test(
        e.errorCode
      ))
  );
}

function accountOf(account: AccountInfo | null | undefined): SignedInAccount {
  return {
    username: account?.username ?? "",
    ...(account?.name ? { name: account.name } : {}),
  };
}

/** Microsoft's access tokens live 60–90 minutes; without an expiry in the answer, assume the shortest. */
const DEFAULT_LIFE_MS = 60 * 60_000;

export class NaaSource implements TokenSource {
  constructor(
    private readonly app: NestableApp,
    private readonly config: SignInConfig,
    private readonly now: () => number = Date.now
  ) {}

  private toToken(result: AuthenticationResult): AccessToken {
    if (result.account) this.app.setActiveAccount(result.account);
    return {
      token: result.accessToken,
      expiresAt: result.expiresOn?.getTime() ?? this.now() + DEFAULT_LIFE_MS,
      account: accountOf(result.account),
    };
  }

  async silent(): Promise<AccessToken> {
    const account = this.app.getActiveAccount() ?? this.app.getAllAccounts()[0] ?? undefined;
    try {
      // Without an account the host's own signed-in user is asked for (NAA's single sign-on).
      return this.toToken(
        await this.app.acquireTokenSilent({
          scopes: this.config.scopes,
          ...(account ? { account } : {}),
        })
      );
    } catch (error) {
      if (needsUser(error)) throw new InteractionRequired("sign-in needed");
      throw error;
    }
  }

  async interactive(): Promise<AccessToken> {
    return this.toToken(await this.app.acquireTokenPopup({ scopes: this.config.scopes }));
  }

  async signOut(): Promise<void> {
    const account = this.app.getActiveAccount();
    await this.app.clearCache(account ? { account } : undefined);
    this.app.setActiveAccount(null);
  }
}

/** The Office dialog API, as the fallback needs it: opens a page, resolves with the first message it sends. */
export interface DialogPort {
  open(url: string): Promise<string>;
}

/** What the dialog page sends back. */
export type DialogMessage =
  | { status: "ok"; token: string; expiresAt: number; account: SignedInAccount }
  | { status: "error"; message: string };

export class DialogSource implements TokenSource {
  private held: AccessToken | undefined;

  constructor(
    private readonly dialog: DialogPort,
    /** The dialog page (same origin as the taskpane), with the sign-in settings in its query. */
    private readonly dialogUrl: string,
    private readonly now: () => number = Date.now
  ) {}

  silent(): Promise<AccessToken> {
    // Renewal needs the dialog, and a dialog needs the user's click: a minute before expiry, ask them.
    if (this.held && this.held.expiresAt - 60_000 > this.now()) return Promise.resolve(this.held);
    this.held = undefined;
    return Promise.reject(new InteractionRequired("sign-in needed"));
  }

  async interactive(): Promise<AccessToken> {
    const text = await this.dialog.open(this.dialogUrl);
    let message: DialogMessage;
    try {
      message = JSON.parse(text) as DialogMessage;
    } catch {
      throw new Error("the sign-in window sent something that is not a sign-in");
    }
    if (message.status !== "ok") throw new Error(message.message || "sign-in failed");
    if (typeof message.token !== "string" || !(message.expiresAt > this.now()))
      throw new Error("the sign-in window sent no usable token");
    this.held = { token: message.token, expiresAt: message.expiresAt, account: message.account };
    return this.held;
  }

  signOut(): Promise<void> {
    this.held = undefined;
    return Promise.resolve();
  }
}

/** The dialog page's address, carrying the (public) sign-in settings. */
export function dialogUrlOf(pageOrigin: string, config: SignInConfig): string {
  const url = new URL("signin-dialog.html", pageOrigin);
  url.searchParams.set("clientId", config.clientId);
  url.searchParams.set("authority", config.authority);
  url.searchParams.set("scopes", config.scopes.join(" "));
  return url.toString();
}

/**
 * A sign-in authority at the team gateway's own origin is that server's own token issuer (npm start's demo
 * sign-in, src/tools/demo-sign-in.ts): Microsoft's authorities are never at a gateway's address. The add-in then
 * asks it for a token directly, in Excel or in a browser: no Microsoft page, no dialog.
 */
export function isLocalIssuer(config: SignInConfig, gatewayUrl: string): boolean {
  try {
    return new URL(config.authority).origin === new URL(gatewayUrl).origin;
  } catch {
    return false;
  }
}

/** Longest answer read from a local issuer (a token and an account). */
const LOCAL_ISSUER_MAX_BYTES = 16 * 1024;
const LOCAL_ISSUER_TIMEOUT_MS = 10_000;

/**
 * Tokens from a local issuer (`POST {authority}/token`, JSON `{client_id, scope}`). Its one person is always
 * signed in there, so a silent renewal asks again, like nested app authentication's single sign-on; the
 * token lives in memory only.
 */
export class LocalIssuerSource implements TokenSource {
  constructor(
    private readonly config: SignInConfig,
    private readonly fetchFn?: (url: string, init: RequestInit) => Promise<Response>,
    private readonly now: () => number = Date.now
  ) {}

  private async ask(): Promise<AccessToken> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), LOCAL_ISSUER_TIMEOUT_MS);
    try {
      const doFetch = this.fetchFn ?? ((u: string, i: RequestInit) => fetch(u, i));
      const response = await doFetch(
        new URL("token", `${this.config.authority.replace(/\/+$/, "")}/`).toString(),
        {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify({ client_id: this.config.clientId, scope: this.config.scopes[0] }),
          signal: controller.signal,
          redirect: "error",
          credentials: "omit",
        }
      );
      const text = (await response.text()).slice(0, LOCAL_ISSUER_MAX_BYTES);
      let body: Record<string, unknown> | undefined;
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = undefined;
      }
      const account = body?.account as Partial<SignedInAccount> | undefined;
      if (
        response.status !== 200 ||
        typeof body?.access_token !== "string" ||
        typeof body.expires_in !== "number" ||
        typeof account?.username !== "string"
      )
        throw new Error(
          typeof body?.message === "string" && body.message.length < 300
            ? body.message
            : `the sign-in server answered ${response.status}`
        );
      return {
        token: body.access_token,
        expiresAt: this.now() + body.expires_in * 1000,
        account: {
          username: account.username,
          ...(typeof account.name === "string" ? { name: account.name } : {}),
        },
      };
    } catch (error) {
      if (controller.signal.aborted)
        throw new Error("the sign-in server did not answer within 10 seconds");
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  silent(): Promise<AccessToken> {
    return this.ask();
  }

  interactive(): Promise<AccessToken> {
    return this.ask();
  }

  signOut(): Promise<void> {
    return Promise.resolve();
  }
}
