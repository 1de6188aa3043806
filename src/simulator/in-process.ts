/**
 * The simulator without a socket: the same pipeline (every reading, knob and fault that does not need a
 * socket) answering a fetch in process, through light-my-request, the request injector fastify's own
 * inject() uses. Tests that run a whole formula corpus many times (the readings matrix) skip loopback's
 * connections and the event-loop turns they cost; tests of what goes on the wire keep startSimulator.
 * A `reset` fault (a destroyed socket) has no socket to destroy here: the fetch rejects as a network error.
 */
import { inject } from "light-my-request";
import type { FetchInitLike, FetchLike, FetchResponseLike } from "../client";
import { simulatorCore } from "./server";
import type { RequestLogEntry, SimulatorKnobs, SimulatorOptions } from "./types";

export interface InProcessSimulator {
  /** The base URL the fetch answers (any other origin is refused). */
  url: string;
  fetch: FetchLike;
  requestLog: RequestLogEntry[];
  clearLog(): void;
  setKnobs(knobs: Partial<SimulatorKnobs>): void;
  close(): Promise<void>;
}

/** A loopback name (the client takes plain http there only): nothing listens on it, the fetch answers. */
const ORIGIN = "http://in-process.simulator.localhost";

export function inProcessSimulator(
  options: Omit<SimulatorOptions, "port" | "host" | "https"> = {}
): InProcessSimulator {
  const core = simulatorCore(options);
  let closed = false;
  const fetch: FetchLike = async (url: string, init: FetchInitLike): Promise<FetchResponseLike> => {
    if (closed) throw new TypeError("fetch failed: the in-process simulator is closed");
    const target = new URL(url);
    if (target.origin !== ORIGIN)
      throw new TypeError(`fetch failed: ${target.origin} is not served`);
    init.signal.throwIfAborted();
    const answer = inject(
      (req, res) => {
        core.pipeline(req, res).catch(() => {
          if (!res.headersSent) res.writeHead(500).end();
        });
      },
      {
        method: init.method,
        url: `${target.pathname}${target.search}`,
        headers: init.headers,
        signal: init.signal,
      }
    );
    const res = await answer;
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [String(value)]) headers.append(name, v);
    }
    const empty = res.statusCode === 204 || res.statusCode === 304 || res.rawPayload.length === 0;
    return new Response(empty ? null : new Uint8Array(res.rawPayload), {
      status: res.statusCode,
      headers,
    });
  };
  return {
    url: ORIGIN,
    fetch,
    requestLog: core.requestLog,
    clearLog: core.clearLog,
    setKnobs: core.setKnobs,
    close: () => {
      closed = true;
      core.stop();
      return Promise.resolve();
    },
  };
}
