/**
 * What the gateway's plugins add to fastify's instance and requests (decorators), typed once here: the shared
 * Redis state, the lanes, the metrics and usage on the instance; who the caller is, the lane serving them and the
 * request's label (for its log line and metrics) on each request.
 */
import type { Caller } from "../auth/verifier";
import type { Lane, Lanes } from "../lanes";
import type { GatewayMetrics } from "../metrics";
import type { OperationSpec } from "../operations";
import type { Peers } from "../store/ledger";
import type { RedisLink } from "../store/redis-link";
import type { Usage } from "../usage";

/** Redis as this process sees it (undefined members: no Redis configured). */
interface Shared {
  link?: RedisLink;
  peers?: Peers;
  /** The share of a limit this process takes while it cannot use Redis. */
  readonly share: (limit: number) => number;
  /** What the store is: "redis", "memory", "memory (Redis unreachable)". */
  readonly storeName: () => string;
}

/** Who a request was for and how it was answered: its log line and metrics. */
interface RequestLabel {
  user: string;
  operation: string;
  how?: string;
  /** The gateway's own API (not counted as usage). */
  account?: boolean;
}

/** Whether a route needs a caller: "required" (401 otherwise), "optional" (more is shown to one), "none". */
type AuthMode = "required" | "optional" | "none";

declare module "fastify" {
  interface FastifyInstance {
    shared: Shared;
    lanes: Lanes;
    gatewayMetrics: GatewayMetrics;
    usage: Usage;
  }
  interface FastifyRequest {
    caller: Caller | null;
    lane: Lane | null;
    label: RequestLabel | null;
  }
  interface FastifyContextConfig {
    auth?: AuthMode;
    /** The operation's name in the log and metrics. */
    operation?: string;
    /** An interface operation: its schema refusals are explained from its table entry. */
    spec?: OperationSpec;
    account?: boolean;
  }
}
