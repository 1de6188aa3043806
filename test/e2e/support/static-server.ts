/** A tiny static file server on loopback for the built pages (plain http: fine for 127.0.0.1). */
import { createReadStream, existsSync, statSync } from "fs";
import http from "http";
import type { AddressInfo } from "net";
import { extname, join, normalize, sep } from "path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".png": "image/png",
  ".xml": "application/xml",
  ".map": "application/json",
};

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

/** `mount`: answers a request before the files do when it returns true (a gateway at the pages' origin). */
export async function serveStatic(
  root: string,
  mount?: (req: http.IncomingMessage, res: http.ServerResponse) => boolean
): Promise<StaticServer> {
  const server = http.createServer((req, res) => {
    if (mount?.(req, res)) return;
    const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname));
    const file = join(root, path);
    if (!file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      "content-type": TYPES[extname(file)] ?? "application/octet-stream",
      "cache-control": "no-store",
    });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
