/**
 * Redis as a fastify plugin: the link (one server, Sentinel or Cluster; store/redis-link.ts), the processes seen
 * alive, and the share of the budget this process takes while it cannot use Redis, decorated as `app.shared`.
 * Without Redis configured: process memory, the whole budget (one process).
 *
 * Redis is a dependency that can fail: a process that cannot reach it at start serves from memory (at its share)
 * and rejoins when it answers; one whose Redis has no `maxmemory`, or an eviction policy that could evict what
 * must stay (allkeys-*), says so in the log (see the README's guidance).
 */
import fp from "fastify-plugin";
import { shareOf } from "../budget";
import { DEFAULT_PROCESSES } from "../bounds";
import type { GatewayClock } from "../clock";
import { hashOf } from "../store/keys";
import { Peers } from "../store/ledger";
import { RedisLink, type RedisTarget } from "../store/redis-link";
import "./types";

interface SharedOptions {
  target?: RedisTarget;
  teamKey: string;
  clock: GatewayClock;
  processId: string;
  /** How many processes the team runs (--processes): the share each takes without Redis. */
  processes?: number;
  /** How long a process waits for Redis at start before serving from memory. */
  startMs: number;
  /** The budget per window (for the log's words). */
  rateLimit: number;
}

export const sharedPlugin = fp<SharedOptions>(
  async (app, options) => {
    const log = app.log;
    if (!options.target) {
      app.decorate("shared", { share: (limit: number) => limit, storeName: () => "memory" });
      return;
    }
    const seen: { peers?: Peers } = {};
    const processes = options.processes ?? DEFAULT_PROCESSES;
    const share = (limit: number): number =>
      shareOf(limit, Math.max(processes, seen.peers?.count ?? 0));
    const told = new Set<string>();
    const link = new RedisLink({
      target: options.target,
      timers: options.clock.timers,
      onReplyError: (message) => {
        if (told.has(message) || told.size > 100) return;
        told.add(message);
        log.error(
          { redis: "error", reply: message },
          "Redis refused a command of the gateway's (served from this process's memory meanwhile): a fault to report"
        );
      },
      onChange: (up, why) => {
        if (up)
          log.info(
            { redis: "up" },
            "Redis is reachable: the team's shared cache and budget are in use"
          );
        else
          log.warn(
            { redis: "down", reason: why.slice(0, 200) },
            `Redis is unreachable: serving from this process's memory at ${share(options.rateLimit)} upstream requests per window (a share of the budget) until it is back`
          );
      },
    });
    const peers = new Peers(
      link,
      hashOf(`budget\n${options.teamKey}`, 24),
      options.processId,
      options.clock.now,
      options.clock.timers
    );
    seen.peers = peers;
    const up = await link.ready(options.startMs);
    if (!up)
      log.warn(
        `Redis did not answer at start: serving from this process's memory at a share of the budget (1/${processes}, --processes) until it does (see /readyz)`
      );
    await peers.beat();
    if (up) {
      const memory = await link.memory();
      if (memory && memory.max === 0)
        log.warn(
          "Redis has no maxmemory: the gateway's entries are bounded each, but set maxmemory (and maxmemory-policy volatile-lru) so that Redis itself is bounded"
        );
      if (memory && memory.policy.startsWith("allkeys"))
        log.warn(
          `Redis evicts with ${memory.policy}: it may evict per-user key records and the budget's epoch; use volatile-lru`
        );
    }
    app.decorate("shared", {
      link,
      peers,
      share,
      storeName: () => (link.up ? "redis" : "memory (Redis unreachable)"),
    });
  },
  { name: "cm-gateway-shared", fastify: "5.x" }
);
