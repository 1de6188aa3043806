/**
 * A team's run while Redis's primary fails over, the same on every topology that has one (a Cluster, Sentinels):
 * the service enforcing its limit (the window exactly, 100–200 ms an answer), six analysts each on a model of
 * their own day (enough requests for the run to outlast the failover) through the gateways in turn, each one's
 * cells checked against the same model run straight to the service, and `failover` called once the service has
 * seen a few of the team's requests. Returns what the run saw, for the test to assert and print.
 */
import type { RunningSimulator } from "../../../src/simulator";
import { differences, refreshModel, type Analyst } from "../../../src/tools/bench/gateway-analysts";
import type { CellOutcome } from "../../../src/tools/bench/outcomes";
import { MODEL_METRICS, modelSheet } from "../../../src/tools/bench/workloads";

interface FailoverRun {
  /** Requests the service received while the team ran. */
  upstream: number;
  /** Of those, how many it answered 429. */
  tooMany: number;
  /** Requests it had received when `failover` returned. */
  atFailover: number;
  /** Each analyst's cells that differ from the direct run's, and the first ({ count: 0 } each: nothing lost). */
  differing: Array<{ count: number; first?: string }>;
}

export async function runThroughFailover(options: {
  simulator: RunningSimulator;
  serviceKey: string;
  /** The gateways' URLs, and one token per analyst (six). */
  gateways: readonly string[];
  tokens: readonly string[];
  windowMs: number;
  analyst: (baseUrl: string, apiKey: string) => Analyst;
  failover: () => Promise<void>;
}): Promise<FailoverRun> {
  const { simulator } = options;
  const gets = () => simulator.requestLog.filter((r) => r.method === "GET");
  simulator.setKnobs({
    rateLimit: { limit: 60, windowMs: options.windowMs, retryAfter: false },
    latencyMs: [100, 200],
  });
  try {
    const models = options.tokens.map((_, i) =>
      modelSheet(16, MODEL_METRICS.slice(0, 12), `2026-06-${String(20 + i).padStart(2, "0")}`)
    );
    const directs: CellOutcome[][] = [];
    for (const m of models)
      directs.push(
        await refreshModel(options.analyst(simulator.url, options.serviceKey).engine, m)
      );
    // The direct runs' requests out of the service's window before the team starts.
    await new Promise((r) => setTimeout(r, options.windowMs + 500));
    simulator.clearLog();
    const runs = options.tokens.map((token, i) =>
      refreshModel(
        options.analyst(options.gateways[i % options.gateways.length], token).engine,
        models[i]
      )
    );
    while (gets().length < 3) await new Promise((r) => setTimeout(r, 10));
    await options.failover();
    const atFailover = gets().length;
    const results = await Promise.all(runs);
    const log = gets();
    return {
      upstream: log.length,
      tooMany: log.filter((r) => r.status === 429).length,
      atFailover,
      differing: results.map((outcome, i) => differences(outcome, directs[i])),
    };
  } finally {
    simulator.setKnobs({ rateLimit: null, latencyMs: 0 });
  }
}
