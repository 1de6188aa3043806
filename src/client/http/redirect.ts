/**
 * Where a redirect leads, or why it is not followed: no Location, an invalid one, a downgrade to http
 * off loopback, a loop, or too many hops. Each refusal is a "malformed-response": the server (or a
 * proxy) is misconfigured, and retrying the same request cannot help.
 */
import { CryptometricsError } from "../errors";
import type { FetchResponseLike } from "./fetch";
import { requestLabel } from "../label";
import type { CallContext, RequestSpec } from "./request";
import { displayPath, urlRefusal } from "./url";

export function redirectTarget(
  res: FetchResponseLike,
  url: string,
  visited: readonly string[],
  hop: number,
  maxRedirects: number,
  call: CallContext,
  spec: RequestSpec
): string {
  const fail = (what: string): never => {
    throw new CryptometricsError("malformed-response", `${requestLabel(call, spec)}: ${what}`, {
      operation: call.operation,
      ids: spec.ids,
      status: res.status,
      request: { method: "GET", url: displayPath(url) },
      secrets: [call.apiKey],
    });
  };
  const location = res.headers.get("location");
  if (!location) return fail(`redirect (HTTP ${res.status}) without a Location`);
  let next: URL;
  try {
    next = new URL(location, url);
  } catch {
    return fail(`redirect (HTTP ${res.status}) to an invalid Location`);
  }
  const refusal = urlRefusal(next);
  if (refusal) return fail(`refused redirect to ${next.origin}: ${refusal}`);
  const chain = [...visited, next.href].map(displayPath).join(" → ");
  if (visited.includes(next.href)) return fail(`redirect loop: ${chain}`);
  if (hop + 1 > maxRedirects) return fail(`more than ${maxRedirects} redirects: ${chain}`);
  return next.href;
}
