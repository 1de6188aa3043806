import type { ErrorKind } from "../errors";

/** The label column. Short label of the kind in the client's own messages: "getProject(aave): not found (HTTP 404)". */
export const LABELS: { readonly [K in ErrorKind]: string } = {
  "invalid-input": "invalid input",
  unauthorized: "not authorised (check the API key)",
  subscription: "not covered by the subscription",
  "not-found": "not found",
  "rate-limited": "rate limited",
  server: "service error",
  network: "network error",
  timeout: "timed out",
  cancelled: "cancelled",
  "malformed-response": "unusable response",
  "too-large": "answer too large",
};
