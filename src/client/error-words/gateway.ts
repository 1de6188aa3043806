import type { ErrorKind } from "../errors";
import type { GatewayWords } from "./words";

/** The gateway column. The team gateway's answer: status, fixed text, Retry-After (src/gateway/errors.ts). */
export const GATEWAY_WORDS: { readonly [K in ErrorKind]: GatewayWords } = {
  "invalid-input": {
    status: 400,
    passStatus: true,
    text: "The service refused this request as invalid: check the ids, dates and options it asks for",
  },

  // The gateway's service key was refused: the administrator's problem, not the caller's.
  unauthorized: {
    status: 502,
    text: "The team gateway's service key was refused by the service; tell the gateway's administrator",
    ownKey: {
      status: 403,
      text: "The service refused your own service key (registered on this team gateway): register it again in the add-in's Settings, or remove it to be served with the team's key",
    },
  },
  subscription: {
    status: 502,
    text: "The team gateway's service plan does not cover this request; tell the gateway's administrator",
    ownKey: {
      status: 403,
      text: "Your own service key's plan does not cover this request: check your plan, or remove your key to be served with the team's key",
    },
  },
  "not-found": {
    status: 404,
    passStatus: true,
    text: "Not found at the service: the project, product, market sector or metric asked for is not one it has",
  },
  "rate-limited": {
    status: 429,
    text: "The service's rate limit was reached; try again in a few seconds",
    retryAfterSeconds: 2,
  },
  server: {
    status: 502,
    text: "The service failed to answer the team gateway; try again shortly",
  },
  network: {
    status: 502,
    text: "The service could not be reached from the team gateway; try again shortly",
  },
  timeout: {
    status: 504,
    text: "The service did not answer the team gateway in time; try again shortly",
  },
  cancelled: {
    status: 503,
    text: "The request was cancelled (the team gateway is stopping); try again",
  },
  "malformed-response": {
    status: 502,
    text: "The service's answer could not be read by the team gateway",
  },
  "too-large": {
    status: 502,
    text: "The service's answer was too large for the team gateway to read",
  },
};
