/**
 * Reading a response body with a bound: a service (or anything pretending to be one) may send a body of
 * gigabytes, or one that never ends. The body is read as a stream and decoded as it arrives; past the limit
 * the reading stops, the stream is cancelled (which closes the connection) and BodyTooLargeError is thrown.
 * A Content-Length above the limit is refused before a byte is read.
 */
import { raceAbort } from "./abort";
import type { BodyReaderLike, FetchResponseLike } from "./fetch";

export class BodyTooLargeError extends Error {
  constructor(
    /** The limit that was passed. */
    readonly limitBytes: number,
    /** What the service declared (Content-Length), when it did. */
    readonly declaredBytes?: number
  ) {
    super(
      declaredBytes === undefined
        ? `body over ${limitBytes} bytes`
        : `body of ${declaredBytes} bytes declared, over ${limitBytes} bytes`
    );
    this.name = "BodyTooLargeError";
  }
}

function declaredLength(response: FetchResponseLike): number | undefined {
  const text = response.headers.get("content-length");
  if (text === null || !/^\s*\d+\s*$/.test(text)) return undefined;
  return Number(text);
}

/** The body as text, at most `maxBytes` bytes of it; rejects with the signal's reason when it aborts. */
export async function readBody(
  response: FetchResponseLike,
  maxBytes: number,
  signal: AbortSignal
): Promise<string> {
  const declared = declaredLength(response);
  if (declared !== undefined && declared > maxBytes) {
    response.body?.cancel().catch(() => undefined);
    throw new BodyTooLargeError(maxBytes, declared);
  }
  const reader = response.body?.getReader?.();
  if (!reader) {
    // A fetch without readable streams (small test doubles): the whole text, then the same bound.
    const text = await raceAbort(response.text(), signal);
    if (text.length > maxBytes) throw new BodyTooLargeError(maxBytes);
    return text;
  }
  return readStream(reader, maxBytes, signal);
}

async function readStream(
  reader: BodyReaderLike,
  maxBytes: number,
  signal: AbortSignal
): Promise<string> {
  const decoder = new TextDecoder();
  // Decoded pieces, joined once at the end: no quadratic string building, no second copy of the bytes.
  const parts: string[] = [];
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await raceAbort(reader.read(), signal);
      if (done) break;
      if (!value) continue;
      bytes += value.byteLength;
      if (bytes > maxBytes) throw new BodyTooLargeError(maxBytes);
      parts.push(decoder.decode(value, { stream: true }));
    }
    parts.push(decoder.decode());
    return parts.join("");
  } catch (error) {
    // Stop the transfer: the rest of the body is not wanted (and may never end).
    reader.cancel(error).catch(() => undefined);
    throw error;
  }
}
