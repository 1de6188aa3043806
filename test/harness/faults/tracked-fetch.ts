/**
 * A fetch that knows which exchanges are still on the wire, so the driver moves virtual time only when
 * nothing real is pending: no request is ever "timed out" by the virtual clock while its answer is on its
 * way. An exchange counts from the call until its body is read (or dropped). Exchanges the simulator will
 * never answer (its `hang` knob) are "parked": only a time-out can end them, so they do not hold time still.
 */
import type { BodyReaderLike, FetchLike, FetchResponseLike } from "../../../src/client";

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface TrackedFetch {
  readonly fetch: FetchLike;
  /** Exchanges in progress that will end by themselves (parked ones excluded). */
  blocking(): number;
  /** Exchanges started so far, parked ones included. */
  started(): number;
  /** Which URLs the server will never answer, from now on. */
  park(predicate: (url: string) => boolean): void;
}

/** A body reader whose end (read to the end, failed or cancelled) ends the exchange. */
function tracked(reader: BodyReaderLike, done: () => void): BodyReaderLike {
  return {
    read: () =>
      reader.read().then(
        (chunk) => {
          if (chunk.done) done();
          return chunk;
        },
        (error: unknown) => {
          done();
          throw error;
        }
      ),
    cancel: (reason?: unknown) => {
      done();
      return reader.cancel(reason);
    },
  };
}

export function trackFetch(inner: FetchLike): TrackedFetch {
  let blocking = 0;
  let started = 0;
  let parked: (url: string) => boolean = () => false;

  const fetch: FetchLike = async (url, init) => {
    started++;
    if (parked(url)) return inner(url, init);
    blocking++;
    let open = true;
    const done = (): void => {
      if (open) blocking--;
      open = false;
    };
    let response: FetchResponseLike;
    try {
      response = await inner(url, init);
    } catch (error) {
      done();
      throw error;
    }
    // A redirect's body is never read: the exchange is over with its headers.
    if (REDIRECTS.has(response.status)) done();
    const body = response.body;
    const getReader = body?.getReader?.bind(body);
    return {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      type: response.type,
      url: response.url,
      redirected: response.redirected,
      body: body
        ? {
            cancel: (reason?: unknown) => {
              done();
              return body.cancel(reason);
            },
            ...(getReader ? { getReader: () => tracked(getReader(), done) } : {}),
          }
        : null,
      text: () => response.text().finally(done),
    };
  };

  return {
    fetch,
    blocking: () => blocking,
    started: () => started,
    park: (predicate) => {
      parked = predicate;
    },
  };
}
