/**
 * A service address is tried before it is kept, as a key is: one cheap catalogue request (the metric list,
 * `GET <address>/v2/metrics`) with the connection test's 3-second policy, and the address is kept only when
 * something there answers as the interface says the service does. Nothing is refused by rule but the one
 * mistake the interface itself rules out (a version in the address: its paths start with /v2, so
 * `https://host/v2` would ask for /v2/v2/metrics); the add-in's own origin, say, is a service address where
 * a team gateway serves the interface there, and is refused where nothing does.
 *
 * What counts as the service answering: the catalogue itself (200 with a metric list), or the interface's
 * own refusals of a key (401, 402, 403) and its rate limit (429). Where no key is saved yet, the request
 * carries a stand-in key, never a secret: the real service refuses it with 401, which is the answer sought.
 * What is refused, with what to change: not found (404: not the service's address), an answer unlike the
 * interface (a web page), no answer at all or a server error (which may pass: the user may then keep the
 * address unchecked, said so).
 */
import {
  createClient,
  isCryptometricsError,
  type ApiKeySource,
  type ClientConfig,
  type FetchLike,
  type MetricsClient,
} from "../client";
import type { RateLimiter } from "../client";
import { messageOf } from "../client";
import { CONNECTION_TEST_LIMITS } from "./connection-test";

/** Sent in place of a key while none is saved: a service answers it with 401, a wrong address does not. */
export const STAND_IN_KEY = "cryptometrics-address-check";

export type AddressVerdict =
  | {
      ok: true;
      /** What the answer said, for the form's status: "The service at … answers (25 metrics)." */
      message: string;
      /** The answer came from the simulator: demo data. */
      simulated?: boolean;
      /** The service refused the key sent (the saved one, or the stand-in when none is saved). */
      keyRefused?: boolean;
    }
  | {
      ok: false;
      /** Why, and what to change: shown under the address field. */
      message: string;
      /**
       * The address may be right and the service down or failing right now: the user may keep it
       * unchecked. Never for an address that answered unlike the service.
       */
      mayKeepUnchecked: boolean;
    };

/** The part of the path from a version segment on ("/v2", "/v1/projects"), or undefined. */
function versionSuffix(url: URL): { kept: string; dropped: string } | undefined {
  const segments = url.pathname.split("/");
  const at = segments.findIndex((s) => /^v\d+$/i.test(s));
  if (at < 0) return undefined;
  const kept = segments.slice(0, at).join("/");
  return { kept, dropped: segments.slice(at).join("/").replace(/\/$/, "") };
}

/**
 * The mistake the interface rules out before any request: an address that already holds the version
 * ("https://host/v2"). The message says what to drop and what remains.
 */
export function versionInAddress(address: string, who = "The add-in"): string | undefined {
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    return undefined;
  }
  const suffix = versionSuffix(url);
  if (!suffix) return undefined;
  const base = `${url.origin}${suffix.kept}`;
  return `Drop /${suffix.dropped}: the address is the part before it (${base}). ${who} adds /v2/… to it for each request.`;
}

interface AddressCheckDeps {
  /** The key to send: the saved one (or the build's), undefined when none is saved. */
  apiKey: ApiKeySource;
  fetch?: FetchLike;
  /** The runtime's limiter when there is one: the check counts against the same budget. */
  limiter?: RateLimiter;
  /** Test seams for the client's waits and clock (the real ones by default). */
  client?: Partial<Pick<ClientConfig, "sleep" | "timers" | "now">>;
}

function clientFor(address: string, deps: AddressCheckDeps): MetricsClient {
  const key = deps.apiKey;
  const withStandIn: ApiKeySource = async () => {
    const saved = typeof key === "function" ? await key() : key;
    return saved && saved.trim() !== "" ? saved : STAND_IN_KEY;
  };
  return createClient({
    baseUrl: address.trim(),
    apiKey: withStandIn,
    fetch: deps.fetch,
    ...(deps.limiter ? { limiter: deps.limiter } : {}),
    ...deps.client,
    ...CONNECTION_TEST_LIMITS,
  });
}

/** Tries `address` as the service's address; says whether to keep it and, if not, what to change. */
export async function checkServiceAddress(
  address: string,
  deps: AddressCheckDeps
): Promise<AddressVerdict> {
  const version = versionInAddress(address);
  if (version) return { ok: false, message: version, mayKeepUnchecked: false };
  let client: MetricsClient;
  try {
    client = clientFor(address, deps);
  } catch (error) {
    return {
      ok: false,
      message: `This address cannot be used: ${messageOf(error).replace(/^createClient: /, "")}.`,
      mayKeepUnchecked: false,
    };
  }
  const where = client.baseUrl.replace(/\/$/, "");
  try {
    const result = await client.listMetrics();
    return {
      ok: true,
      simulated: result.meta.simulated,
      message: `The service at ${where} answers (${result.data.length} metrics).${result.meta.simulated ? " It is the local simulator: demo data." : ""}`,
    };
  } catch (error) {
    if (!isCryptometricsError(error))
      return {
        ok: false,
        message: `The address could not be tried: ${messageOf(error)}`,
        mayKeepUnchecked: true,
      };
    switch (error.kind) {
      case "unauthorized":
        // A refusal before sending (a saved key that cannot be sent) says nothing about the address.
        if (error.status === undefined)
          return {
            ok: false,
            message: "The saved API key cannot be sent (it holds spaces): paste it again below.",
            mayKeepUnchecked: true,
          };
        return {
          ok: true,
          keyRefused: true,
          message: `The service at ${where} answers, and asks for a valid API key.`,
        };
      case "subscription":
        return {
          ok: true,
          message: `The service at ${where} answers; your plan does not cover its catalogue (${error.status ?? "402/403"}).`,
        };
      case "rate-limited":
        return {
          ok: true,
          message: `The service at ${where} answers (it is rate-limiting right now).`,
        };
      case "not-found":
        return {
          ok: false,
          message: `Nothing at ${where} answers like the metrics service: its catalogue (/v2/metrics) is not found there (404). Enter the service's own address, the part before /v2.`,
          mayKeepUnchecked: false,
        };
      case "malformed-response":
      case "too-large":
        return {
          ok: false,
          message: `Something answers at ${where}, but not like the metrics service (no catalogue came back). Check the address: it is the service's, not a web page's.`,
          mayKeepUnchecked: false,
        };
      case "network":
      case "timeout":
      case "cancelled":
        return {
          ok: false,
          message: `No answer from ${where} (${error.kind === "network" ? "it could not be reached" : "nothing came back in time"}). Check the address and your connection. If the service is down right now, you can keep the address unchecked.`,
          mayKeepUnchecked: true,
        };
      case "server":
        return {
          ok: false,
          message: `The server at ${where} failed (${error.status ?? "5xx"}), so the address could not be checked. Try again, or keep the address unchecked.`,
          mayKeepUnchecked: true,
        };
      case "invalid-input":
        return {
          ok: false,
          message: `This address cannot be used: ${messageOf(error).replace(/^[a-zA-Z]+(\([^)]*\))?: /, "")}.`,
          mayKeepUnchecked: false,
        };
    }
  }
}
