/**
 * Where requests go: the base URL rule (https, or plain http on loopback only), path and query
 * building (list parameters as ONE comma-joined value), and splitting long id lists.
 */

/** True for hosts that never leave the machine: localhost, 127.0.0.0/8, ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (host === "::1" || host === "0:0:0:0:0:0:0:1") return true;
  const parts = host.split(".");
  return (
    parts.length === 4 &&
    parts[0] === "127" &&
    parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)
  );
}

/**
 * Why a URL may not be used, or undefined when it may: https anywhere; plain http only on loopback,
 * where nothing crosses the network (the simulator, a local proxy). The API key must never travel in
 * clear text.
 */
export function urlRefusal(url: URL): string | undefined {
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:") {
    return isLoopbackHost(url.hostname)
      ? undefined
      : `plain http is only allowed for loopback addresses (localhost, 127.0.0.0/8, [::1]); use https for ${url.host}`;
  }
  return `unsupported protocol "${url.protocol}" (use https)`;
}

/** Parsed, checked base URL without a trailing slash; throws a plain Error with the reason. */
export function parseBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`base URL "${baseUrl}" is not a valid absolute URL`);
  }
  const refusal = urlRefusal(url);
  if (refusal) throw new Error(`base URL ${url.origin} refused: ${refusal}`);
  if (url.username || url.password) throw new Error("base URL must not carry credentials");
  if (url.search || url.hash) throw new Error("base URL must not carry a query or fragment");
  url.pathname = url.pathname.replace(/\/+$/, "");
  return url;
}

export type QueryValue = string | boolean | readonly string[] | undefined;

/**
 * Full URL for path segments and query parameters. Segments and values are percent-encoded; list
 * values are joined with a literal comma (the interface's rule 7), never repeated. Undefined values
 * and empty lists are left out. Parameter order is the caller's, so URLs are stable (cache keys).
 */
export function buildUrl(
  base: URL,
  segments: readonly string[],
  query: ReadonlyArray<readonly [string, QueryValue]> = []
): string {
  const path = segments.map((s) => encodeURIComponent(s)).join("/");
  const parts: string[] = [];
  for (const [name, value] of query) {
    if (value === undefined) continue;
    let encoded: string;
    if (typeof value === "boolean") encoded = String(value);
    else if (typeof value === "string") encoded = encodeURIComponent(value);
    else if (value.length === 0) continue;
    else encoded = value.map((v) => encodeURIComponent(v)).join(",");
    parts.push(`${encodeURIComponent(name)}=${encoded}`);
  }
  const basePath = base.pathname.replace(/\/+$/, "");
  return `${base.origin}${basePath}/${path}${parts.length > 0 ? `?${parts.join("&")}` : ""}`;
}

/**
 * Splits `ids` into consecutive chunks such that each chunk has at most `maxIds` ids and the URL
 * built from it stays within `maxUrlLength`. Returns undefined when a single id alone is too long.
 */
export function chunkIds(
  ids: readonly string[],
  maxIds: number,
  maxUrlLength: number,
  urlFor: (chunk: readonly string[]) => string
): string[][] | undefined {
  const chunks: string[][] = [];
  let current: string[] = [];
  for (const id of ids) {
    const candidate = [...current, id];
    if (candidate.length <= maxIds && urlFor(candidate).length <= maxUrlLength) {
      current = candidate;
      continue;
    }
    if (current.length === 0) return undefined;
    chunks.push(current);
    current = [id];
    if (urlFor(current).length > maxUrlLength) return undefined;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** Path of a URL relative to the base's origin, for messages and events ("/v2/projects/aave"). */
export function displayPath(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}
