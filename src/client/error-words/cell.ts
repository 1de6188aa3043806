import type { ErrorKind } from "../errors";
import { waitedForBudget, type CellHints, type CellText, type CellWords } from "./words";

/** "use Refresh later" → "Use Refresh later". */
function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const PLAIN: CellText = { before: "", after: "" };

/** A cell's words when the service could not be asked or did not answer. */
function unreachable(h: CellHints): CellText {
  return {
    before: "The service could not be reached: ",
    after: `. ${sentence(h.retry("once it is back"))}.`,
  };
}

/** The cell column. A cell: the Excel error's name and the advice around the message (src/functions/edge.ts). */
export const CELL_WORDS: { readonly [K in ErrorKind]: CellWords } = {
  "invalid-input": { excel: "#VALUE!", call: true, says: () => PLAIN },
  unauthorized: {
    excel: "#VALUE!",
    call: false,
    says: (h) => ({ before: "", after: `: ${h.settings}.` }),
  },
  subscription: {
    excel: "#VALUE!",
    call: false,
    says: (h) => ({
      before: "",
      after: `: your plan does not cover this call; check the key (${h.settings}).`,
    }),
  },
  "not-found": { excel: "#N/A", call: true, says: () => PLAIN },
  "rate-limited": {
    excel: "#N/A",
    call: true,
    says: (h) => ({
      before: `The service is still rate-limiting after retries; ${h.retry("in a minute")}. (`,
      after: ")",
    }),
  },
  server: { excel: "#N/A", call: true, says: unreachable },
  network: { excel: "#N/A", call: true, says: unreachable },
  timeout: {
    excel: "#N/A",
    call: true,
    says: (h, error) =>
      waitedForBudget(error)
        ? { before: "", after: `. ${sentence(h.retry("in a minute"))}.` }
        : unreachable(h),
  },
  cancelled: { excel: "#N/A", call: true, says: () => ({ text: "Cancelled." }) },

  // The service answered, but not in a form that can be read: not "could not be reached". A captive portal or
  // a cut body heals; a wrong address does not: both pieces of advice.
  "malformed-response": {
    excel: "#N/A",
    call: true,
    says: (h) => ({
      before: "The service's answer could not be read: ",
      after: `. ${sentence(h.retry("later"))}; if it persists, ${h.address}.`,
    }),
  },

  // Not the service being down: the same request would be refused again, so no advice to ask again.
  "too-large": { excel: "#N/A", call: true, says: () => PLAIN },
};
