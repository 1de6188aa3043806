/**
 * One reading, two ways to feed it. A reading (a VALUE cell's day, its latest value, a horizon, a first day
 * with data) is written once, as a generator that yields what it needs from outside (a series, a metric's
 * history start, or anything else to wait for) and decides from the answers. `run` feeds it by waiting for
 * the service; `runNow` feeds it from what the engine holds fresh and stops at the first need it cannot
 * answer without waiting (NOT_CACHED: the edge then runs the reading again with `run`). A warm cell thus
 * costs no promise, timer or abort signal, and the synchronous and the asynchronous answers cannot differ:
 * they are the same steps over the same answers, noted in the trace alike.
 */
import type { SeriesQuery } from "../../engine";
import { NOT_CACHED, type FnContext, type NotCached } from "../context";
import { cachedSeries, fetchSeries, recentStart } from "./series-common";

/** What a reading asks for. */
type Need =
  /** The series, through the engine (as fetchSeries reads it). */
  | { kind: "series"; ctx: FnContext; query: SeriesQuery; label: string }
  /** A project's metric's first day with data, null when it has none (the engine's history starts). */
  | { kind: "historyStart"; ctx: FnContext; metricId: string; projectId: string }
  /** Anything else (a catalogue look-up, a chunk to load): answered by waiting only. */
  | { kind: "wait"; promise: () => Promise<unknown> };

/** A reading that ends with a T, asking for what it needs on the way. */
export type Read<T> = Generator<Need, T, unknown>;

export function* historyStartRead(
  ctx: FnContext,
  metricId: string,
  projectId: string
): Read<number | null> {
  return (yield { kind: "historyStart", ctx, metricId, projectId }) as number | null;
}

/** What only waiting gives: the synchronous feed answers it NOT_CACHED. */
export function* waitRead<T>(promise: () => Promise<T>): Read<T> {
  return (yield { kind: "wait", promise }) as T;
}

async function answer(need: Need): Promise<unknown> {
  switch (need.kind) {
    case "series":
      return fetchSeries(need.ctx, need.query, need.label);
    case "historyStart": {
      const { ctx, metricId, projectId } = need;
      const keepFrom = recentStart(ctx);
      const starts = await ctx.engine.historyStarts(metricId, [projectId], () => keepFrom);
      return starts.get(projectId) ?? null;
    }
    case "wait":
      return need.promise();
  }
}

function answerNow(need: Need): unknown {
  switch (need.kind) {
    case "series":
      return cachedSeries(need.ctx, need.query, need.label) ?? NOT_CACHED;
    case "historyStart": {
      const known = need.ctx.engine.historyStartNow(need.metricId, need.projectId);
      return known === undefined ? NOT_CACHED : known;
    }
    case "wait":
      return NOT_CACHED;
  }
}

/** The reading fed by the service: a failure to answer a need is thrown where the reading asked. */
export async function run<T>(read: Read<T>): Promise<T> {
  let step = read.next();
  while (!step.done) {
    let got: unknown;
    try {
      got = await answer(step.value);
    } catch (error) {
      step = read.throw(error);
      continue;
    }
    step = read.next(got);
  }
  return step.value;
}

/** The reading fed from what is held, or NOT_CACHED at the first need that would wait. */
export function runNow<T>(read: Read<T>): T | NotCached {
  let step = read.next();
  while (!step.done) {
    const got = answerNow(step.value);
    if (got === NOT_CACHED) return NOT_CACHED;
    step = read.next(got);
  }
  return step.value;
}
