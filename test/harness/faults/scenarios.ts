/**
 * The faults a workbook meets on hotel Wi-Fi and a busy service, as simulator knobs, with the error kinds
 * each may leave in a cell that had no earlier value to fall back on.
 */
import type { ErrorKind } from "../../../src/client";
import type { EngineOptions } from "../../../src/engine/engine";
import type { RateLimitKnob, SimulatorKnobs } from "../../../src/simulator";

export interface FaultScenario {
  name: string;
  /** Knobs in force during the fault phase only. */
  knobs: Partial<SimulatorKnobs>;
  /** The service's own rate limit, in force in every phase of the scenario. */
  serviceRateLimit?: RateLimitKnob;
  /** The client's configured limit (the taskpane setting). Default 60 per minute. */
  clientRateLimit?: number;
  /** The fault heals by itself after this many virtual ms (a burst); default: it lasts the phase. */
  healAfterMs?: number;
  /** Engine options other than the defaults (tests use it to break a guarantee on purpose). */
  engine?: Partial<EngineOptions>;
  /** Kinds an error may have when there was no earlier value to keep. */
  kinds: readonly ErrorKind[];
}

/** Knobs of a healthy service: what every phase but the fault phase runs with. */
export const HEALTHY: Partial<SimulatorKnobs> = {
  fraction429: 0,
  retryAfter429: true,
  fraction5xx: 0,
  hang: false,
  fault: null,
  faultFraction: 1,
  latencyMs: 0,
};

const SERVICE_LIMIT: RateLimitKnob = { limit: 60, windowMs: 60_000, retryAfter: false };

export const SCENARIOS: readonly FaultScenario[] = [
  { name: "none (control)", knobs: {}, kinds: [] },
  {
    name: "429 storm, 50%, Retry-After",
    knobs: { fraction429: 0.5, retryAfter429: true },
    kinds: ["rate-limited", "timeout"],
  },
  {
    name: "429 storm, 50%, no Retry-After",
    knobs: { fraction429: 0.5, retryAfter429: false },
    kinds: ["rate-limited", "timeout"],
  },
  {
    name: "service limit 60/min, client 60/min",
    knobs: {},
    serviceRateLimit: SERVICE_LIMIT,
    kinds: [],
  },
  {
    name: "service limit 60/min, client 120/min",
    knobs: {},
    serviceRateLimit: SERVICE_LIMIT,
    clientRateLimit: 120,
    kinds: ["rate-limited", "timeout"],
  },
  {
    name: "5xx burst, 10 s",
    knobs: { fraction5xx: 1 },
    healAfterMs: 10_000,
    kinds: [],
  },
  { name: "5xx, 30% of requests", knobs: { fraction5xx: 0.3 }, kinds: ["server", "timeout"] },
  { name: "5xx outage", knobs: { fraction5xx: 1 }, kinds: ["server", "timeout"] },
  { name: "hanging requests", knobs: { hang: true }, kinds: ["timeout"] },
  { name: "connection resets", knobs: { fault: "reset" }, kinds: ["network", "timeout"] },
  {
    name: "connection resets, 30%",
    knobs: { fault: "reset", faultFraction: 0.3 },
    kinds: ["network", "timeout"],
  },
  { name: "truncated JSON", knobs: { fault: "truncated-json" }, kinds: ["malformed-response"] },
  {
    name: "HTML page with 200 (captive portal)",
    knobs: { fault: "html-200" },
    kinds: ["malformed-response"],
  },
  {
    name: "wrong content type",
    knobs: { fault: "wrong-content-type" },
    kinds: ["malformed-response"],
  },
  { name: "empty body", knobs: { fault: "empty-body" }, kinds: ["malformed-response"] },
  { name: "308 loop", knobs: { fault: "redirect-loop" }, kinds: ["malformed-response"] },
];
