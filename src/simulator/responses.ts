/** Writing responses: the headers every answer carries, JSON bodies, and the deliberately broken ones. */
import type { ServerResponse } from "node:http";
import { SIMULATED_HEADER } from "./constants";
import type { Fault } from "./types";

/** Headers on every response, errors and preflights included. */
export function commonHeaders(res: ServerResponse): void {
  res.setHeader(SIMULATED_HEADER, "true");
  // Bearer auth and no cookies: any origin may call, which the add-in running in a browser needs.
  res.setHeader("Access-Control-Allow-Origin", "*");
  res.setHeader(
    "Access-Control-Expose-Headers",
    [SIMULATED_HEADER, "Retry-After", "Location", "Deprecation", "Sunset"].join(", ")
  );
  res.setHeader("Cache-Control", "no-store");
}

export function preflight(res: ServerResponse, privateNetwork: boolean): void {
  res.setHeader("Access-Control-Allow-Methods", "GET, OPTIONS");
  res.setHeader("Access-Control-Allow-Headers", "Authorization, Content-Type");
  res.setHeader("Access-Control-Max-Age", "600");
  // Chrome asks before a public page calls a loopback server; answering yes keeps the dev setup working.
  if (privateNetwork) res.setHeader("Access-Control-Allow-Private-Network", "true");
  res.writeHead(204);
  res.end();
}

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export function sendJson(res: ServerResponse, reply: Reply): void {
  sendText(
    res,
    reply.status,
    JSON.stringify(reply.body),
    "application/json; charset=utf-8",
    reply.headers
  );
}

/** An answer with its status and headers and no body at all (the errorBodies reading "empty"). */
export function sendEmpty(res: ServerResponse, reply: Reply): void {
  res.writeHead(reply.status, { ...(reply.headers ?? {}), "Content-Length": "0" });
  res.end();
}

function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  contentType: string,
  headers: Record<string, string> = {}
): void {
  const payload = Buffer.from(text, "utf8");
  res.writeHead(status, {
    ...headers,
    "Content-Type": contentType,
    "Content-Length": String(payload.length),
  });
  res.end(payload);
}

/** A gzip member header (magic, deflate, no flags): what follows it is not deflate data. */
const CORRUPT_GZIP_HEAD = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);

/**
 * Answer `reply` damaged the way `fault` says (what proxies, crashes and misconfigurations produce):
 * - truncated-json: the first half of the JSON, with a Content-Length that matches what is sent;
 * - html-200: a 200 with an HTML maintenance page;
 * - wrong-content-type: the real JSON labelled text/plain;
 * - empty-body: a 200 JSON response with no body;
 * - redirect-loop: a 308 back to the very same URL;
 * - corrupt-gzip: a 200 labelled `Content-Encoding: gzip` whose bytes are a gzip header and then garbage.
 * `reset` is handled by the caller (the socket is destroyed, nothing is sent).
 */
export function sendFault(
  res: ServerResponse,
  fault: Exclude<Fault, "reset">,
  reply: Reply,
  selfUrl: string
): number {
  const json = JSON.stringify(reply.body);
  switch (fault) {
    case "truncated-json":
      sendText(
        res,
        200,
        json.slice(0, Math.max(1, Math.floor(json.length / 2))),
        "application/json; charset=utf-8"
      );
      return 200;
    case "html-200":
      sendText(
        res,
        200,
        "<!DOCTYPE html><html><head><title>Maintenance</title></head><body><h1>We'll be back soon</h1></body></html>",
        "text/html; charset=utf-8"
      );
      return 200;
    case "wrong-content-type":
      sendText(res, reply.status, json, "text/plain; charset=utf-8");
      return reply.status;
    case "empty-body":
      sendText(res, 200, "", "application/json; charset=utf-8");
      return 200;
    case "corrupt-gzip": {
      const gzip = Buffer.concat([CORRUPT_GZIP_HEAD, Buffer.from(json.slice(0, 64), "utf8")]);
      res.writeHead(200, {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Encoding": "gzip",
        "Content-Length": String(gzip.length),
      });
      res.end(gzip);
      return 200;
    }
    case "redirect-loop":
      sendJson(res, {
        status: 308,
        body: { message: "Moved permanently" },
        headers: { Location: selfUrl },
      });
      return 308;
  }
}
