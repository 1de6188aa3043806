/**
 * A fetch for `npm start`'s gateway, which calls the simulator over https with the development certificate: it
 * trusts that certificate's CA (Node's own fetch trusts the system's CAs only, and NODE_EXTRA_CA_CERTS is read
 * once, at start). GET only, redirects handed back (the client follows them itself), the body as a stream (the
 * client bounds what it reads), aborted with the caller's signal. Development only.
 */
import { request } from "node:https";
import type { BodyReaderLike, FetchLike, FetchResponseLike } from "../client";

export function trustingFetch(ca: Buffer | string): FetchLike {
  return (url, init) =>
    new Promise<FetchResponseLike>((resolve, reject) => {
      if (init.signal.aborted) {
        reject(init.signal.reason instanceof Error ? init.signal.reason : new Error("aborted"));
        return;
      }
      const req = request(url, { method: "GET", headers: init.headers, ca }, (res) => {
        const iterator = res[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
        const cancel = (): Promise<void> => {
          res.destroy();
          return Promise.resolve();
        };
        const reader: BodyReaderLike = {
          read: async () => {
            const next = await iterator.next();
            return next.done ? { done: true } : { done: false, value: new Uint8Array(next.value) };
          },
          cancel,
        };
        const header = (name: string): string | null => {
          const value = res.headers[name.toLowerCase()];
          return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
        };
        resolve({
          status: res.statusCode ?? 0,
          statusText: res.statusMessage,
          headers: { get: header },
          body: { getReader: () => reader, cancel },
          text: async () => {
            const parts: Buffer[] = [];
            for await (const chunk of res) parts.push(chunk as Buffer);
            return Buffer.concat(parts).toString("utf8");
          },
        });
      });
      const onAbort = (): void => {
        req.destroy(
          init.signal.reason instanceof Error ? init.signal.reason : new Error("aborted")
        );
      };
      init.signal.addEventListener("abort", onAbort, { once: true });
      req.on("error", (error) => {
        init.signal.removeEventListener("abort", onAbort);
        reject(error);
      });
      req.on("close", () => init.signal.removeEventListener("abort", onAbort));
      req.end();
    });
}
