/**
 * Where a redirect leads, or why it is not followed: no Location, an invalid one, a downgrade to http
 * off loopback, a loop, or too many hops. Each refusal is a "malformed-response": the server (or a
 * proxy) is misconfigured, and retrying the same request cannot help.
 */
import { CryptometricsError } from "../errors";
import type { FetchResponseLike } from "./fetch";
import { requestLabel } from "../label";
import type { CallContext, RequestSpec } from "./request";
import { redact } from "../redact";
import { displayPath, urlRefusal } from "./url";

export function redirectTarget(
  res: FetchResponseLike,
  from: { url: string; shown: string },
  visited: { visited: readonly string[]; shown: readonly string[] },
  hop: number,
  maxRedirects: number,
  call: CallContext,
  spec: RequestSpec
): { next: string; shown: string } {
  const url = from.url;
  const fail = (what: string): never => {
    throw new CryptometricsError("malformed-response", `${requestLabel(call, spec)}: ${what}`, {
      operation: call.operation,
      ids: spec.ids,
      status: res.status,
      request: { method: "GET", url: displayPath(from.shown) },
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
  // The server's text, as reports show it: redacted once, here (a login page's ?token= may carry the key).
  const shown = redact(next.href, [call.apiKey]);
  const refusal = urlRefusal(next);
  if (refusal)
    return fail(`refused redirect to ${redact(`${next.origin}: ${refusal}`, [call.apiKey])}`);
  const chain = [...visited.shown, shown].map(displayPath).join(" → ");
  if (visited.visited.includes(next.href)) return fail(`redirect loop: ${chain}`);
  if (hop + 1 > maxRedirects) return fail(`more than ${maxRedirects} redirects: ${chain}`);
  return { next: next.href, shown };
}
