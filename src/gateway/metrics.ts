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

/** A counter in one registry: the team's or the per-person one. */
function counter<L extends string = string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[] = []
): Counter<L> {
  return new Counter({ name, help, labelNames, registers: [registry] });
}

/** A gauge read from `read` at each scrape. */
function gauge(registry: Registry, name: string, help: string, read: () => number): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(read());
    },
  });
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
    const team = this.registry;
    this.requests = counter(
      team,
      "cryptometrics_gateway_requests_total",
      "Requests answered, by operation and status",
      ["operation", "status"]
    );
    this.userRequests = counter(
      this.perUser,
      "cryptometrics_gateway_user_requests_total",
      "Requests answered, by user, operation and status (administrators only)",
      ["user", "operation", "status"]
    );
    this.answers = counter(
      team,
      "cryptometrics_gateway_answers_total",
      "Answers by how they were made: hit (cache), fetched, joined (another caller's fetch), stale",
      ["how"]
    );
    this.upstream = counter(
      team,
      "cryptometrics_gateway_upstream_requests_total",
      "HTTP requests sent to the service (retries included), by operation and status",
      ["operation", "status"]
    );
    this.rateLimited = counter(
      team,
      "cryptometrics_gateway_upstream_rate_limited_total",
      "Upstream requests the service answered 429"
    );
    this.usage = counter(
      this.perUser,
      "cryptometrics_gateway_user_usage_total",
      "Per person: requests answered, cache hits, and upstream requests their requests started (administrators only)",
      ["user", "counter"]
    );
    gauge(
      team,
      "cryptometrics_gateway_upstream_queue_depth",
      "Upstream requests waiting for their turn or under way",
      () => sources.queueDepth()
    );
    gauge(
      team,
      "cryptometrics_gateway_shared_store",
      "1 while the shared store (Redis) is in use, 0 while serving from process memory",
      () => sources.shared()
    );
    gauge(
      team,
      "cryptometrics_gateway_lanes",
      "Service keys served at once (the team's and personal keys in use)",
      () => sources.lanes()
    );
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
