/**
 * Prometheus metrics (prom-client), two registries per gateway:
 * - the team's (any caller with a token): requests by operation and status, how each was answered, upstream
 *   requests and their 429s, the queue in front of the service, lanes open, whether Redis is in use, Node's own;
 * - per person (administrators and `--metrics-readers` tokens only, as `/gateway/v1/usage` is): requests and usage
 *   by user. At most MAX_METRIC_USERS users are named; the others count under user="other".
 * Labels carry a user's name (a token's name, a sign-in's id), an operation, a status: never a token or a key.
 */
import { Counter, Gauge, Registry, collectDefaultMetrics } from "prom-client";
import type { ClientEvent } from "../client";
import { MAX_METRIC_USERS } from "./bounds";

interface MetricsSources {
  /** Upstream requests waiting for their turn or under way. */
  queueDepth(): number;
  /** 1 while the shared store (Redis) is in use, 0 on process memory. */
  shared(): number;
  /** Lanes open (service keys in use). */
  lanes(): number;
}

export class GatewayMetrics {
  readonly registry = new Registry();
  readonly perUser = new Registry();
  readonly requests: Counter<"operation" | "status">;
  readonly userRequests: Counter<"user" | "operation" | "status">;
  readonly answers: Counter<"how">;
  readonly upstream: Counter<"operation" | "status">;
  readonly rateLimited: Counter;
  readonly usage: Counter<"user" | "counter">;
  private readonly named = new Set<string>();

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: "cryptometrics_gateway_requests_total",
      help: "Requests answered, by operation and status",
      labelNames: ["operation", "status"],
      registers,
    });
    this.userRequests = new Counter({
      name: "cryptometrics_gateway_user_requests_total",
      help: "Requests answered, by user, operation and status (administrators only)",
      labelNames: ["user", "operation", "status"],
      registers: [this.perUser],
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
      help: "Per person: requests answered, cache hits, and upstream requests their requests started (administrators only)",
      labelNames: ["user", "counter"],
      registers: [this.perUser],
    });
    new Gauge({
      name: "cryptometrics_gateway_upstream_queue_depth",
      help: "Upstream requests waiting for their turn or under way",
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
    new Gauge({
      name: "cryptometrics_gateway_lanes",
      help: "Service keys served at once (the team's and personal keys in use)",
      registers,
      collect() {
        this.set(sources.lanes());
      },
    });
    collectDefaultMetrics({ register: this.registry, prefix: "cryptometrics_gateway_" });
  }

  /** The user's label: their name, or "other" past MAX_METRIC_USERS names. */
  label(user: string): string {
    if (this.named.has(user)) return user;
    if (this.named.size >= MAX_METRIC_USERS) return "other";
    this.named.add(user);
    return user;
  }

  /** The exposition: the team's metrics, and the per-person ones for administrators. */
  async text(perPerson: boolean): Promise<string> {
    const team = await this.registry.metrics();
    return perPerson ? `${team}\n${await this.perUser.metrics()}` : team;
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** Counts the upstream client's responses (each attempt) and network failures. */
  readonly onClientEvent = (event: ClientEvent): void => {
    if (event.type === "response") {
      this.upstream.inc({ operation: event.operation, status: String(event.status) });
      if (event.status === 429) this.rateLimited.inc();
    } else if (event.type === "error" && event.status === undefined) {
      this.upstream.inc({ operation: event.operation, status: event.kind });
    }
  };
}
