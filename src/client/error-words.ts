/**
 * What each audience is told about each kind of failure: ONE table, a row per error kind (ERROR_KINDS) and a
 * column per audience. Every place that puts a failure into words derives them from here:
 *
 * | column       | who reads it                          | used by                               |
 * |--------------|---------------------------------------|---------------------------------------|
 * | `label`      | developers, logs: the client's message | src/client/http/response.ts          |
 * | `cell`       | a person looking at a failing cell    | src/functions/edge.ts                 |
 * | `taskpane`   | a person in the taskpane              | src/taskpane/model/plain-errors.ts    |
 * | `gateway`    | the add-in behind a team gateway      | src/gateway/errors.ts                 |
 * | `connection` | a person pressing "Test connection"   | src/runtime/connection-test.ts        |
 *
 * Why here: the table must be importable by the functions, the taskpane, the gateway and the runtime, and the
 * client is the one layer all of them stand on (its rules: no Office, no DOM, nothing above it). So the cell
 * column holds the Excel error's *name* as data ("#VALUE!", "#N/A"), and only src/functions turns it into a
 * CustomFunctions.Error; the hints that depend on where the words are read (Excel's Refresh or the CLI's flags)
 * are handed in by the caller. The table is a mapped type over ErrorKind: a kind without a row, or a row without
 * a column, does not compile, and test/client/error-words.test.ts says so at run time too.
 *
 * Where an audience's words vary with the failure (a key missing or refused, an address that is not the service),
 * the column is a small function of the error's facts; the words themselves stay here.
 */
import type { CryptometricsError, ErrorKind } from "./errors";

/** The audiences, in the table's column order. */
export const AUDIENCES = ["label", "cell", "taskpane", "gateway", "connection"] as const;

/** Excel errors by their name in Excel; src/functions makes the CustomFunctions.Error. */
export type ExcelErrorName = "#VALUE!" | "#N/A";

/** Where a cell's words are read: Excel (the taskpane, Refresh) or the command line (its flags). */
export interface CellHints {
  /** Where the key is set: "set your API key in the Cryptometrics taskpane (Settings)". */
  settings: string;
  /** Where the service address is set. */
  address: string;
  /** How to ask again; `when` ends the sentence ("in a minute"). */
  retry(when: string): string;
}

/** A cell's text: the client's message with advice `before` and `after` it (advice survives clipping), or fixed text. */
type CellText = { before: string; after: string } | { text: string };

interface CellWords {
  excel: ExcelErrorName;
  /**
   * Whether the message keeps the words of what was asked ("the fees breakdown for aave: …"): not for a missing
   * or refused key, which is the same whatever was asked.
   */
  call: boolean;
  says(hints: CellHints, error: CryptometricsError): CellText;
}

type PaneAction = "retry" | "settings";

export interface PaneWords {
  message: string;
  actions: PaneAction[];
}

/** What the taskpane knows when it speaks: "Could not <doing>", and the client's message cleaned of its labels. */
interface PaneFacts {
  could: string;
  reason: string;
}

interface GatewayWords {
  /** The status answered when the service failed this way (the gateway's own business: 5xx). */
  status: number;
  /** The service's own 4xx is passed on instead, when it gave one (its 400, 404, 410). */
  passStatus?: true;
  /** Fixed text: never anything the caller sent, never the service's text (src/gateway/errors.ts). */
  text: string;
  /** With the caller's own registered key: their key, their business. */
  ownKey?: { status: number; text: string };
  /** Retry-After (seconds) when the error carries none. */
  retryAfterSeconds?: number;
}

export type Verdict =
  | "valid"
  | "key-rejected"
  | "subscription"
  | "unreachable"
  | "not-configured"
  | "wrong-address"
  | "service-problem";

interface ConnectionWords {
  verdict: Verdict;
  message: string;
}

interface KindWords {
  /** Short label of the kind in the client's own messages: "getProject(aave): not found (HTTP 404)". */
  label: string;
  cell: CellWords;
  taskpane(error: CryptometricsError, facts: PaneFacts): PaneWords;
  gateway: GatewayWords;
  /** `where`: " at <address>", or "" when no address is known. */
  connection(error: CryptometricsError, where: string): ConnectionWords;
}

/** "use Refresh later" → "Use Refresh later". */
function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function seconds(ms: number | undefined): string {
  const s = Math.max(1, Math.ceil((ms ?? 60_000) / 1000));
  return `${s} second${s === 1 ? "" : "s"}`;
}

const PLAIN: CellText = { before: "", after: "" };

/** A cell's words when the service could not be asked or did not answer. */
function unreachable(h: CellHints): CellText {
  return {
    before: "The service could not be reached: ",
    after: `. ${sentence(h.retry("once it is back"))}.`,
  };
}

/**
 * A time-out with no attempt made: the call waited for a turn in the request budget (other calls or runs of the
 * key may hold it) and the service was never asked. Not "could not be reached", in any audience.
 */
function waitedForBudget(error: CryptometricsError): boolean {
  return error.kind === "timeout" && error.attempts === 0;
}

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

/** The table: one row per kind, one column per audience (see the module comment). */
export const ERROR_WORDS: { readonly [K in ErrorKind]: KindWords } = {
  "invalid-input": {
    label: "invalid input",
    cell: { excel: "#VALUE!", call: true, says: () => PLAIN },
    taskpane: (error, { could, reason }) => {
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
    gateway: {
      status: 400,
      passStatus: true,
      text: "The service refused this request as invalid: check the ids, dates and options it asks for",
    },
    connection: (error) => ({
      verdict: "not-configured",
      message:
        error.operation === "configure"
          ? "Not set up: enter the service address and save it first."
          : error.operation === "createClient"
            ? "Not set up: the service address is not a valid web address. Enter the full address, starting with https://."
            : `Not set up: ${error.message}.`,
    }),
  },
  unauthorized: {
    label: "not authorised (check the API key)",
    cell: {
      excel: "#VALUE!",
      call: false,
      says: (h) => ({ before: "", after: `: ${h.settings}.` }),
    },
    // No status: refused before sending (no key saved, or one that cannot be sent).
    taskpane: (error, { could }) =>
      error.status === undefined
        ? {
            message: `${could}: no API key is saved. Paste your key in Settings.`,
            actions: ["settings"],
          }
        : {
            message: `${could}: the service refused the API key. Check the key in Settings.`,
            actions: ["settings"],
          },
    // The gateway's service key was refused: the administrator's problem, not the caller's.
    gateway: {
      status: 502,
      text: "The team gateway's service key was refused by the service; tell the gateway's administrator",
      ownKey: {
        status: 403,
        text: "The service refused your own service key (registered on this team gateway): register it again in the add-in's Settings, or remove it to be served with the team's key",
      },
    },
    connection: (error, where) =>
      error.status === undefined
        ? {
            verdict: "not-configured",
            message: `No usable API key: ${error.message.replace(/^[^:]*: /, "")}. Paste your key above and save it.`,
          }
        : {
            verdict: "key-rejected",
            message: `Key rejected: the service${where} refused it (401). Paste the whole key from your account page, then save it again.`,
          },
  },
  subscription: {
    label: "not covered by the subscription",
    cell: {
      excel: "#VALUE!",
      call: false,
      says: (h) => ({
        before: "",
        after: `: your plan does not cover this call; check the key (${h.settings}).`,
      }),
    },
    taskpane: (_error, { could }) => ({
      message: `${could}: your subscription does not include this data. Check your plan on your account page.`,
      actions: [],
    }),
    gateway: {
      status: 502,
      text: "The team gateway's service plan does not cover this request; tell the gateway's administrator",
      ownKey: {
        status: 403,
        text: "Your own service key's plan does not cover this request: check your plan, or remove your key to be served with the team's key",
      },
    },
    connection: (error) => ({
      verdict: "subscription",
      message: `Subscription problem: the key is recognised, but your plan does not allow this (${error.status ?? "402/403"}). Check your subscription on your account page.`,
    }),
  },
  "not-found": {
    label: "not found",
    cell: { excel: "#N/A", call: true, says: () => PLAIN },
    // A catalogue (no ids) is never "not found" at the service's own address: the address is wrong.
    taskpane: (error, { could }) =>
      error.ids?.length
        ? { message: `${could}: the service has no data for ${error.ids.join(", ")}.`, actions: [] }
        : {
            message: `${could}: the service address in Settings does not answer like the metrics service (not found). Check the address in Settings.`,
            actions: ["settings"],
          },
    gateway: {
      status: 404,
      passStatus: true,
      text: "Not found at the service: the project, product, market sector or metric asked for is not one it has",
    },
    // The metric list is never "not found" at the service's own address: the address is wrong.
    connection: (_error, where) => ({
      verdict: "wrong-address",
      message: `Wrong address: nothing${where} answers like the metrics service (its catalogue is not found there). Enter the service's own address below, the part before /v2.`,
    }),
  },
  "rate-limited": {
    label: "rate limited",
    cell: {
      excel: "#N/A",
      call: true,
      says: (h) => ({
        before: `The service is still rate-limiting after retries; ${h.retry("in a minute")}. (`,
        after: ")",
      }),
    },
    taskpane: (error, { could }) => ({
      message: `${could}: the service is receiving too many requests. Try again in ${seconds(error.retryAfterMs)}.`,
      actions: ["retry"],
    }),
    gateway: {
      status: 429,
      text: "The service's rate limit was reached; try again in a few seconds",
      retryAfterSeconds: 2,
    },
    connection: () => ({
      verdict: "service-problem",
      message: "The key works, but the service is rate-limiting right now. Try again in a minute.",
    }),
  },
  server: {
    label: "service error",
    cell: { excel: "#N/A", call: true, says: unreachable },
    taskpane: (_error, { could }) => ({
      message: `${could}: the service had a problem. Try again in a moment.`,
      actions: ["retry"],
    }),
    gateway: {
      status: 502,
      text: "The service failed to answer the team gateway; try again shortly",
    },
    connection: serviceProblem,
  },
  network: {
    label: "network error",
    cell: { excel: "#N/A", call: true, says: unreachable },
    taskpane: (_error, { could }) => ({
      message: `${could}: the service could not be reached. Check your internet connection and the service address in Settings.`,
      actions: ["retry", "settings"],
    }),
    gateway: {
      status: 502,
      text: "The service could not be reached from the team gateway; try again shortly",
    },
    connection: unreachableTest,
  },
  timeout: {
    label: "timed out",
    cell: {
      excel: "#N/A",
      call: true,
      says: (h, error) =>
        waitedForBudget(error)
          ? { before: "", after: `. ${sentence(h.retry("in a minute"))}.` }
          : unreachable(h),
    },
    taskpane: (error, { could }) =>
      waitedForBudget(error)
        ? {
            message: `${could}: the request waited too long for its turn in the request budget; the service was not asked. Try again in a minute.`,
            actions: ["retry"],
          }
        : { message: `${could}: the service did not answer in time.`, actions: ["retry"] },
    gateway: {
      status: 504,
      text: "The service did not answer the team gateway in time; try again shortly",
    },
    connection: (error, where) =>
      waitedForBudget(error)
        ? {
            verdict: "service-problem",
            message:
              "The test could not be sent: other requests of this key hold the request budget right now. Try again in a minute.",
          }
        : unreachableTest(error, where),
  },
  cancelled: {
    label: "cancelled",
    cell: { excel: "#N/A", call: true, says: () => ({ text: "Cancelled." }) },
    taskpane: (_error, { could }) => ({
      message: `${could}: it was cancelled (the connection settings changed).`,
      actions: ["retry"],
    }),
    gateway: {
      status: 503,
      text: "The request was cancelled (the team gateway is stopping); try again",
    },
    connection: unreachableTest,
  },
  "malformed-response": {
    label: "unusable response",
    // The service answered, but not in a form that can be read: not "could not be reached". A captive portal or
    // a cut body heals; a wrong address does not: both pieces of advice.
    cell: {
      excel: "#N/A",
      call: true,
      says: (h) => ({
        before: "The service's answer could not be read: ",
        after: `. ${sentence(h.retry("later"))}; if it persists, ${h.address}.`,
      }),
    },
    // Waiting does not change what answers at an address: no Retry, the address is what to fix.
    taskpane: (_error, { could }) => ({
      message: `${could}: the address in Settings answered, but not like the metrics service. Check the service address.`,
      actions: ["settings"],
    }),
    gateway: { status: 502, text: "The service's answer could not be read by the team gateway" },
    connection: (_error, where) => ({
      verdict: "wrong-address",
      message: `Wrong address: something answered${where}, but not like the metrics service. Check the service address below.`,
    }),
  },
  "too-large": {
    label: "answer too large",
    // Not the service being down: the same request would be refused again, so no advice to ask again.
    cell: { excel: "#N/A", call: true, says: () => PLAIN },
    taskpane: (_error, { could }) => ({
      message: `${could}: the service's answer was too large to read. Ask for fewer projects or metrics, or a shorter range.`,
      actions: [],
    }),
    gateway: {
      status: 502,
      text: "The service's answer was too large for the team gateway to read",
    },
    connection: serviceProblem,
  },
};
