/**
 * Reading one HTTP answer: an error status becomes the matching error kind; a 2xx must be a JSON
 * object with `data`, otherwise it is a "malformed-response" (HTML from a captive portal, a truncated
 * body, an empty one...) naming the operation and, briefly, what came back.
 *
 * A body that carries the key (or a stretch of it: a service echoing the request into its data) has every
 * string of its data redacted on arrival, before anything reads, shortens or shows it.
 */
import { parseRetryAfter } from "./backoff";
import { CryptometricsError, kindForStatus } from "../errors";
import { ERROR_WORDS } from "../error-words";
import type { FetchResponseLike } from "./fetch";
import { isObject } from "../data/read";
import { hasSecretRun, redactRuns, snippet } from "../redact";
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
  body: string,
  ctx: ResponseContext
): WireEnvelope {
  const kind = kindForStatus(res.status);
  if (kind !== undefined) throw statusError(kind, res, body, ctx);

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
    return fail(`expected JSON, got ${contentType.split(";")[0]}: "${snippet(body, ctx.secrets)}"`);
  }
  let parsed: JsonValue;
  try {
    parsed = JSON.parse(body) as JsonValue;
  } catch (error) {
    return fail(`invalid JSON (truncated?): "${snippet(body, ctx.secrets)}"`, error);
  }
  if (ctx.bare && Array.isArray(parsed)) {
    if (hasSecretRun(body, ctx.secrets)) redactStrings({ data: parsed }, ctx.secrets);
    return { data: parsed, bare: true };
  }
  if (!isObject(parsed)) return fail(`expected a JSON object, got "${snippet(body, ctx.secrets)}"`);
  if (!("data" in parsed)) return fail(`no "data" member: "${snippet(body, ctx.secrets)}"`);
  if (hasSecretRun(body, ctx.secrets)) redactStrings(parsed, ctx.secrets);
  return parsed.errors === undefined
    ? { data: parsed.data }
    : { data: parsed.data, errors: parsed.errors };
}

function statusError(
  kind: NonNullable<ReturnType<typeof kindForStatus>>,
  res: FetchResponseLike,
  body: string,
  ctx: ResponseContext
): CryptometricsError {
  const said = serverMessage(body, ctx.secrets);
  const retryAfterMs =
    kind === "rate-limited" || kind === "server"
      ? parseRetryAfter(res.headers.get("retry-after"), ctx.now)
      : undefined;
  const message = `${ctx.label}: ${ERROR_WORDS[kind].label} (HTTP ${res.status})${said ? `: ${said}` : ""}`;
  return new CryptometricsError(kind, message, { ...details(ctx, res.status), retryAfterMs });
}

/** The service's `{"message": ...}` (or `error`), else a snippet of the body; secrets redacted. */
function serverMessage(body: string, secrets: readonly string[]): string {
  if (body.trim() === "") return "";
  try {
    const parsed: unknown = JSON.parse(body);
    if (isObject(parsed)) {
      const m = parsed.message ?? parsed.error ?? parsed.detail;
      if (typeof m === "string") return snippet(m, secrets, 200);
    }
  } catch {
    // Not JSON: fall through to a snippet of the text.
  }
  return `"${snippet(body, secrets)}"`;
}

function details(ctx: ResponseContext, status: number) {
  return {
    operation: ctx.operation,
    ids: ctx.ids,
    status,
    attempts: ctx.attempt,
    request: { method: "GET" as const, url: ctx.url },
    secrets: ctx.secrets,
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
