/**
 * Prometheus metrics (prom-client), one registry per gateway: requests by user, how each was answered (cache
 * hits included), upstream requests and their 429s, the queue in front of the service, and whether the shared
 * store is in use. Labels carry a user's name (from the tokens file), an operation, a status: never a token or
 * the service key.
 */
import { Counter, Gauge, Registry, collectDefaultMetrics } from "prom-client";
import type { ClientEvent } from "../client";

export interface MetricsSources {
  /** Upstream requests waiting for their turn or a slot of the budget. */
  queueDepth(): number;
  /** 1 while the shared store (Redis) is in use, 0 on process memory. */
  shared(): number;
}

export class GatewayMetrics {
  readonly registry = new Registry();
  readonly requests: Counter<"user" | "operation" | "status">;
  readonly answers: Counter<"how">;
  readonly upstream: Counter<"operation" | "status">;
  readonly rateLimited: Counter;
  readonly usage: Counter<"user" | "counter">;

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: "cryptometrics_gateway_requests_total",
      help: "Requests answered, by user, operation and status",
      labelNames: ["user", "operation", "status"],
      registers,
    });
    this.answers = new Counter({
      name: "cryptometrics_gateway_answers_total",
      help: "Answers by how they were made: hit (cache), fetched, joined (another caller's fetch), stale",
      labelNames: ["how"],
      registers,
    });
    this.upstream = new Counter({
      name: "cryptometrics_gateway_upstream_requests_total",
      help: "HTTP requests sent to the service (retries included), by operation and status",
      labelNames: ["operation", "status"],
      registers,
    });
    this.rateLimited = new Counter({
      name: "cryptometrics_gateway_upstream_rate_limited_total",
      help: "Upstream requests the service answered 429",
      registers,
    });
    this.usage = new Counter({
      name: "cryptometrics_gateway_user_usage_total",
      help: "Per person: requests answered, cache hits, and upstream requests their requests started",
      labelNames: ["user", "counter"],
      registers,
    });
    new Gauge({
      name: "cryptometrics_gateway_upstream_queue_depth",
      help: "Upstream requests waiting for their turn or for the rate budget",
      registers,
      collect() {
        this.set(sources.queueDepth());
      },
    });
    new Gauge({
      name: "cryptometrics_gateway_shared_store",
      help: "1 while the shared store (Redis) is in use, 0 while serving from process memory",
      registers,
      collect() {
        this.set(sources.shared());
      },
    });
    collectDefaultMetrics({ register: this.registry, prefix: "cryptometrics_gateway_" });
  }

  /** Counts the upstream client's responses (each attempt) and network failures. */
  readonly onClientEvent = (event: ClientEvent): void => {
    if (event.type === "response") {
      this.upstream.inc({ operation: event.operation, status: String(event.status) });
      if (event.status === 429) this.rateLimited.inc();
    } else if (event.type === "retry" && event.status === undefined) {
      this.upstream.inc({ operation: event.operation, status: event.reason });
    }
  };
}
