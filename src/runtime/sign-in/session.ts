/**
 * Signing in to the team gateway, for the whole page: the taskpane's buttons and every custom function's call
 * go through one session. It asks the gateway how to sign in (GET /gateway/v1/sign-in: the add-in's client
 * id, the authority, the gateway's scope), picks nested app authentication when the host offers it and the
 * Office dialog otherwise (ports injected: see office-ports.ts), and holds one TokenProvider.
 *
 * Stored on this computer: only that the user chose to stay signed in ("cryptometrics.signedIn"), so that the
 * next start signs in silently; no token, no key. Sign out removes it and the account.
 */
import {
  CryptometricsError,
  TokenProvider,
  type SignInState,
  type TokenSource,
} from "../../client";
import type { GatewaySignIn, KeyValueStorage } from "../settings";
import {
  DialogSource,
  dialogUrlOf,
  isLocalIssuer,
  LocalIssuerSource,
  NaaSource,
  type DialogPort,
  type NestableApp,
  type SignInConfig,
} from "./sources";
import { GatewayAccount, type PlainFetch } from "./gateway-account";

const SIGNED_IN_KEY = "cryptometrics.signedIn";

export interface SignInPorts {
  /** MSAL's nestable application when the host supports NAA; undefined when it does not. */
  nestable(config: SignInConfig): Promise<NestableApp | undefined>;
  /** The Office dialog API; undefined outside Office (asked when sign-in starts: Office is ready then). */
  dialog(): DialogPort | undefined;
  /** The pages' origin (the dialog page is served beside the taskpane). */
  pageOrigin: string;
}

interface SessionOptions {
  baseUrl: () => Promise<string>;
  storage: KeyValueStorage;
  ports: SignInPorts;
  fetch?: PlainFetch;
  now?: () => number;
}

export type SessionState = SignInState | { status: "unavailable"; message: string };

export class GatewaySession implements GatewaySignIn {
  private provider: TokenProvider | undefined;
  private starting: Promise<TokenProvider | undefined> | undefined;
  private startedFor = "";
  private unavailable: string | undefined;
  private readonly listeners = new Set<(state: SessionState) => void>();
  readonly account: () => string | undefined = () => {
    const s = this.provider?.state;
    return s && (s.status === "signed-in" || s.status === "renewal-failed")
      ? s.account.username
      : undefined;
  };

  constructor(private readonly options: SessionOptions) {}

  get state(): SessionState {
    if (this.unavailable) return { status: "unavailable", message: this.unavailable };
    return this.provider?.state ?? { status: "signed-out" };
  }

  onChange(listener: (state: SessionState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private tell(): void {
    for (const l of this.listeners) l(this.state);
  }

  /** The gateway's account API (who, own key, usage) for the signed-in user. */
  async gateway(): Promise<GatewayAccount> {
    return new GatewayAccount(await this.options.baseUrl(), this.token, this.options.fetch);
  }

  /**
   * Prepares sign-in for the gateway at the settings' address (again when it changed); signs in silently when
   * the user stayed signed in. Never interactive.
   */
  start(): Promise<TokenProvider | undefined> {
    const run = async (): Promise<TokenProvider | undefined> => {
      const baseUrl = await this.options.baseUrl();
      if (this.provider && this.startedFor === baseUrl) return this.provider;
      this.startedFor = baseUrl;
      this.unavailable = undefined;
      let config: SignInConfig;
      try {
        config = await GatewayAccount.signInConfig(baseUrl, this.options.fetch);
      } catch (error) {
        this.unavailable = error instanceof Error ? error.message : String(error);
        this.provider = undefined;
        this.tell();
        return undefined;
      }
      const { ports } = this.options;
      // The gateway's own issuer (npm start's demo sign-in) is asked directly: neither NAA nor a dialog.
      const local = isLocalIssuer(config, baseUrl);
      const app = local ? undefined : await ports.nestable(config).catch(() => undefined);
      const dialog = local || app ? undefined : ports.dialog();
      let source: TokenSource;
      if (local) source = new LocalIssuerSource(config, this.options.fetch, this.options.now);
      else if (app) source = new NaaSource(app, config, this.options.now);
      else if (dialog)
        source = new DialogSource(dialog, dialogUrlOf(ports.pageOrigin, config), this.options.now);
      else {
        this.unavailable =
          "Sign-in needs Excel (this page runs outside Office): open the add-in in Excel";
        this.tell();
        return undefined;
      }
      const provider = new TokenProvider({ source, now: this.options.now });
      provider.onChange(() => this.tell());
      this.provider = provider;
      this.tell();
      if ((await this.options.storage.getItem(SIGNED_IN_KEY)) === "1") await provider.restore();
      return provider;
    };
    const attempt = (this.starting ?? Promise.resolve(undefined)).catch(() => undefined).then(run);
    this.starting = attempt;
    return attempt;
  }

  /** The access token for the next call (the runtime's ApiKeySource in Team gateway mode). */
  readonly token = async (): Promise<string> => {
    const provider = await this.start();
    if (!provider)
      throw new CryptometricsError(
        "unauthorized",
        this.unavailable ?? "Sign-in to the team gateway is not available",
        { operation: "sign-in" }
      );
    return provider.token();
  };

  /** From the taskpane's Sign in button only. */
  async signIn(): Promise<SessionState> {
    const provider = await this.start();
    if (!provider) return this.state;
    const state = await provider.signIn();
    if (state.status === "signed-in") await this.options.storage.setItem(SIGNED_IN_KEY, "1");
    return this.state;
  }

  async signOut(): Promise<void> {
    await this.options.storage.removeItem(SIGNED_IN_KEY);
    await this.provider?.signOut();
    this.tell();
  }
}
