/**
 * A hostile metrics service for the browser test: a loopback proxy in front of the simulator that plants
 * markup in names, descriptions and error messages, and script, data and look-alike URLs in a project's
 * links, the way a compromised or careless service could. Real HTTP; CORS headers passed through.
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** Runs only if a page parses it as HTML: sets window.__pwned. */
function payload(tag: string): string {
  return `<img src=x onerror="window.__pwned='${tag}'"><b>${tag}</b><script>window.__pwned='${tag}'</script>`;
}

export const HOSTILE_NAME = `Aave ${payload("name")}`;
export const HOSTILE_WHAT = `Lending ${payload("description")}`;
export const HOSTILE_ERROR = `bad request ${payload("error")}`;

export const HOSTILE_LINKS = [
  { summary: `Docs ${payload("summary")}`, url: "https://docs.example.org/aave" },
  { summary: "Site", url: "http://aave.example.org/" },
  { summary: "Script", url: "javascript:window.__pwned='link'" },
  { summary: "Spaced script", url: "  JaVaScRiPt:window.__pwned='spaced'" },
  { summary: "Tabbed script", url: "java\tscript:window.__pwned='tabbed'" },
  { summary: "Data", url: "data:text/html,<script>window.__pwned='data'</script>" },
  { summary: "VB", url: "vbscript:msgbox(1)" },
  { summary: "Relative", url: "/v2/projects/aave" },
];

type Json = Record<string, unknown>;

function plant(path: string, body: Json, name: string): Json {
  const data = body.data;
  if (path === "/v2/projects" && Array.isArray(data)) {
    for (const p of data as Json[]) {
      if (p.project_id !== "aave") continue;
      p.name = name;
      (p.products as Json[])[0].product_name = `V1 ${payload("product")}`;
    }
  } else if (path === "/v2/projects/aave" && data && typeof data === "object") {
    const d = data as Json;
    d.name = name;
    d.description = { what: HOSTILE_WHAT, how: payload("how") };
    d.links = HOSTILE_LINKS;
    for (const def of (d.metric_definitions as Json[] | undefined) ?? [])
      def.definition = `${String(def.definition)} ${payload("definition")}`;
  } else if (path === "/v2/metrics" && Array.isArray(data)) {
    for (const m of data as Json[])
      if (m.metric_id === "fees") m.metric_name = `Fees ${payload("metric")}`;
  } else if (path === "/v2/market-sectors" && Array.isArray(data)) {
    (data as Json[])[0].name = `Lending ${payload("sector")}`;
  }
  return body;
}

export interface HostileProxy {
  url: string;
  /** While true, every metric list request is answered 400 with a message full of markup. */
  failWithMarkup: boolean;
  close(): Promise<void>;
}

/** `name`: what aave is called (markup by default; another test plants bidirectional overrides). */
export async function startHostileProxy(
  upstream: string,
  name: string = HOSTILE_NAME
): Promise<HostileProxy> {
  const sockets = new Set<Socket>();
  const proxy: HostileProxy = { url: "", failWithMarkup: false, close: async () => undefined };
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", upstream);
      const headers: Record<string, string> = {};
      for (const name of [
        "authorization",
        "accept",
        "access-control-request-method",
        "access-control-request-headers",
        "origin",
      ]) {
        const value = req.headers[name];
        if (typeof value === "string") headers[name] = value;
      }
      const answer = await fetch(url, { method: req.method, headers, redirect: "manual" });
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (
          ![
            "content-length",
            "content-encoding",
            "transfer-encoding",
            "connection",
            "keep-alive",
          ].includes(name)
        )
          out[name] = value;
      });
      let body = await answer.text();
      let status = answer.status;
      if (req.method === "GET" && proxy.failWithMarkup && url.pathname === "/v2/metrics") {
        status = 400;
        body = JSON.stringify({ message: HOSTILE_ERROR });
      } else if (req.method === "GET" && status === 200 && /json/.test(out["content-type"] ?? "")) {
        body = JSON.stringify(plant(url.pathname, JSON.parse(body) as Json, name));
      }
      res.writeHead(status, out);
      res.end(body);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
  return proxy;
}
