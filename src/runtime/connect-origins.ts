/**
 * The service addresses a deployed build can reach. Its pages' Content-Security-Policy names the origins
 * they may send requests to (webpack.config.js: its own, the service it was built for, any a deployment
 * lists); the browser blocks any other, and a blocked request reads as a network error. So a service
 * address outside that list is refused when it is saved, saying why, instead of failing every cell later.
 * A build served from this computer (development, local testing) names none: any address the client accepts.
 */
export function refusedServiceOrigin(
  baseUrl: string,
  allowed: readonly string[] | null | undefined,
  self: string | undefined = globalThis.location?.origin
): string | undefined {
  if (!allowed) return undefined;
  let origin: string;
  try {
    origin = new URL(baseUrl.trim()).origin;
  } catch {
    // Not a URL: the client says so, in its own words.
    return undefined;
  }
  if (origin === self || allowed.includes(origin)) return undefined;
  const reachable = [...allowed, ...(self ? [`${self} (this add-in's own server)`] : [])];
  return (
    `This copy of the add-in can only connect to ${reachable.join(", ") || "its own server"}: ` +
    `its web pages allow no other address. Ask whoever deployed it for a build that names ${origin}.`
  );
}
