/** The slice of the Fetch API the client uses: global fetch fits, and so do small test fakes. */

export interface FetchHeadersLike {
  get(name: string): string | null;
}

export interface FetchResponseLike {
  readonly status: number;
  readonly statusText?: string;
  readonly headers: FetchHeadersLike;
  /** "opaqueredirect" in browsers for a redirect fetched with redirect: "manual". */
  readonly type?: string;
  /** Final URL after redirects the fetch implementation followed itself. */
  readonly url?: string;
  readonly redirected?: boolean;
  /** The body as a stream (read in bounded pieces); test doubles may offer only text(). */
  readonly body?: BodyLike | null;
  text(): Promise<string>;
}

/** The slice of a ReadableStream the client uses. */
export interface BodyLike {
  cancel(reason?: unknown): Promise<void>;
  getReader?(): BodyReaderLike;
}

export interface BodyReaderLike {
  read(): Promise<{ done: boolean; value?: Uint8Array }>;
  cancel(reason?: unknown): Promise<void>;
}

export interface FetchInitLike {
  method: "GET";
  headers: Record<string, string>;
  redirect: "manual" | "follow";
  signal: AbortSignal;
}

export type FetchLike = (url: string, init: FetchInitLike) => Promise<FetchResponseLike>;

/** Header the local simulator puts on every response, so simulated figures are never taken as real. */
export const SIMULATED_HEADER_NAME = "x-cryptometrics-simulated";

/** Header a team gateway puts on every answer of the interface (how it served it): the source is a gateway. */
export const GATEWAY_HEADER_NAME = "x-cryptometrics-gateway";

export function isRedirectStatus(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/** The default fetch, bound: browsers throw "Illegal invocation" for an unbound window.fetch. */
export function defaultFetch(): FetchLike {
  const f = globalThis.fetch;
  if (typeof f !== "function") {
    throw new Error("no global fetch in this runtime: pass config.fetch");
  }
  return f.bind(globalThis);
}
