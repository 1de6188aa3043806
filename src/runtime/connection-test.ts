/**
 * "Test connection": one cheap request (the metric list) straight to the service, past the cache, with the
 * stored key; the outcome said in plain words. The message never contains the key: client errors are
 * redacted at the source and this module only adds the URL.
 */
import { isCryptometricsError, type ClientConfig, type MetricsClient } from "../client";
import { messageOf } from "../client";

/**
 * The connection test's own policy, given to its client through the ordinary client options: a verdict
 * on screen within 3 seconds. A workbook's calls get the patient default policy (six attempts, up to two
 * minutes); a person waiting on a button does not, and a test only has to tell "answers" from "does not".
 */
export const CONNECTION_TEST_LIMITS: Readonly<
  Pick<ClientConfig, "retry" | "timeoutMs" | "deadlineMs">
> = Object.freeze({
  retry: Object.freeze({
    // One retry: a single dropped connection does not fail the test; a second failure is the answer.
    maxAttempts: 2,
    // A short pause before it: a refused connection is reported in well under a second.
    baseDelayMs: 200,
    rateLimitedBaseDelayMs: 200,
    // A service asking to wait longer than this is answered "rate-limiting right now" at once.
    maxRetryAfterMs: 1_000,
  }),
  // Per attempt: a live service lists its metrics in well under a second; one that has not answered
  // in 2.5 s is reported as not answering.
  timeoutMs: 2_500,
  // The whole test, a wait at the rate limiter included: the verdict comes before 3 s.
  deadlineMs: 2_800,
});

export type Verdict =
  | "valid"
  | "key-rejected"
  | "subscription"
  | "unreachable"
  | "not-configured"
  | "wrong-address"
  | "service-problem";

export interface ConnectionOutcome {
  verdict: Verdict;
  /** One or two sentences for the user. */
  message: string;
  /** The answer carried the simulator's mark: demo data. */
  simulated?: boolean;
}

export type ConnectionClient = Pick<MetricsClient, "listMetrics" | "baseUrl">;

/** Plain words for a failed test; `baseUrl` names where we tried. */
export function describeFailure(error: unknown, baseUrl: string): ConnectionOutcome {
  const where = baseUrl ? ` at ${baseUrl}` : "";
  if (!isCryptometricsError(error)) {
    return {
      verdict: "service-problem",
      message: `The test failed unexpectedly: ${messageOf(error)}`,
    };
  }
  switch (error.kind) {
    case "unauthorized":
      // No status: refused before sending (no key saved, or one that cannot be sent).
      if (error.status === undefined) {
        return {
          verdict: "not-configured",
          message: `No usable API key: ${error.message.replace(/^[^:]*: /, "")}. Paste your key above and save it.`,
        };
      }
      return {
        verdict: "key-rejected",
        message: `Key rejected: the service${where} refused it (401). Paste the whole key from your account page, then save it again.`,
      };
    case "subscription":
      return {
        verdict: "subscription",
        message: `Subscription problem: the key is recognised, but your plan does not allow this (${error.status ?? "402/403"}). Check your subscription on your account page.`,
      };
    case "network":
    case "timeout":
    case "cancelled":
      return {
        verdict: "unreachable",
        message: `Unreachable: no answer from the service${where} (${error.kind === "network" ? "network error" : "no answer in time"}). Check the service address and your internet connection.`,
      };
    case "invalid-input":
      return {
        verdict: "not-configured",
        message:
          error.operation === "configure"
            ? "Not set up: enter the service address and save it first."
            : error.operation === "createClient"
              ? "Not set up: the service address is not a valid web address. Enter the full address, starting with https://."
              : `Not set up: ${error.message}.`,
      };
    case "rate-limited":
      return {
        verdict: "service-problem",
        message:
          "The key works, but the service is rate-limiting right now. Try again in a minute.",
      };
    case "malformed-response":
      return {
        verdict: "wrong-address",
        message: `Wrong address: something answered${where}, but not like the metrics service. Check the service address below.`,
      };
    case "not-found":
      // The metric list is never "not found" at the service's own address: the address is wrong.
      return {
        verdict: "wrong-address",
        message: `Wrong address: nothing${where} answers like the metrics service (its catalogue is not found there). Enter the service's own address below, the part before /v2.`,
      };
    default:
      return {
        verdict: "service-problem",
        message: `The service${where} had a problem${error.status ? ` (it answered ${error.status})` : ""}. Try again later.`,
      };
  }
}

/** Runs the test. `getClient` throws when the runtime is not configured (no URL): that is reported too. */
export async function testConnection(
  getClient: () => Promise<ConnectionClient>,
  signal?: AbortSignal
): Promise<ConnectionOutcome> {
  let client: ConnectionClient;
  try {
    client = await getClient();
  } catch (error) {
    return describeFailure(error, "");
  }
  try {
    const result = await client.listMetrics({ signal });
    const source = result.meta.simulated
      ? " It is the local simulator: demo data, not real figures."
      : "";
    return {
      verdict: "valid",
      simulated: result.meta.simulated,
      message: `Valid key: connected to ${client.baseUrl} (${result.data.length} metrics available).${source}`,
    };
  } catch (error) {
    return describeFailure(error, client.baseUrl);
  }
}
