/**
 * "Test connection": one cheap request (the metric list) straight to the service, past the cache, with the
 * stored key; the outcome said in plain words. The message never contains the key: client errors are
 * redacted at the source and this module only adds the URL.
 */
import {
  CONNECTION_WORDS,
  isCryptometricsError,
  type ClientConfig,
  type MetricsClient,
  type Verdict,
} from "../client";
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

export interface ConnectionOutcome {
  verdict: Verdict;
  /** One or two sentences for the user. */
  message: string;
  /** The answer carried the simulator's mark: demo data. */
  simulated?: boolean;
}

export type ConnectionClient = Pick<MetricsClient, "listMetrics" | "baseUrl">;

/**
 * Plain words for a failed test; `baseUrl` names where we tried. A client error's words are the connection
 * column of the table of error words (src/client/error-words/).
 */
export function describeFailure(error: unknown, baseUrl: string): ConnectionOutcome {
  const where = baseUrl ? ` at ${baseUrl}` : "";
  if (!isCryptometricsError(error)) {
    return {
      verdict: "service-problem",
      message: `The test failed unexpectedly: ${messageOf(error)}`,
    };
  }
  return CONNECTION_WORDS[error.kind](error, where);
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
