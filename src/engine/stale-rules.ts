/**
 * When an earlier value may stand in for a failed reload (stale-if-error), and when it may not. The service
 * refusing the key (401) or the plan (402, 403), and a key missing or unreadable, are not outages to ride
 * out: a revoked key or a lapsed plan must not keep a model showing last week's figures as if nothing
 * happened. Those cells fail with what was refused; every other failure may fall back to what was fetched
 * before (flagged stale, up to the cache policy's limit).
 */
import { isCryptometricsError } from "../client";

export function staleMayCover(error: unknown): boolean {
  return !(
    isCryptometricsError(error) &&
    (error.kind === "unauthorized" || error.kind === "subscription")
  );
}
