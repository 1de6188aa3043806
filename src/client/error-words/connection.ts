import type { CryptometricsError, ErrorKind } from "../errors";
import { waitedForBudget, type ConnectionWords } from "./words";

/** The connection test's words for a service that failed to answer well (a 5xx, an answer too large). */
function serviceProblem(error: CryptometricsError, where: string): ConnectionWords {
  return {
    verdict: "service-problem",
    message: `The service${where} had a problem${error.status ? ` (it answered ${error.status})` : ""}. Try again later.`,
  };
}

function unreachableTest(error: CryptometricsError, where: string): ConnectionWords {
  return {
    verdict: "unreachable",
    message: `Unreachable: no answer from the service${where} (${error.kind === "network" ? "network error" : "no answer in time"}). Check the service address and your internet connection.`,
  };
}

/** The connection column. "Test connection": a verdict and its message (src/runtime/connection-test.ts); `where`: " at <address>", or "". */
export const CONNECTION_WORDS: {
  readonly [K in ErrorKind]: (error: CryptometricsError, where: string) => ConnectionWords;
} = {
  "invalid-input": (error) => ({
    verdict: "not-configured",
    message:
      error.operation === "configure"
        ? "Not set up: enter the service address and save it first."
        : error.operation === "createClient"
          ? "Not set up: the service address is not a valid web address. Enter the full address, starting with https://."
          : `Not set up: ${error.message}.`,
  }),
  unauthorized: (error, where) =>
    error.status === undefined
      ? {
          verdict: "not-configured",
          message: `No usable API key: ${error.message.replace(/^[^:]*: /, "")}. Paste your key above and save it.`,
        }
      : {
          verdict: "key-rejected",
          message: `Key rejected: the service${where} refused it (401). Paste the whole key from your account page, then save it again.`,
        },
  subscription: (error) => ({
    verdict: "subscription",
    message: `Subscription problem: the key is recognised, but your plan does not allow this (${error.status ?? "402/403"}). Check your subscription on your account page.`,
  }),

  // The metric list is never "not found" at the service's own address: the address is wrong.
  "not-found": (_error, where) => ({
    verdict: "wrong-address",
    message: `Wrong address: nothing${where} answers like the metrics service (its catalogue is not found there). Enter the service's own address below, the part before /v2.`,
  }),
  "rate-limited": () => ({
    verdict: "service-problem",
    message: "The key works, but the service is rate-limiting right now. Try again in a minute.",
  }),
  server: serviceProblem,
  network: unreachableTest,
  timeout: (error, where) =>
    waitedForBudget(error)
      ? {
          verdict: "service-problem",
          message:
            "The test could not be sent: other requests of this key hold the request budget right now. Try again in a minute.",
        }
      : unreachableTest(error, where),
  cancelled: unreachableTest,
  "malformed-response": (_error, where) => ({
    verdict: "wrong-address",
    message: `Wrong address: something answered${where}, but not like the metrics service. Check the service address below.`,
  }),
  "too-large": serviceProblem,
};
