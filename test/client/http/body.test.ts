import { BodyTooLargeError, readBody } from "../../../src/client/http/body";
import type { FetchResponseLike } from "../../../src/client";

/** A response whose body is a real ReadableStream of the given chunks (then, optionally, endless). */
function streamed(
  chunks: Uint8Array[],
  options: { endless?: boolean; headers?: Record<string, string> } = {}
): { response: FetchResponseLike; pulled: () => number; cancelled: () => boolean } {
  let pulled = 0;
  let cancelled = false;
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      if (i < chunks.length) controller.enqueue(chunks[i++]);
      else if (options.endless) controller.enqueue(new Uint8Array(65_536).fill(0x20));
      else controller.close();
    },
    cancel() {
      cancelled = true;
    },
  });
  const headers = new Headers(options.headers ?? {});
  return {
    response: {
      status: 200,
      headers,
      body,
      text: () => Promise.reject(new Error("text() must not be used when a stream is there")),
    },
    pulled: () => pulled,
    cancelled: () => cancelled,
  };
}

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("reading a body with a bound", () => {
  it("returns the text of a body within the limit, multi-byte characters split across chunks included", async () => {
    const euro = bytes('{"data":"€ 5"}');
    // The euro sign's three bytes land in two chunks.
    const { response } = streamed([euro.slice(0, 10), euro.slice(10)]);
    await expect(readBody(response, 1_000, new AbortController().signal)).resolves.toBe(
      '{"data":"€ 5"}'
    );
  });

  it("stops an endless body at the limit, cancels the stream and says it was too large", async () => {
    const { response, pulled, cancelled } = streamed([], { endless: true });
    const error = await readBody(response, 1_000_000, new AbortController().signal).catch(
      (e: unknown) => e
    );
    expect(error).toBeInstanceOf(BodyTooLargeError);
    expect(error).toMatchObject({ limitBytes: 1_000_000 });
    expect(cancelled()).toBe(true);
    // 16 chunks of 64 KiB pass 1,000,000 bytes: no more was asked of the stream.
    expect(pulled()).toBeLessThanOrEqual(17);
  });

  it("refuses a declared Content-Length over the limit before reading anything", async () => {
    const { response, pulled, cancelled } = streamed([bytes("x")], {
      headers: { "content-length": String(600 * 1_048_576) },
    });
    const error = await readBody(response, 64 * 1_048_576, new AbortController().signal).catch(
      (e: unknown) => e
    );
    expect(error).toMatchObject({ declaredBytes: 600 * 1_048_576 });
    expect(pulled()).toBeLessThanOrEqual(1);
    expect(cancelled()).toBe(true);
  });

  it("settles when the signal aborts while the body trickles", async () => {
    const body = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => undefined) });
    const controller = new AbortController();
    const reading = readBody(
      { status: 200, headers: new Headers(), body, text: () => Promise.resolve("") },
      1_000,
      controller.signal
    );
    controller.abort(new Error("attempt timed out"));
    await expect(reading).rejects.toThrow("attempt timed out");
  });

  it("applies the same bound to a fetch that offers text() only", async () => {
    const response: FetchResponseLike = {
      status: 200,
      headers: new Headers(),
      text: () => Promise.resolve("y".repeat(2_000)),
    };
    await expect(readBody(response, 1_000, new AbortController().signal)).rejects.toBeInstanceOf(
      BodyTooLargeError
    );
    await expect(readBody(response, 5_000, new AbortController().signal)).resolves.toHaveLength(
      2_000
    );
  });
});
