/**
 * The user's settings: API key, service URL, rate limit. Kept in a key-value storage that lives OUTSIDE the
 * workbook (OfficeRuntime.storage on the Excel page: per origin, shared by taskpane and functions), never in
 * document settings, cells, names or formulas, so a shared workbook never carries the key.
 */
import type { ApiKeySource } from "../client";
import type { BuildConfig } from "./build-config";
import { refusedServiceOrigin } from "./connect-origins";
import {
  configureRuntimeFrom,
  DEFAULT_RATE_LIMIT_PER_MINUTE,
  type Runtime,
  type RuntimeConfig,
} from "./runtime";

/** The shape of OfficeRuntime.storage (and of any replacement in tests). */
export interface KeyValueStorage {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
}

export const STORAGE_KEYS = {
  apiKey: "cryptometrics.apiKey",
  baseUrl: "cryptometrics.baseUrl",
  rateLimit: "cryptometrics.rateLimitPerMinute",
  /** "key" (the user's own key, stored here) or "gateway" (sign-in to the team gateway: nothing secret here). */
  mode: "cryptometrics.connectionMode",
} as const;

/** How the add-in proves who it calls for: the user's own key, or signing in to the team gateway. */
export type ConnectionMode = "key" | "gateway";

/** Signing in to a team gateway, as the settings need it (runtime/sign-in/ makes it). */
export interface GatewaySignIn {
  /** The access token for the next call: waits while one renews, never shows a sign-in. */
  token: ApiKeySource;
  /** Who is signed in (the saved cache's identity), undefined when nobody is; a page may first load it. */
  account(): string | undefined | Promise<string | undefined>;
}

export interface SettingsSnapshot {
  baseUrl: string;
  rateLimitPerMinute: number;
  hasKey: boolean;
  /** The key as it may be shown: its last four characters only. */
  maskedKey: string;
  /** True when the key in use is the build's default (the simulator's demo key in development builds). */
  usingDefaultKey: boolean;
  /** How the add-in connects (absent in snapshots made before sign-in existed: "key"). */
  mode?: ConnectionMode;
}

function maskKey(key: string | undefined): string {
  if (!key) return "";
  return key.length <= 4 ? "••••" : `••••••••${key.slice(-4)}`;
}

export class Settings {
  constructor(
    private readonly storage: KeyValueStorage,
    private readonly build: Pick<
      BuildConfig,
      "defaultBaseUrl" | "defaultApiKey" | "connectOrigins"
    >,
    private readonly extra: Partial<RuntimeConfig> = {},
    private readonly signIn?: GatewaySignIn
  ) {}

  /**
   * Read afresh on every request, so a key pasted in the taskpane applies to the very next cell; in Team
   * gateway mode, the signed-in user's access token (held in memory only).
   */
  readonly apiKey: ApiKeySource = async () => {
    if ((await this.mode()) === "gateway" && this.signIn) {
      const { token } = this.signIn;
      return typeof token === "function" ? token() : token;
    }
    return (
      (await this.storage.getItem(STORAGE_KEYS.apiKey)) ?? (this.build.defaultApiKey || undefined)
    );
  };

  /** The saved cache's identity: the key, or in Team gateway mode the account signed in. */
  private readonly cacheIdentity: ApiKeySource = async () => {
    if ((await this.mode()) === "gateway" && this.signIn) {
      const account = await this.signIn.account();
      return account ? `signed-in account\n${account}` : undefined;
    }
    return typeof this.apiKey === "function" ? this.apiKey() : this.apiKey;
  };

  async mode(): Promise<ConnectionMode> {
    return (await this.storage.getItem(STORAGE_KEYS.mode)) === "gateway" ? "gateway" : "key";
  }

  /**
   * Switches how the add-in connects. Team gateway forgets the key stored on this computer (nothing secret
   * stays here); the runtime restarts either way, so nothing more goes out with the old credential.
   */
  async saveMode(mode: ConnectionMode): Promise<Runtime | undefined> {
    if (mode === "gateway") {
      if (!this.signIn) throw new Error("Sign-in is not available on this page.");
      await this.storage.removeItem(STORAGE_KEYS.apiKey);
    }
    await this.storage.setItem(STORAGE_KEYS.mode, mode);
    return this.apply();
  }

  async snapshot(): Promise<SettingsSnapshot> {
    const stored = await this.storage.getItem(STORAGE_KEYS.apiKey);
    const key = stored ?? (this.build.defaultApiKey || undefined);
    return {
      baseUrl: await this.baseUrl(),
      rateLimitPerMinute: await this.rateLimit(),
      hasKey: !!key,
      maskedKey: maskKey(key),
      usingDefaultKey: stored === null && !!key,
      mode: await this.mode(),
    };
  }

  async baseUrl(): Promise<string> {
    return (await this.storage.getItem(STORAGE_KEYS.baseUrl)) ?? this.build.defaultBaseUrl;
  }

  async rateLimit(): Promise<number> {
    const stored = Number(await this.storage.getItem(STORAGE_KEYS.rateLimit));
    return Number.isInteger(stored) && stored > 0 ? stored : DEFAULT_RATE_LIMIT_PER_MINUTE;
  }

  async saveApiKey(key: string): Promise<void> {
    const trimmed = key.trim();
    if (!trimmed) throw new Error("The API key is empty.");
    if (/\s/.test(trimmed))
      throw new Error(
        "The API key contains spaces: paste it exactly as shown on your account page."
      );
    await this.storage.setItem(STORAGE_KEYS.apiKey, trimmed);
  }

  async forgetApiKey(): Promise<void> {
    await this.storage.removeItem(STORAGE_KEYS.apiKey);
  }

  /** Saves the service URL and rate limit, then reconfigures the runtime (which checks the URL). */
  async saveConnection(baseUrl: string, rateLimitPerMinute: number): Promise<Runtime | undefined> {
    if (
      !Number.isInteger(rateLimitPerMinute) ||
      rateLimitPerMinute < 1 ||
      rateLimitPerMinute > 6000
    ) {
      throw new Error(
        "The rate limit must be a whole number of requests per minute between 1 and 6000."
      );
    }
    const refused = refusedServiceOrigin(baseUrl, this.build.connectOrigins);
    if (refused) throw new Error(refused);
    await this.storage.setItem(STORAGE_KEYS.baseUrl, baseUrl.trim());
    await this.storage.setItem(STORAGE_KEYS.rateLimit, String(rateLimitPerMinute));
    return this.apply();
  }

  /** (Re)configures the shared runtime from these settings, once `after` (e.g. Office.onReady) settles. */
  apply(after?: Promise<unknown>): Promise<Runtime | undefined> {
    return configureRuntimeFrom(async () => {
      await after;
      return {
        ...this.extra,
        baseUrl: await this.baseUrl(),
        apiKey: this.apiKey,
        cacheIdentity: this.cacheIdentity,
        rateLimitPerMinute: await this.rateLimit(),
      };
    });
  }
}
