/**
 * In front of a gateway: records the requests analysts send it (their shape: the path and the parameters, lists
 * as sets), and passes each on as it came. What a team asks, to compare with what the service was asked.
 */
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordingProxy {
  url: string;
  /** Each request's shape: the path, then its parameters sorted, list values sorted. */
  shapes: string[];
  close(): Promise<void>;
}

/** A request's shape: `/v2/metrics/fees?end=…&project_ids=a,b&start=…` whatever the order it was written in. */
export function shapeOf(pathAndQuery: string): string {
  const url = new URL(pathAndQuery, "http://x");
  const params = [...url.searchParams]
    .map(([name, value]) => [name, value.split(",").sort().join(",")])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${url.pathname}?${params.map(([n, v]) => `${n}=${v}`).join("&")}`;
}

export function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const shapes: string[] = [];
  const server: Server = createServer((req, res) => {
    shapes.push(shapeOf(req.url ?? "/"));
    const forwarded = httpRequest(
      `${target}${req.url ?? "/"}`,
      { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      }
    );
    forwarded.on("error", () => res.writeHead(502).end());
    req.pipe(forwarded);
  });
  return new Promise((done) =>
    server.listen(0, "127.0.0.1", () =>
      done({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        shapes,
        close: () => new Promise<void>((closed) => server.close(() => closed())),
      })
    )
  );
}
