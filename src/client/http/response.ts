/**
 * Reading one HTTP answer: an error status becomes the matching error kind; a 2xx must be a JSON
 * object with `data`, otherwise it is a "malformed-response" (HTML from a captive portal, a truncated
 * body, an empty one...) naming the operation and, briefly, what came back.
 *
 * A body that carries the key (or a stretch of it: a service echoing the request into its data) has every
 * string of its data redacted on arrival, before anything reads, shortens or shows it.
 */
import { parseRetryAfter } from "./backoff";
import { CryptometricsError, kindForStatus, messageOf } from "../errors";
import { LABELS } from "../error-words/labels";
import type { FetchResponseLike } from "./fetch";
import { isObject } from "../data/read";
import { redactRuns, snippet } from "../redact";
import type { JsonObject, JsonValue, WireEnvelope } from "../data/wire";

interface ResponseContext {
  operation: string;
  /** "getProject(aave)": operation and ids, the start of every message. */
  label: string;
  ids: readonly string[];
  url: string;
  secrets: readonly string[];
  now: number;
  attempt: number;
  /** A bare JSON list is an answer too (v1: its shape is not shown), read as its `data`. */
  bare?: boolean;
}

export function interpretResponse(
  res: FetchResponseLike,
  raw: string,
  ctx: ResponseContext
): WireEnvelope {
  // The one pass over the answer for the key (see ../redact.ts): every excerpt below is cut from `body`, the
  // answer as it may be shown, and the data's strings are redacted in place when the key was found.
  const body = redactRuns(raw, ctx.secrets);
  const leaks = body !== raw;
  const kind = kindForStatus(res.status);
  if (kind !== undefined)
    throw statusError(kind, res, serverMessage(raw, body, leaks ? ctx.secrets : []), ctx);

  const contentType = res.headers.get("content-type");
  const fail = (what: string, cause?: unknown): never => {
    throw new CryptometricsError(
      "malformed-response",
      `${ctx.label}: unusable response (HTTP ${res.status}): ${what}`,
      { ...details(ctx, res.status), cause }
    );
  };
  if (body.trim() === "") return fail("empty body");
  if (contentType !== null && !/[/+]json\b/i.test(contentType)) {
    return fail(`expected JSON, got ${contentType.split(";")[0]}: "${snippet(body, [])}"`);
  }
  let parsed: JsonValue;
  try {
    // The answer as sent: a redacted text may no longer be the JSON it was (a run across a quote).
    parsed = JSON.parse(raw) as JsonValue;
  } catch (error) {
    // JSON.parse quotes the text it could not read: its message is the answer's, found clean or redacted.
    return fail(
      `invalid JSON (truncated?): "${snippet(body, [])}"`,
      leaks ? new SyntaxError(redactRuns(messageOf(error), ctx.secrets)) : error
    );
  }
  // (On a hit, each string of the data is redacted on its own: more passes, for an answer that holds the key.)
  if (ctx.bare && Array.isArray(parsed)) {
    if (leaks) redactStrings({ data: parsed }, ctx.secrets);
    return { data: parsed, bare: true };
  }
  if (!isObject(parsed)) return fail(`expected a JSON object, got "${snippet(body, [])}"`);
  if (!("data" in parsed)) return fail(`no "data" member: "${snippet(body, [])}"`);
  if (leaks) redactStrings(parsed, ctx.secrets);
  return parsed.errors === undefined
    ? { data: parsed.data }
    : { data: parsed.data, errors: parsed.errors };
}

function statusError(
  kind: NonNullable<ReturnType<typeof kindForStatus>>,
  res: FetchResponseLike,
  said: string,
  ctx: ResponseContext
): CryptometricsError {
  const retryAfterMs =
    kind === "rate-limited" || kind === "server"
      ? parseRetryAfter(res.headers.get("retry-after"), ctx.now)
      : undefined;
  const message = `${ctx.label}: ${LABELS[kind]} (HTTP ${res.status})${said ? `: ${said}` : ""}`;
  return new CryptometricsError(kind, message, { ...details(ctx, res.status), retryAfterMs });
}

/**
 * The service's `{"message": ...}` (or `error`), else a snippet of the body: read from `body`, the answer as
 * redacted; when the redaction left no JSON (a run of the key across a quote), from the answer as sent
 * (`raw`), redacted again (`secrets`: given only when the answer held the key).
 */
function serverMessage(raw: string, body: string, secrets: readonly string[]): string {
  if (body.trim() === "") return "";
  const clean = messageIn(body);
  if (clean !== undefined) return snippet(clean, [], 200);
  const sent = secrets.length > 0 ? messageIn(raw) : undefined;
  if (sent !== undefined) return snippet(sent, secrets, 200);
  return `"${snippet(body, [])}"`;
}

/** The `message` (or `error`, `detail`) of a JSON object's text, if it is one. */
function messageIn(text: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    if (!isObject(parsed)) return undefined;
    const m = parsed.message ?? parsed.error ?? parsed.detail;
    return typeof m === "string" ? m : undefined;
  } catch {
    return undefined; // Not JSON: a snippet of the text instead.
  }
}

function details(ctx: ResponseContext, status: number) {
  return {
    operation: ctx.operation,
    ids: ctx.ids,
    status,
    attempts: ctx.attempt,
    request: { method: "GET" as const, url: ctx.url },
  };
}

/**
 * Redacts every string (member names included) of a parsed body in place. Iterative: a body nested
 * thousands of levels deep cannot overflow the stack here. Members are written with defineProperty, so a
 * "__proto__" member stays a plain member.
 */
function redactStrings(root: JsonObject, secrets: readonly string[]): void {
  const stack: Array<JsonObject | JsonValue[]> = [root];
  const visit = (value: JsonValue, set: (v: JsonValue) => void): void => {
    if (typeof value === "string") {
      const clean = redactRuns(value, secrets);
      if (clean !== value) set(clean);
    } else if (typeof value === "object" && value !== null) {
      stack.push(value);
    }
  };
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (Array.isArray(node)) {
      const list = node;
      list.forEach((v, i) => visit(v, (clean) => (list[i] = clean)));
      continue;
    }
    const obj = node;
    for (const name of Object.keys(obj)) {
      const value = obj[name];
      const cleanName = redactRuns(name, secrets);
      const target = cleanName === name ? name : cleanName;
      if (target !== name) delete obj[name];
      const put = (v: JsonValue): void =>
        void Object.defineProperty(obj, target, {
          value: v,
          writable: true,
          enumerable: true,
          configurable: true,
        });
      if (target !== name) put(value);
      visit(value, put);
    }
  }
}
