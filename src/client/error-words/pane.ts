import type { CryptometricsError, ErrorKind } from "../errors";
import { waitedForBudget, type PaneFacts, type PaneWords } from "./words";

function seconds(ms: number | undefined): string {
  const s = Math.max(1, Math.ceil((ms ?? 60_000) / 1000));
  return `${s} second${s === 1 ? "" : "s"}`;
}

/** The taskpane column. The taskpane: its message and buttons (src/taskpane/model/plain-errors.ts). */
export const PANE_WORDS: {
  readonly [K in ErrorKind]: (error: CryptometricsError, facts: PaneFacts) => PaneWords;
} = {
  "invalid-input": (error, { could, reason }) => {
    if (error.operation === "configure")
      return {
        message: `${could}: the service address is not set. Set it in Settings.`,
        actions: ["settings"],
      };
    if (error.operation === "createClient")
      return {
        message: `${could}: the service address in Settings is not a valid web address. Enter the full address, starting with https://.`,
        actions: ["settings"],
      };
    return {
      message: `${could}: ${error.status === 400 ? "the service did not accept the request. " : ""}${reason}`,
      actions: [],
    };
  },

  // No status: refused before sending (no key saved, or one that cannot be sent).
  unauthorized: (error, { could }) =>
    error.status === undefined
      ? {
          message: `${could}: no API key is saved. Paste your key in Settings.`,
          actions: ["settings"],
        }
      : {
          message: `${could}: the service refused the API key. Check the key in Settings.`,
          actions: ["settings"],
        },
  subscription: (_error, { could }) => ({
    message: `${could}: your subscription does not include this data. Check your plan on your account page.`,
    actions: [],
  }),

  // A catalogue (no ids) is never "not found" at the service's own address: the address is wrong.
  "not-found": (error, { could }) =>
    error.ids?.length
      ? { message: `${could}: the service has no data for ${error.ids.join(", ")}.`, actions: [] }
      : {
          message: `${could}: the service address in Settings does not answer like the metrics service (not found). Check the address in Settings.`,
          actions: ["settings"],
        },
  "rate-limited": (error, { could }) => ({
    message: `${could}: the service is receiving too many requests. Try again in ${seconds(error.retryAfterMs)}.`,
    actions: ["retry"],
  }),
  server: (_error, { could }) => ({
    message: `${could}: the service had a problem. Try again in a moment.`,
    actions: ["retry"],
  }),
  network: (_error, { could }) => ({
    message: `${could}: the service could not be reached. Check your internet connection and the service address in Settings.`,
    actions: ["retry", "settings"],
  }),
  timeout: (error, { could }) =>
    waitedForBudget(error)
      ? {
          message: `${could}: the request waited too long for its turn in the request budget; the service was not asked. Try again in a minute.`,
          actions: ["retry"],
        }
      : { message: `${could}: the service did not answer in time.`, actions: ["retry"] },
  cancelled: (_error, { could }) => ({
    message: `${could}: it was cancelled (the connection settings changed).`,
    actions: ["retry"],
  }),

  // Waiting does not change what answers at an address: no Retry, the address is what to fix.
  "malformed-response": (_error, { could }) => ({
    message: `${could}: the address in Settings answered, but not like the metrics service. Check the service address.`,
    actions: ["settings"],
  }),
  "too-large": (_error, { could }) => ({
    message: `${could}: the service's answer was too large to read. Ask for fewer projects or metrics, or a shorter range.`,
    actions: [],
  }),
};
