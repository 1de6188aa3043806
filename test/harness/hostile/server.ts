/**
 * A hostile metrics service on loopback: a proxy in front of the simulator that, in the attack set by
 * `attack`, answers the way a broken or malicious service could (bodies without end, nesting thousands
 * deep, catalogues of a hundred thousand projects, spreadsheet formulas and terminal escapes in names, the
 * caller's own key echoed back, Retry-After 0, a body that trickles or breaks off, a redirect to another
 * origin, to plain http or to itself, `__proto__` members, ids that would change a URL). Real HTTP, so
 * the client meets it exactly as it meets the service. Used by the hostile-service tests and by
 * `npm run faults`; never part of a production bundle.
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { echoVariants } from "./echo";
import { hiddenVariants } from "./hidden-key";
import { deepValue, wideProjects } from "./payloads";

/** What the service does. Every attack applies to the paths matching `paths` (default: every path). */
export type Attack =
  | { kind: "none" }
  /** A valid JSON body of `bytes` (a project list); with a Content-Length when `declared`. */
  | { kind: "huge"; bytes: number; declared: boolean }
  /** A JSON body that never ends (chunked), written as fast as the client reads. */
  | { kind: "endless" }
  /** The simulator's answer with `aggregate_by_options` nested `depth` levels deep in a detail. */
  | { kind: "deep"; depth: number }
  /** The project list with `projects` projects. */
  | { kind: "wide"; projects: number }
  /** Every row of a list answered twice. */
  | { kind: "duplicated-rows" }
  /** Names, symbols and descriptions replaced by `text` (formulas, escapes...). */
  | { kind: "names"; texts: readonly string[] }
  /**
   * An error status whose body quotes the caller's key in every variant of echo.ts; with `hidden`, in every
   * variant of hidden-key.ts instead (split by invisible characters, full-width, base64).
   */
  | { kind: "key-echo"; status: number; hidden?: boolean }
  /** The simulator's answer, `ms` late (a slow service: requests stay open). */
  | { kind: "delay"; ms: number }
  /** 429 (or 503) with this Retry-After, always. */
  | { kind: "retry-after"; value: string; status: 429 | 503 }
  /** Headers at once, then a byte every `everyMs`, never finishing. */
  | { kind: "slow-body"; everyMs: number }
  /** Headers and half a body, then the connection is destroyed. */
  | { kind: "reset-mid-body" }
  /** 307 to the same path on `to` (another origin). */
  | { kind: "redirect"; to: string }
  /** 307 back to the very URL asked for. */
  | { kind: "redirect-loop" }
  /** `__proto__` and `constructor.prototype` members planted in every object of the answer. */
  | { kind: "proto-keys" }
  /** The catalogue with its first projects' ids replaced by `ids` (text that would change a URL). */
  | { kind: "ids"; ids: readonly string[] };

export interface SeenRequest {
  at: number;
  method: string;
  path: string;
  authorization: string | undefined;
}

export interface HostileService {
  readonly url: string;
  attack: Attack;
  /** Which paths the attack applies to; others are passed to the simulator untouched. */
  paths: RegExp;
  /** Every request received, in order (real time). */
  readonly seen: SeenRequest[];
  /** Bytes written in attack bodies so far. */
  readonly written: () => number;
  close(): Promise<void>;
}

const JSON_HEADERS = { "content-type": "application/json" };

/** `{"data":[` ... `]}` with project items until about `bytes` are written, as one chunk generator. */
function* projectListChunks(bytes: number | undefined): Generator<string> {
  yield '{"data":[';
  const item = (i: number): string =>
    `{"project_id":"p${i}","name":"Project ${i}","symbol":"P${i}","is_archived":false,"products":[]}`;
  let written = 9;
  let i = 0;
  while (bytes === undefined || written < bytes - 64) {
    // 64 KiB per chunk: the client sees a steady stream, the server no huge strings.
    const parts: string[] = [];
    let size = 0;
    while (size < 65_536) {
      const s = (i === 0 ? "" : ",") + item(i);
      parts.push(s);
      size += s.length;
      i++;
    }
    written += size;
    yield parts.join("");
  }
  yield "]}";
}

/** The exact size projectListChunks(bytes) writes. */
function projectListSize(bytes: number): number {
  let n = 0;
  for (const chunk of projectListChunks(bytes)) n += Buffer.byteLength(chunk);
  return n;
}

async function upstreamJson(
  upstream: string,
  req: http.IncomingMessage
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const headers: Record<string, string> = {};
  for (const name of ["authorization", "accept"]) {
    const value = req.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  const answer = await fetch(new URL(req.url ?? "/", upstream), { headers, redirect: "manual" });
  const out: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!["content-length", "content-encoding", "transfer-encoding", "connection"].includes(name))
      out[name] = value;
  });
  return { status: answer.status, headers: out, body: await answer.text() };
}

type Json = Record<string, unknown>;

function isJson(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Replaces the user-facing texts of catalogue items and details with the hostile ones, in turn. */
function plantNames(body: Json, texts: readonly string[]): Json {
  let n = 0;
  const next = (): string => texts[n++ % texts.length];
  const plantIn = (item: Json): void => {
    for (const key of ["name", "metric_name", "project_name", "description", "symbol"]) {
      if (typeof item[key] === "string") item[key] = next();
    }
  };
  if (Array.isArray(body.data)) body.data.filter(isJson).forEach(plantIn);
  else if (isJson(body.data)) plantIn(body.data);
  return body;
}

/** Members that would pollute Object.prototype in a reader that copies parsed JSON carelessly. */
const PROTO_MEMBERS =
  '"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}';

function renameIds(body: Json, ids: readonly string[]): Json {
  if (Array.isArray(body.data))
    body.data.filter(isJson).forEach((item, i) => {
      if (i < ids.length) item.project_id = ids[i];
    });
  return body;
}

function duplicateRows(body: Json): Json {
  if (Array.isArray(body.data)) body.data = body.data.flatMap((row: unknown) => [row, row]);
  return body;
}

/** Writes chunks as the socket drains, until they run out or the client goes away. */
function pump(
  res: http.ServerResponse,
  chunks: Iterator<string>,
  count: (n: number) => void
): void {
  const write = (): void => {
    for (;;) {
      if (res.destroyed) return;
      const next = chunks.next();
      if (next.done) {
        res.end();
        return;
      }
      count(next.value.length);
      if (!res.write(next.value)) {
        res.once("drain", write);
        return;
      }
    }
  };
  write();
}

export async function startHostileService(options: {
  upstream: string;
  attack?: Attack;
  host?: string;
}): Promise<HostileService> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let written = 0;
  const count = (n: number): void => {
    written += n;
  };
  const service: HostileService = {
    url: "",
    attack: options.attack ?? { kind: "none" },
    paths: /./,
    seen: [],
    written: () => written,
    close: async () => undefined,
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const path = req.url ?? "/";
    const authorization = req.headers.authorization;
    service.seen.push({ at: Date.now(), method: req.method ?? "GET", path, authorization });
    const attack = service.paths.test(new URL(path, "http://x").pathname)
      ? service.attack
      : { kind: "none" as const };
    const key = (authorization ?? "").replace(/^Bearer\s+/i, "");
    switch (attack.kind) {
      case "huge":
        res.writeHead(200, {
          ...JSON_HEADERS,
          ...(attack.declared ? { "content-length": String(projectListSize(attack.bytes)) } : {}),
        });
        return pump(res, projectListChunks(attack.bytes), count);
      case "endless":
        res.writeHead(200, JSON_HEADERS);
        return pump(res, projectListChunks(undefined), count);
      case "key-echo":
        res.writeHead(attack.status, JSON_HEADERS);
        res.end(
          JSON.stringify({
            message: (attack.hidden ? hiddenVariants(key) : echoVariants(key)).join(" | "),
          })
        );
        return;
      case "delay": {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, attack.ms);
          timers.add(timer);
        });
        const answer = await upstreamJson(options.upstream, req);
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body);
        return;
      }
      case "retry-after":
        res.writeHead(attack.status, { ...JSON_HEADERS, "retry-after": attack.value });
        res.end(JSON.stringify({ message: "slow down" }));
        return;
      case "slow-body": {
        res.writeHead(200, JSON_HEADERS);
        res.write('{"data":[');
        const timer = setInterval(() => {
          if (res.destroyed) {
            clearInterval(timer);
            timers.delete(timer);
            return;
          }
          res.write(" ");
          count(1);
        }, attack.everyMs);
        timers.add(timer);
        return;
      }
      case "reset-mid-body": {
        const { status, headers, body } = await upstreamJson(options.upstream, req);
        res.writeHead(status, { ...headers, "content-length": String(Buffer.byteLength(body)) });
        res.write(body.slice(0, Math.floor(body.length / 2)), () => res.destroy());
        return;
      }
      case "redirect":
        res.writeHead(307, { location: new URL(path, attack.to).href });
        res.end();
        return;
      case "redirect-loop":
        res.writeHead(307, { location: path });
        res.end();
        return;
      case "none":
      case "deep":
      case "wide":
      case "duplicated-rows":
      case "proto-keys":
      case "ids":
      case "names": {
        const answer = await upstreamJson(options.upstream, req);
        let body = answer.body;
        if (answer.status === 200 && attack.kind !== "none") {
          const parsed = JSON.parse(body) as Json;
          if (attack.kind === "deep" && isJson(parsed.data)) {
            // Built as text: the object itself would be too deep for JSON.stringify.
            const marker = '"__deep__"';
            parsed.data.aggregate_by_options = "__deep__";
            body = JSON.stringify(parsed).replace(marker, deepValue(attack.depth));
          } else if (attack.kind === "wide") {
            body = JSON.stringify({ data: wideProjects(attack.projects) });
          } else if (attack.kind === "duplicated-rows") {
            body = JSON.stringify(duplicateRows(parsed));
          } else if (attack.kind === "names") {
            body = JSON.stringify(plantNames(parsed, attack.texts));
          } else if (attack.kind === "ids") {
            body = JSON.stringify(renameIds(parsed, attack.ids));
          } else if (attack.kind === "proto-keys") {
            // As text: an object built in JavaScript would take "__proto__" as its prototype, not a member.
            body = body.replace(/\{"/g, `{${PROTO_MEMBERS},"`);
          }
        }
        res.writeHead(answer.status, answer.headers);
        res.end(body);
        return;
      }
    }
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  (service as { url: string }).url = `http://${host}:${(server.address() as AddressInfo).port}`;
  service.close = () =>
    new Promise<void>((resolve) => {
      for (const t of timers) clearInterval(t);
      timers.clear();
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
  return service;
}
