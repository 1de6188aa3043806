/**
 * A misbehaving service on loopback: real HTTP, answering what a test scripts, often with the request's own
 * Authorization header echoed back (a debug page, a proxy's error, a captive portal quoting the request).
 * Records what each request carried.
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface Seen {
  path: string;
  authorization: string | undefined;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoopbackServer {
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

export async function startServer(
  answer: (req: http.IncomingMessage, authorization: string) => Answer
): Promise<LoopbackServer> {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const authorization = req.headers.authorization;
    seen.push({ path: req.url ?? "", authorization });
    const a = answer(req, authorization ?? "");
    res.writeHead(a.status, a.headers ?? { "content-type": "application/json" });
    res.end(a.body ?? "");
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}
