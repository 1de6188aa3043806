/**
 * The gateway is no open proxy and keeps its secrets: only GETs of the interface's paths reach the service (with
 * the service key, nothing of the caller's), the caller's token never leaves, the service key appears in no
 * answer, log line, metric or error, what it reads is bounded, and a token removed from the tokens file stops
 * working without a restart.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FetchLike } from "../../src/client";
import { FixedTokens, TokensFile, hashToken } from "../../src/gateway/auth/tokens-file";
import type { Verifier } from "../../src/gateway/auth/verifier";
import { startSimulator, type RunningSimulator } from "../../src/simulator";
import { startTestGateway, type TestGateway } from "./support/in-process";

const SERVICE_KEY = "cm_service_key_SECRET_5e7d1";
const TOKEN = "tok_caller_SECRET_88a2";
const ADMIN_TOKEN = "tok_admin_SECRET_31c7";

function listen(server: Server): Promise<string> {
  return new Promise((done) =>
    server.listen(0, "127.0.0.1", () =>
      done(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
    )
  );
}

async function get(
  url: string,
  init: RequestInit = {}
): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(url, { redirect: "manual", ...init });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const auth = { authorization: `Bearer ${TOKEN}` };

describe("with the simulator as the service", () => {
  let simulator: RunningSimulator;
  let gw: TestGateway;
  const sent: Array<{ url: string; headers: Record<string, string> }> = [];

  beforeAll(async () => {
    simulator = await startSimulator({ port: 0, rateLimit: null, apiKeys: [SERVICE_KEY] });
    const recording: FetchLike = (url, init) => {
      sent.push({ url, headers: { ...init.headers } });
      return fetch(url, init);
    };
    gw = await startTestGateway({
      serviceUrl: simulator.url,
      serviceKey: SERVICE_KEY,
      tokens: { carol: TOKEN, admin: ADMIN_TOKEN },
      admins: ["admin"],
      fetch: recording,
    });
  });
  afterAll(async () => {
    await gw.close();
    await simulator.close();
  });
  beforeEach(() => simulator.clearLog());

  it("answers an unknown or missing token 401 without asking the service anything", async () => {
    const tries: Array<Record<string, string>> = [
      {},
      { authorization: "Bearer tok_not_in_the_file" },
      { authorization: `Basic ${TOKEN}` },
    ];
    for (const headers of tries) {
      const answer = await get(`${gw.url}/v2/projects`, { headers });
      expect(answer.status).toBe(401);
      expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(JSON.parse(answer.text)).toEqual({ message: expect.stringMatching(/authorization/i) });
    }
    expect(simulator.requestLog).toEqual([]);
  });

  it("calls the service with the service key alone: the caller's token and headers never travel", async () => {
    sent.length = 0;
    const answer = await get(
      `${gw.url}/v2/metrics/fees?project_ids=aave&start=2025-01-01&end=2025-01-02`,
      {
        headers: { ...auth, cookie: "session=abc", "x-forwarded-for": "10.0.0.1", "x-extra": "1" },
      }
    );
    expect(answer.status).toBe(200);
    expect(sent).toHaveLength(1);
    expect(sent[0].headers).toEqual({
      Accept: "application/json",
      Authorization: `Bearer ${SERVICE_KEY}`,
    });
    expect(new URL(sent[0].url).origin).toBe(simulator.url);
    expect(JSON.stringify(sent)).not.toContain(TOKEN);
  });

  it("answers only GET: other methods get 405 and never reach the service", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]) {
      const answer = await get(`${gw.url}/v2/projects`, { method, headers: auth });
      expect({ method, status: answer.status }).toEqual({ method, status: 405 });
      expect(answer.headers.get("allow")).toBe("GET");
    }
    expect(simulator.requestLog).toEqual([]);
  });

  it("answers only the interface's paths and parameters", async () => {
    const refused: Array<[string, number]> = [
      ["/v3/projects", 404],
      ["/admin", 404],
      ["/v2/projects/aave/secrets", 404],
      ["/v2/projects/../../etc/passwd", 404],
      ["/v2/projects/%2e%2e", 404],
      ["/v2/projects/aave/metrics?metric_ids=fees&api_key=x", 400],
      ["/v2/projects/aave/metrics?metric_ids=fees&metric_ids=tvl", 400],
      ["/v2/projects/aave/metrics?metric_ids=", 400],
      ["/v2/projects/aave/metrics?start=2025-13-01", 400],
      ["/v2/projects/aave/metrics?start=2025-02-01&end=2025-01-01", 400],
      ["/v2/projects/aave/metrics?order_direction=sideways", 400],
      ["/v2/projects/aave/financial-statement?interval=7d", 400],
      [
        `/v2/metrics/fees?project_ids=${Array.from({ length: 1_001 }, (_, i) => `p${i}`).join(",")}`,
        400,
      ],
    ];
    for (const [path, status] of refused) {
      const answer = await get(`${gw.url}${path}`, { headers: auth });
      expect({ path, status: answer.status }).toEqual({ path, status });
      expect(JSON.parse(answer.text)).toEqual({ message: expect.any(String) });
    }
    expect(simulator.requestLog).toEqual([]);
  });

  it("never fetches another host named in the request line: the path is answered from the service", async () => {
    const elsewhere = createServer((_req, res) => res.end("reached"));
    const other = await listen(elsewhere);
    let reached = false;
    elsewhere.on("request", () => (reached = true));
    const reply = await new Promise<string>((done) => {
      const socket = connect(Number(new URL(gw.url).port), "127.0.0.1", () =>
        socket.write(
          `GET ${other}/v2/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`
        )
      );
      let text = "";
      socket.on("data", (d: Buffer) => (text += d.toString()));
      socket.on("close", () => done(text));
    });
    elsewhere.close();
    expect(reached).toBe(false);
    expect(reply).not.toContain("reached");
    expect(simulator.requestLog.map((r) => r.path)).toEqual(["/v2/projects"]);
  });

  it("refuses a URL too long to be a request of the add-in", async () => {
    const answer = await get(`${gw.url}/v2/metrics/fees?project_ids=${"a".repeat(20_000)}`, {
      headers: auth,
    });
    expect([400, 414, 431]).toContain(answer.status);
  });

  it("refuses on the wire what a URL parser would have normalised: dot-dot and encoded separators in a path id", async () => {
    const raw = (path: string): Promise<string> =>
      new Promise((done) => {
        const socket = connect(Number(new URL(gw.url).port), "127.0.0.1", () =>
          socket.write(
            `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`
          )
        );
        let text = "";
        socket.on("data", (d: Buffer) => (text += d.toString()));
        socket.on("close", () => done(text));
      });
    for (const path of [
      "/v2/projects/%2e%2e",
      "/v2/projects/.%2e/metrics",
      "/v2/projects/..%2f..%2fadmin",
      "/v2/projects/a%5cb",
      "/v2/projects/a%3fb",
      "/v2/projects/a%23b",
    ])
      expect({ path, line: (await raw(path)).split("\r\n")[0] }).toEqual({
        path,
        line: "HTTP/1.1 400 Bad Request",
      });
    expect(simulator.requestLog).toEqual([]);
  });

  it("keeps the service key and the tokens out of its log and its metrics; names users to administrators only", async () => {
    const metrics = await get(`${gw.url}/metrics`, { headers: auth });
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain("cryptometrics_gateway_requests_total{");
    expect(metrics.text).not.toContain('user="');
    const admin = await get(`${gw.url}/metrics`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(admin.text).toContain('cryptometrics_gateway_user_requests_total{user="carol"');
    expect((await get(`${gw.url}/metrics`)).status).toBe(401);
    for (const text of [metrics.text, admin.text, gw.log()]) {
      expect(text).not.toContain(SERVICE_KEY);
      expect(text).not.toContain(TOKEN);
    }
  });
});

describe("with a hostile service", () => {
  let service: Server;
  let elsewhere: Server;
  let gw: TestGateway;
  let reachedElsewhere = false;

  beforeAll(async () => {
    elsewhere = createServer((_req, res) => {
      reachedElsewhere = true;
      res.writeHead(200, { "content-type": "application/json" }).end('{"data":[]}');
    });
    const otherUrl = await listen(elsewhere);
    service = createServer((req, res) => {
      const json = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
        res
          .writeHead(status, { "content-type": "application/json", ...headers })
          .end(JSON.stringify(body));
      };
      const path = (req.url ?? "").split("?")[0];
      if (path === "/v2/projects")
        return json(200, {
          data: [{ project_id: "x", name: `echo ${SERVICE_KEY}`, products: [] }],
        });
      if (path === "/v2/metrics")
        return json(401, { message: `Invalid authorization header ${SERVICE_KEY}` });
      if (path === "/v2/market-sectors")
        return json(400, { message: `bad request for ${SERVICE_KEY}` });
      if (path === "/v2/projects/away")
        return json(308, {}, { location: `${otherUrl}/v2/projects/away` });
      if (path === "/v2/projects/admin") return json(308, {}, { location: "/internal/admin" });
      return json(404, { message: "no" });
    });
    gw = await startTestGateway({
      serviceUrl: await listen(service),
      serviceKey: SERVICE_KEY,
      tokens: { carol: TOKEN },
    });
  });
  afterAll(async () => {
    await gw.close();
    service.close();
    elsewhere.close();
  });

  it("never shows the service key, whatever the service sends back", async () => {
    const answers = await Promise.all(
      ["/v2/projects", "/v2/metrics", "/v2/market-sectors"].map((p) =>
        get(`${gw.url}${p}`, { headers: auth })
      )
    );
    expect(answers.map((a) => a.status)).toEqual([200, 502, 400]);
    // A refused service key is the gateway's problem, not the caller's: 502, not 401.
    expect(answers[1].text).toMatch(/service key was refused/);
    for (const answer of answers) expect(answer.text).not.toContain(SERVICE_KEY);
    const metrics = await get(`${gw.url}/metrics`, { headers: auth });
    for (const text of [gw.log(), metrics.text]) expect(text).not.toContain(SERVICE_KEY);
  });

  it("follows no redirect to another host or to a path that is not an operation", async () => {
    for (const path of ["/v2/projects/away", "/v2/projects/admin"]) {
      const answer = await get(`${gw.url}${path}`, { headers: auth });
      expect({ path, status: answer.status }).toEqual({ path, status: 502 });
    }
    expect(reachedElsewhere).toBe(false);
  });
});

describe("the tokens file", () => {
  it("stops accepting a token removed from the file, and accepts one added, without a restart", async () => {
    const simulator = await startSimulator({ port: 0, rateLimit: null, apiKeys: [SERVICE_KEY] });
    const dir = mkdtempSync(join(tmpdir(), "cm-tokens-"));
    const path = join(dir, "tokens");
    const write = (tokens: Record<string, string>): void =>
      writeFileSync(
        path,
        Object.entries(tokens)
          .map(([n, t]) => `${n} ${hashToken(t)}  # ${n}'s laptop`)
          .join("\n")
      );
    write({ carol: TOKEN, dave: "tok_dave_1" });
    const tokens = await TokensFile.open({ path, reloadMs: 100 });
    const gw = await startTestGateway({
      serviceUrl: simulator.url,
      serviceKey: SERVICE_KEY,
      verifiers: [tokens],
    });
    const status = async (token: string): Promise<number> =>
      (await get(`${gw.url}/v2/metrics`, { headers: { authorization: `Bearer ${token}` } })).status;
    const eventually = async (token: string, expected: number): Promise<void> => {
      for (let i = 0; i < 50 && (await status(token)) !== expected; i++)
        await new Promise((r) => setTimeout(r, 100));
      expect(await status(token)).toBe(expected);
    };
    try {
      expect(await status("tok_dave_1")).toBe(200);
      write({ carol: TOKEN });
      await eventually("tok_dave_1", 401);
      expect(await status(TOKEN)).toBe(200);
      write({ carol: TOKEN, erin: "tok_erin_2" });
      await eventually("tok_erin_2", 200);
    } finally {
      await gw.close();
      await simulator.close();
    }
  });
});

describe("a service key of the caller's own (named by a verifier)", () => {
  it("serves that caller with their key alone: its own budget and cache, never the team's answers", async () => {
    const USER_KEY = "cm_user_key_SECRET_3b9";
    const simulator = await startSimulator({
      port: 0,
      rateLimit: null,
      apiKeys: [SERVICE_KEY, USER_KEY],
    });
    const sent: string[] = [];
    const recording: FetchLike = (url, init) => {
      sent.push(init.headers.Authorization ?? "");
      return fetch(url, init);
    };
    // A verifier of the kind sign-in brings: it names the key that serves its caller.
    const signIn: Verifier = {
      name: "test-sign-in",
      verify: (credential) =>
        Promise.resolve(
          credential === "signed-in-frank"
            ? { user: "frank", via: "test", serviceKeyId: "frank" }
            : undefined
        ),
      describe: () => ({}),
      close: () => undefined,
    };
    const gw = await startTestGateway({
      serviceUrl: simulator.url,
      serviceKey: SERVICE_KEY,
      verifiers: [new FixedTokens([{ name: "carol", token: TOKEN }]), signIn],
      serviceKeys: (id) => Promise.resolve(id === "frank" ? USER_KEY : undefined),
      fetch: recording,
    });
    try {
      const path = `${gw.url}/v2/metrics/fees?project_ids=aave&start=2025-03-01&end=2025-03-02`;
      const team = await get(path, { headers: auth });
      const frank = await get(path, { headers: { authorization: "Bearer signed-in-frank" } });
      expect([team.status, frank.status]).toEqual([200, 200]);
      // The same need asked twice: once with each key (no sharing across keys).
      expect(frank.headers.get("x-cryptometrics-gateway")).toBe("fetched");
      expect(frank.text).toBe(team.text);
      expect(sent).toEqual([`Bearer ${SERVICE_KEY}`, `Bearer ${USER_KEY}`]);
      expect(
        (await get(path, { headers: { authorization: "Bearer signed-in-frank" } })).headers.get(
          "x-cryptometrics-gateway"
        )
      ).toBe("hit");
      for (const text of [team.text, frank.text, gw.log()]) expect(text).not.toContain(USER_KEY);
    } finally {
      await gw.close();
      await simulator.close();
    }
  });
});
