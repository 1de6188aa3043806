/**
 * What the taskpane says when something fails: plain words about what happened and what to do, never the
 * client's internal names ("listMarketSectors()", "createClient"), attempt counts or stack-like detail, and
 * the actions that help: Retry (a passing problem: the network, a busy or failing service) and Go to
 * Settings (a missing or refused key, a wrong service address). Pure: the views turn actions into buttons.
 */
import { isCryptometricsError } from "../../client";

type ErrorAction = "retry" | "settings";

interface PlainError {
  message: string;
  actions: ErrorAction[];
}

/** "getProject(aave): …", "createClient: …": the client's labels, which mean nothing to a user. */
const INTERNAL_LABEL = /^(?:[a-z][A-Za-z]*(?:\([^)]*\))?:\s*)+/;
/** " (gave up after 6 attempts; …)": retry bookkeeping. */
const RETRY_NOTE = /\s*\((?:gave up after|no time left|the call's deadline)[^)]*\)/g;

/** A client message without its internal label and retry notes, first letter capitalised, full stop. */
export function cleanMessage(message: string): string {
  const stripped = message.replace(RETRY_NOTE, "").replace(INTERNAL_LABEL, "").trim();
  if (stripped === "") return "";
  const sentence = stripped[0].toUpperCase() + stripped.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

function seconds(ms: number | undefined): string {
  const s = Math.max(1, Math.ceil((ms ?? 60_000) / 1000));
  return `${s} second${s === 1 ? "" : "s"}`;
}

/**
 * `doing` names what failed, as the end of "Could not …": "load the catalogue", "load Aave",
 * "insert the formula". The reason and what to do follow.
 */
export function explainError(error: unknown, doing: string): PlainError {
  const could = `Could not ${doing}`;
  if (!isCryptometricsError(error)) {
    const text = cleanMessage(error instanceof Error ? error.message : String(error));
    // What the workbook refuses (no Excel here, cells not empty) does not change by trying again.
    const lasting = error instanceof Error && error.name === "WorkbookError";
    return {
      message: text ? `${could}: ${text}` : `${could}.`,
      actions: lasting ? [] : ["retry"],
    };
  }
  switch (error.kind) {
    case "invalid-input":
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
        message: `${could}: ${error.status === 400 ? "the service did not accept the request. " : ""}${cleanMessage(error.message)}`,
        actions: [],
      };
    case "unauthorized":
      return error.status === undefined
        ? {
            message: `${could}: no API key is saved. Paste your key in Settings.`,
            actions: ["settings"],
          }
        : {
            message: `${could}: the service refused the API key. Check the key in Settings.`,
            actions: ["settings"],
          };
    case "subscription":
      return {
        message: `${could}: your subscription does not include this data. Check your plan on your account page.`,
        actions: [],
      };
    case "not-found":
      // A catalogue (no ids) is never "not found" at the service's own address: the address is wrong.
      return error.ids?.length
        ? { message: `${could}: the service has no data for ${error.ids.join(", ")}.`, actions: [] }
        : {
            message: `${could}: the service address in Settings does not answer like the metrics service (not found). Check the address in Settings.`,
            actions: ["settings"],
          };
    case "rate-limited":
      return {
        message: `${could}: the service is receiving too many requests. Try again in ${seconds(error.retryAfterMs)}.`,
        actions: ["retry"],
      };
    case "server":
      return {
        message: `${could}: the service had a problem. Try again in a moment.`,
        actions: ["retry"],
      };
    case "network":
      return {
        message: `${could}: the service could not be reached. Check your internet connection and the service address in Settings.`,
        actions: ["retry", "settings"],
      };
    case "timeout":
      return {
        message: `${could}: the service did not answer in time.`,
        actions: ["retry"],
      };
    case "cancelled":
      return {
        message: `${could}: it was cancelled (the connection settings changed).`,
        actions: ["retry"],
      };
    case "too-large":
      return {
        message: `${could}: the service's answer was too large to read. Ask for fewer projects or metrics, or a shorter range.`,
        actions: [],
      };
    case "malformed-response":
      // Waiting does not change what answers at an address: no Retry, the address is what to fix.
      return {
        message: `${could}: the address in Settings answered, but not like the metrics service. Check the service address.`,
        actions: ["settings"],
      };
  }
}
