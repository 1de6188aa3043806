/**
 * Access tokens for the team gateway, for every call of the client (an ApiKeySource): one token held in
 * memory only, renewed silently before it expires, one renewal at a time however many cells ask. What signs
 * in is a port (`TokenSource`: MSAL in the add-in, a fake in tests), so nothing here knows Office or a browser.
 *
 * - A call never starts an interactive sign-in: only `signIn()` does, and only the taskpane calls it, from a
 *   user's click. Custom functions call `token()`.
 * - While a token is being renewed, or the add-in is restoring the session at start, calls wait for it.
 * - When renewal needs the user (their session ended, consent withdrawn), the state says so ("renewal
 *   failed": the taskpane shows it) and calls wait for the user to sign in again, up to `waitMs`; then they
 *   fail as "unauthorized" with what to do. Every wait has a deadline: no cell stays #BUSY! forever.
 */
import { CryptometricsError } from "./errors";
import { realTimers, type Timers } from "./http/abort";
import { Listeners } from "./listeners";

/** Who is signed in: what the taskpane shows. Not a secret. */
export interface SignedInAccount {
  /** The sign-in name (user@firm.com). */
  username: string;
  /** The display name, when the identity provider gives one. */
  name?: string;
}

export interface AccessToken {
  token: string;
  /** ms since the epoch. */
  expiresAt: number;
  account: SignedInAccount;
}

/** Thrown by a TokenSource when only the user can go on (sign in again, consent). */
export class InteractionRequired extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InteractionRequired";
  }
}

/** The sign-in machinery (MSAL behind it in the add-in). */
export interface TokenSource {
  /** A token without showing anything: cached or renewed; InteractionRequired when the user must act. */
  silent(): Promise<AccessToken>;
  /** Shows the sign-in (only ever from a user's action). */
  interactive(): Promise<AccessToken>;
  /** Forgets the account on this computer. */
  signOut(): Promise<void>;
}

export type SignInState =
  | { status: "signed-out"; message?: string }
  | { status: "signing-in" }
  | { status: "signed-in"; account: SignedInAccount }
  | { status: "renewal-failed"; account: SignedInAccount; message: string };

interface TokenProviderOptions {
  source: TokenSource;
  now?: () => number;
  timers?: Timers;
  /** Renew this long before expiry (default 5 minutes: a token is never used in its last minutes). */
  renewBeforeMs?: number;
  /** How long a call waits for the user to sign in (again) before failing (default 60 s). */
  waitMs?: number;
}

const SIGN_IN_AGAIN =
  "Your sign-in to the team gateway has ended: open the Cryptometrics taskpane (Settings) and sign in again";
const NOT_SIGNED_IN =
  "You are not signed in to the team gateway: open the Cryptometrics taskpane (Settings) and sign in";

export class TokenProvider {
  private current: AccessToken | undefined;
  private renewing: Promise<AccessToken> | undefined;
  private stateNow: SignInState = { status: "signed-out" };
  private readonly listeners = new Listeners<SignInState>();
  /** Calls waiting for a sign-in; settled by the next token or by their deadline. */
  private waiters = new Set<{ resolve: (t: string) => void; reject: (e: unknown) => void }>();
  private readonly now: () => number;
  private readonly timers: Timers;

  constructor(private readonly options: TokenProviderOptions) {
    this.now = options.now ?? Date.now;
    this.timers = options.timers ?? realTimers;
  }

  get state(): SignInState {
    return this.stateNow;
  }

  onChange(listener: (state: SignInState) => void): () => void {
    return this.listeners.add(listener);
  }

  private set(state: SignInState): void {
    this.stateNow = state;
    this.listeners.tell(state);
  }

  private accept(token: AccessToken): AccessToken {
    this.current = token;
    this.set({ status: "signed-in", account: token.account });
    const waiting = this.waiters;
    this.waiters = new Set();
    for (const w of waiting) w.resolve(token.token);
    return token;
  }

  private fresh(): AccessToken | undefined {
    const t = this.current;
    return t && t.expiresAt - (this.options.renewBeforeMs ?? 300_000) > this.now() ? t : undefined;
  }

  /** One silent renewal at a time; its failure sets the state. */
  private renew(): Promise<AccessToken> {
    this.renewing ??= this.options.source
      .silent()
      .then(
        (token) => this.accept(token),
        (error: unknown) => {
          const message =
            error instanceof InteractionRequired
              ? SIGN_IN_AGAIN
              : `Your sign-in could not be renewed (${error instanceof Error ? error.message : String(error)}): sign in again in the taskpane`;
          const prior = this.stateNow;
          this.current = undefined;
          if (prior.status === "signed-in" || prior.status === "renewal-failed")
            this.set({ status: "renewal-failed", account: prior.account, message });
          else this.set({ status: "signed-out" });
          throw error;
        }
      )
      .finally(() => {
        this.renewing = undefined;
      });
    return this.renewing;
  }

  /** Waits for the next token (a sign-in in the taskpane) up to waitMs, then fails in plain words. */
  private waitForSignIn(message: string): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const waiter = {
        resolve: (t: string) => {
          this.timers.clearTimeout(timer);
          resolve(t);
        },
        reject,
      };
      const timer = this.timers.setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new CryptometricsError("unauthorized", message, { operation: "sign-in" }));
      }, this.options.waitMs ?? 60_000);
      this.waiters.add(waiter);
    });
  }

  /** The token for the next request (never interactive): the ApiKeySource of the client. */
  readonly token = async (): Promise<string> => {
    const fresh = this.fresh();
    if (fresh) return fresh.token;
    const status = this.stateNow.status;
    if (status === "signed-out")
      throw new CryptometricsError("unauthorized", NOT_SIGNED_IN, { operation: "sign-in" });
    if (status === "renewal-failed") return this.waitForSignIn(SIGN_IN_AGAIN);
    if (status === "signing-in" && !this.renewing) return this.waitForSignIn(NOT_SIGNED_IN);
    try {
      return (await this.renew()).token;
    } catch {
      return this.waitForSignIn(SIGN_IN_AGAIN);
    }
  };

  /** At start: signs in silently when the account is known here; stays signed out otherwise. */
  async restore(): Promise<SignInState> {
    this.set({ status: "signing-in" });
    try {
      await this.renew();
    } catch {
      if (this.stateNow.status === "signing-in") this.set({ status: "signed-out" });
    }
    return this.stateNow;
  }

  /** From a user's click in the taskpane: silent first, interactive when needed. */
  async signIn(): Promise<SignInState> {
    const prior = this.stateNow;
    this.set({ status: "signing-in" });
    try {
      this.accept(await this.options.source.silent());
    } catch {
      try {
        this.accept(await this.options.source.interactive());
      } catch (error) {
        const message = `Sign-in did not finish: ${error instanceof Error ? error.message : String(error)}`;
        if (prior.status === "signed-in" || prior.status === "renewal-failed")
          this.set({ status: "renewal-failed", account: prior.account, message });
        else this.set({ status: "signed-out", message });
      }
    }
    return this.stateNow;
  }

  /** Forgets the account and the token; waiting calls fail at once. */
  async signOut(): Promise<void> {
    this.current = undefined;
    const waiting = this.waiters;
    this.waiters = new Set();
    for (const w of waiting)
      w.reject(new CryptometricsError("unauthorized", NOT_SIGNED_IN, { operation: "sign-in" }));
    try {
      await this.options.source.signOut();
    } finally {
      this.set({ status: "signed-out" });
    }
  }
}
