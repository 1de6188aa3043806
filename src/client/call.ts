/**
 * Running one client call: validate inputs, read the key, start the deadline, send the request(s)
 * (several when an id list is split), normalise and merge, and report the outcome. Every call
 * settles: with a result, or with a CryptometricsError that has also been emitted as an event.
 */
import { raceAbort } from "./http/abort";
import type { ApiKeySource, ResolvedConfig } from "./config";
import { CryptometricsError, messageOf } from "./errors";
import { redact, sanitizeCause } from "./redact";
import { callLabel } from "./label";
import { ShapeError } from "./data/read";
import type { CallContext, RequestSpec } from "./http/request";
import { sendRequest } from "./http/transport";
import type { ClientResult, PartialError, RepeatNote } from "./data/types";
import { checker, type Checker } from "./data/validate";
import type { WireEnvelope } from "./data/wire";

export interface CallPlan<T> {
  /** Ids named in messages and errors, e.g. [projectId] or [metricId]. */
  ids: readonly string[];
  /** The requests; each URL within limits (checked before sending). */
  requests: readonly RequestSpec[];
  /**
   * Normalise and merge the responses, in request order. ShapeError → "malformed-response". `repeats` says
   * what repeated rows were collapsed (undefined when none).
   */
  combine(responses: readonly WireEnvelope[]): {
    data: T;
    errors: PartialError[];
    repeats?: RepeatNote;
    /** What was set aside while reading (data/notes.ts); reported as notice events and in meta. */
    notes?: readonly string[];
  };
}

export type Planner<T> = (check: Checker) => CallPlan<T>;

/** Runs a planned call: what operations are written against. */
export type Runner = <T>(
  operation: string,
  pathIds: readonly string[],
  plan: Planner<T>,
  signal?: AbortSignal
) => Promise<ClientResult<T>>;

export async function runCall<T>(
  config: ResolvedConfig,
  operation: string,
  pathIds: readonly string[],
  plan: Planner<T>,
  signal?: AbortSignal
): Promise<ClientResult<T>> {
  const { deps } = config;
  let apiKey = "";
  const label = callLabel(operation, pathIds);
  try {
    const built = plan(checker(operation, label, pathIds));
    for (const request of built.requests) {
      if (request.url.length > deps.limits.maxUrlLength) {
        throw new CryptometricsError(
          "invalid-input",
          `${label}: the request URL would be ${request.url.length} characters, over the limit of ${deps.limits.maxUrlLength}; request fewer or shorter ids`,
          { operation, ids: built.ids }
        );
      }
    }
    return await execute(config, operation, built, signal, (key) => (apiKey = key));
  } catch (error) {
    const final = asFinal(error, operation, label, pathIds, apiKey);
    deps.events.emit({
      type: "error",
      operation,
      kind: final.kind,
      message: final.message,
      ...(final.status === undefined ? {} : { status: final.status }),
      ...(final.attempts === undefined ? {} : { attempts: final.attempts }),
    });
    throw final;
  }
}

async function execute<T>(
  config: ResolvedConfig,
  operation: string,
  plan: CallPlan<T>,
  signal: AbortSignal | undefined,
  keyRead: (key: string) => void
): Promise<ClientResult<T>> {
  const { deps } = config;
  const label = callLabel(operation, plan.ids);
  const controller = new AbortController();
  let deadlineHit = false;
  const onAbort = (): void => controller.abort(signal?.reason);
  if (signal?.aborted) controller.abort(signal.reason);
  else signal?.addEventListener("abort", onAbort, { once: true });
  // The client's lifetime too (a runtime replaced by new settings): cancelled like a caller's abort.
  const stopWatching = config.lifetime?.watch((reason) => controller.abort(reason));
  const deadline = deps.timers.setTimeout(() => {
    deadlineHit = true;
    controller.abort(new Error("deadline passed"));
  }, deps.limits.deadlineMs);
  const abortKind = (): "cancelled" | "timeout" =>
    deadlineHit && !signal?.aborted ? "timeout" : "cancelled";
  try {
    const apiKey = await readKeyWithin(
      config.apiKey,
      operation,
      label,
      plan.ids,
      controller.signal,
      abortKind
    );
    keyRead(apiKey);
    const call: CallContext = {
      operation,
      label,
      ids: plan.ids,
      apiKey,
      signal: controller.signal,
      deadlineAt: deps.now() + deps.limits.deadlineMs,
      abortKind,
      stats: { requests: 0, simulated: false, redirects: [] },
    };
    const responses = await allOrFirstFailure(
      plan.requests.map((request) => () => sendRequest(deps, call, request)),
      controller
    );
    const { data, errors, repeats, notes } = combine(plan, responses, call);
    for (const message of notes ?? [])
      deps.events.emit({ type: "notice", operation, message: `${label}: ${message}` });
    return {
      data,
      errors,
      meta: {
        requests: call.stats.requests,
        simulated: call.stats.simulated,
        redirects: call.stats.redirects,
        ...(repeats ? { repeats } : {}),
        ...(notes && notes.length > 0 ? { notes } : {}),
      },
    };
  } finally {
    deps.timers.clearTimeout(deadline);
    signal?.removeEventListener("abort", onAbort);
    stopWatching?.();
  }
}

function combine<T>(
  plan: CallPlan<T>,
  responses: readonly WireEnvelope[],
  call: CallContext
): ReturnType<CallPlan<T>["combine"]> {
  try {
    return plan.combine(responses);
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    throw new CryptometricsError(
      "malformed-response",
      `${call.label}: unusable response: ${error.message}`,
      // The data's text was redacted on arrival (http/response.ts): nothing more to look for.
      { operation: call.operation, ids: call.ids, cause: error }
    );
  }
}

/** The key, read within the call's deadline: a key store that never answers cannot hang a call. */
async function readKeyWithin(
  source: ApiKeySource,
  operation: string,
  label: string,
  ids: readonly string[],
  signal: AbortSignal,
  abortKind: () => "cancelled" | "timeout"
): Promise<string> {
  try {
    return await raceAbort(readKey(source, operation, label, ids), signal);
  } catch (error) {
    if (error instanceof CryptometricsError || !signal.aborted) throw error;
    const kind = abortKind();
    const what = kind === "cancelled" ? "cancelled" : "the call's deadline passed";
    throw new CryptometricsError(kind, `${label}: ${what} while reading the API key`, {
      operation,
      ids,
    });
  }
}

/**
 * Runs all tasks together. On the first failure the others are aborted (they would only spend rate
 * limit on a call that has failed) and, once all have settled, that first failure is thrown.
 */
async function allOrFirstFailure<R>(
  tasks: readonly (() => Promise<R>)[],
  controller: AbortController
): Promise<R[]> {
  let first: { error: unknown } | undefined;
  const settled = await Promise.all(
    tasks.map((task) =>
      task().catch((error: unknown) => {
        if (!first) {
          first = { error };
          controller.abort(new Error("another part of this call failed"));
        }
        return undefined;
      })
    )
  );
  if (first) throw first.error;
  return settled as R[];
}

async function readKey(
  source: ApiKeySource,
  operation: string,
  label: string,
  ids: readonly string[]
): Promise<string> {
  let key: string | undefined;
  try {
    key = typeof source === "function" ? await source() : source;
  } catch (error) {
    throw new CryptometricsError("unauthorized", `${label}: could not read the API key`, {
      operation,
      ids,
      cause: error,
    });
  }
  const trimmed = typeof key === "string" ? key.trim() : "";
  if (trimmed === "") {
    throw new CryptometricsError("unauthorized", `${label}: no API key is set`, { operation, ids });
  }
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(trimmed)) {
    throw new CryptometricsError(
      "unauthorized",
      `${label}: the API key contains spaces or control characters; paste it again`,
      { operation, ids }
    );
  }
  return trimmed;
}

/** Whatever escaped, as a CryptometricsError whose message and cause are free of the key. */
function asFinal(
  error: unknown,
  operation: string,
  label: string,
  ids: readonly string[],
  apiKey: string
): CryptometricsError {
  // The client's own errors were made of its own words and of foreign text redacted on arrival.
  if (error instanceof CryptometricsError) return error;
  // A bug in normalisation code, most likely: report it as unusable rather than crash the caller. Its text is
  // foreign (it may quote anything it met): redacted here, once.
  const reason = redact(messageOf(error), [apiKey]);
  return new CryptometricsError("malformed-response", `${label}: unexpected failure: ${reason}`, {
    operation,
    ids,
    cause: sanitizeCause(error, [apiKey]),
  });
}
