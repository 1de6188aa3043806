/**
 * What the taskpane says when something fails: plain words about what happened and what to do, never the
 * client's internal names ("listMarketSectors()", "createClient"), attempt counts or stack-like detail, and
 * the actions that help: Retry (a passing problem: the network, a busy or failing service) and Go to
 * Settings (a missing or refused key, a wrong service address). Pure: the views turn actions into buttons.
 */
import { PANE_WORDS, isCryptometricsError, type PaneWords } from "../../client";

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

/**
 * `doing` names what failed, as the end of "Could not …": "load the catalogue", "load Aave",
 * "insert the formula". The reason and what to do follow: for a client error, the taskpane column of the
 * table of error words (src/client/error-words/).
 */
export function explainError(error: unknown, doing: string): PaneWords {
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
  return PANE_WORDS[error.kind](error, {
    could,
    reason: cleanMessage(error.message),
  });
}
