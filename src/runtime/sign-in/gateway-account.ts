/**
 * The team gateway's own API, for the taskpane: how to sign in, who the gateway sees, the user's own service
 * key (registered, replaced or forgotten; never read back), the team budget and today's usage. Answers are
 * bounded and checked; failures come back in plain words.
 */
import { CryptometricsError, isLoopbackHost, type ApiKeySource } from "../../client";

/** The page's fetch (or a test's): method, headers and a body, no redirects followed elsewhere. */
export type PlainFetch = (url: string, init: RequestInit) => Promise<Response>;
import type { SignInConfig } from "./sources";

export interface GatewayBudget {
  limit: number;
  windowMs: number;
  used: number;
  key: "team" | "own" | "none";
}

export interface GatewayMe {
  user: string;
  name?: string;
  via: string;
  admin: boolean;
  ownKey: {
    accepted: boolean;
    required: boolean;
    registered: boolean;
    since?: string;
    last4?: string;
  };
  budget: GatewayBudget;
  usage: { day: string; requests: number; hits: number; upstream: number };
}

const MAX_BYTES = 64 * 1024;
const TIMEOUT_MS = 10_000;

async function exchange(
  fetchFn: PlainFetch | undefined,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string }
): Promise<{ status: number; body: unknown }> {
  const doFetch = fetchFn ?? ((u: string, i: RequestInit) => fetch(u, i));
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  try {
    const response = await doFetch(url, {
      ...init,
      signal: controller.signal,
      redirect: "error",
      credentials: "omit",
    });
    const text = (await response.text()).slice(0, MAX_BYTES);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: response.status, body };
  } catch (error) {
    throw new CryptometricsError(
      controller.signal.aborted ? "timeout" : "network",
      controller.signal.aborted
        ? "The team gateway did not answer within 10 seconds"
        : "The team gateway could not be reached: check the service address in Settings",
      { operation: "gateway-account", cause: error }
    );
  } finally {
    clearTimeout(timer);
  }
}

/** Plain http only for the gateway's own issuer on this computer (as the service address itself). */
function loopbackOwnIssuer(authority: string, baseUrl: string): boolean {
  try {
    const a = new URL(authority);
    return (
      a.protocol === "http:" && isLoopbackHost(a.hostname) && a.origin === new URL(baseUrl).origin
    );
  } catch {
    return false;
  }
}

function messageOf(body: unknown, fallback: string): string {
  const m = (body as { message?: unknown } | undefined)?.message;
  return typeof m === "string" && m.length < 500 ? m : fallback;
}

export class GatewayAccount {
  constructor(
    private readonly baseUrl: string,
    private readonly token: ApiKeySource,
    private readonly fetchFn?: PlainFetch
  ) {}

  /** How to sign in to the gateway at `baseUrl` (no token needed). */
  static async signInConfig(baseUrl: string, fetchFn?: PlainFetch): Promise<SignInConfig> {
    const { status, body } = await exchange(
      fetchFn,
      new URL("/gateway/v1/sign-in", baseUrl).toString(),
      { method: "GET", headers: { accept: "application/json" } }
    );
    if (status === 404)
      throw new Error(
        "The service address offers no sign-in (it is the service itself, or a gateway without sign-in set up): set your team gateway's address above, or use your own key"
      );
    const c = body as Partial<SignInConfig> | undefined;
    if (
      status !== 200 ||
      typeof c?.clientId !== "string" ||
      c.clientId === "" ||
      typeof c.authority !== "string" ||
      !(/^https:\/\//.test(c.authority) || loopbackOwnIssuer(c.authority, baseUrl)) ||
      !Array.isArray(c.scopes) ||
      !c.scopes.every((s) => typeof s === "string")
    )
      throw new Error(
        "The team gateway's sign-in settings could not be read: tell its administrator"
      );
    return { clientId: c.clientId, authority: c.authority, scopes: c.scopes };
  }

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const token = typeof this.token === "function" ? await this.token() : this.token;
    const answer = await exchange(this.fetchFn, new URL(path, this.baseUrl).toString(), {
      method,
      headers: {
        accept: "application/json",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (answer.status !== 200)
      throw new CryptometricsError(
        answer.status === 401 ? "unauthorized" : answer.status === 400 ? "invalid-input" : "server",
        messageOf(answer.body, `The team gateway answered ${answer.status}`),
        { operation: "gateway-account", status: answer.status }
      );
    return answer.body;
  }

  async me(): Promise<GatewayMe> {
    return (await this.call("GET", "/gateway/v1/me")) as GatewayMe;
  }

  async registerKey(key: string): Promise<void> {
    await this.call("PUT", "/gateway/v1/me/key", { key });
  }

  async forgetKey(): Promise<void> {
    await this.call("DELETE", "/gateway/v1/me/key");
  }
}
