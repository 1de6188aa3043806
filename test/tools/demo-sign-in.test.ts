/**
 * npm start's demo sign-in (src/tools/demo-sign-in.ts): the add-in's own sign-in code gets a token from the local
 * issuer and calls a gateway wired as npm start wires it (the issuer's verifier and sign-in settings through
 * createGateway's options); the token endpoint refuses what is not the add-in's own request; and the production
 * gateway command (`node …/gateway/main.js`), with sign-in set up for the very tenant, audience and scope the demo
 * tokens carry, refuses every demo token while it serves a token of the issuer it was told to trust.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startSimulator, type RunningSimulator } from "../../src/simulator";
import { createGateway, type Gateway } from "../../src/gateway/server";
import {
  createDemoSignIn,
  DEMO_ACCOUNT,
  DEMO_TOKEN_FACTS,
  type DemoSignIn,
} from "../../src/tools/demo-sign-in";
import { GatewaySession } from "../../src/runtime/sign-in/session";
import { tampered } from "../gateway/support/oidc-issuer";
import { startLocalIssuer, type LocalIssuer } from "../gateway/support/oidc-issuer";
import {
  gatewayFiles,
  startGatewayProcess,
  type GatewayProcess,
} from "../gateway/support/gateway-process";

const TEAM_KEY = "cm_team_key_SECRET_demo_51aa";

let simulator: RunningSimulator;
let demo: DemoSignIn;
let gateway: Gateway;
let server: Server;
let origin: string;

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, rateLimit: null, apiKeys: [TEAM_KEY] });
  // As npm start: the issuer's paths first, then the gateway's, at one origin.
  server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (demo.owns(path)) demo.handle(req, res);
    else if (gateway.owns(req.url ?? "/")) gateway.handle(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  demo = await createDemoSignIn(origin);
  gateway = await createGateway({
    serviceUrl: simulator.url,
    serviceKey: TEAM_KEY,
    verifiers: [demo.verifier],
    signIn: demo.signInConfig,
    // As npm start does: a development gateway, the only kind that takes the demo issuer.
    development: true,
    logLevel: "silent",
  });
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  await simulator?.close();
});

const memoryStorage = () => {
  const items = new Map<string, string>();
  return {
    getItem: async (k: string) => items.get(k) ?? null,
    setItem: async (k: string, v: string) => void items.set(k, v),
    removeItem: async (k: string) => void items.delete(k),
  };
};

function postToken(
  body: string,
  headers: Record<string, string> = { "content-type": "application/json" },
  method = "POST",
  path = "/demo-sign-in/token"
): Promise<Response> {
  return fetch(`${origin}${path}`, { method, headers, ...(method === "GET" ? {} : { body }) });
}

const goodBody = JSON.stringify({
  client_id: DEMO_TOKEN_FACTS.clientId,
  scope: `${DEMO_TOKEN_FACTS.audience}/${DEMO_TOKEN_FACTS.scope}`,
});

describe("the demo sign-in of npm start", () => {
  it("the add-in signs in with its own sign-in code (no Microsoft, no dialog) and the gateway serves the token", async () => {
    const asked: string[] = [];
    const session = new GatewaySession({
      baseUrl: async () => origin,
      storage: memoryStorage(),
      ports: {
        // Neither may be asked: the authority is at the gateway's own origin.
        nestable: async () => {
          asked.push("nestable");
          return undefined;
        },
        dialog: () => {
          asked.push("dialog");
          return undefined;
        },
        pageOrigin: `${origin}/`,
      },
    });
    expect(await session.signIn()).toEqual({ status: "signed-in", account: DEMO_ACCOUNT });
    expect(asked).toEqual([]);
    const token = await session.token();
    const projects = await fetch(`${origin}/v2/projects`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(projects.status).toBe(200);
    expect(((await projects.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    const me = await (await session.gateway()).me();
    expect(me).toMatchObject({ name: "Demo Analyst", via: "demo-sign-in" });
    await session.signOut();
    expect(session.state.status).toBe("signed-out");
  });

  it("publishes its settings at /gateway/v1/sign-in, an authority at the gateway's own origin", async () => {
    const answer = await fetch(`${origin}/gateway/v1/sign-in`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      clientId: DEMO_TOKEN_FACTS.clientId,
      authority: `${origin}/demo-sign-in`,
      scopes: [`${DEMO_TOKEN_FACTS.audience}/access_as_user`],
    });
  });

  it("answers the add-in's own JSON request only: another origin, a form post, another client, a long body, GET, another path are refused", async () => {
    const cases: Array<[string, Promise<Response>, number]> = [
      [
        "the add-in's request",
        postToken(goodBody, { "content-type": "application/json", origin }),
        200,
      ],
      [
        "another origin",
        postToken(goodBody, { "content-type": "application/json", origin: "https://evil.example" }),
        403,
      ],
      [
        "a form post",
        postToken("client_id=x", { "content-type": "application/x-www-form-urlencoded" }),
        415,
      ],
      ["another client", postToken(JSON.stringify({ client_id: "x", scope: "y" })), 400],
      ["not JSON", postToken("{"), 400],
      ["a 5 KB body", postToken(JSON.stringify({ pad: "x".repeat(5_000) })), 413],
      ["GET", postToken("", {}, "GET"), 405],
      ["another path", postToken(goodBody, undefined, "POST", "/demo-sign-in/authorize"), 404],
    ];
    const statuses = await Promise.all(cases.map(async ([, r]) => (await r).status));
    expect(cases.map(([name], i) => [name, statuses[i]])).toEqual(
      cases.map(([name, , status]) => [name, status])
    );
    // The refusals hand out nothing that looks like a token.
    const refused = await postToken(goodBody, {
      "content-type": "application/json",
      origin: "https://evil.example",
    });
    expect(await refused.text()).not.toMatch(/eyJ/);
  });

  it("its verifier takes its own tokens only: tampered ones, another run's, other issuers' are refused", async () => {
    const own = await demo.mint();
    expect(await demo.verifier.verify(own)).toMatchObject({ via: "demo-sign-in" });
    expect(await demo.verifier.verify(tampered(own))).toBeUndefined();
    // Another npm start (another key, same origin and claims): its tokens are not this run's.
    const otherRun = await createDemoSignIn(origin);
    expect(await demo.verifier.verify(await otherRun.mint())).toBeUndefined();
    expect(await demo.verifier.verify("cm_demo_4f1c2a9e")).toBeUndefined();
    const refusedAtGateway = await fetch(`${origin}/v2/projects`, {
      headers: { authorization: `Bearer ${await otherRun.mint()}` },
    });
    expect(refusedAtGateway.status).toBe(401);
  });
});

describe("the production gateway command", () => {
  let issuer: LocalIssuer;
  let production: GatewayProcess;

  beforeAll(async () => {
    // "Microsoft" here is a local issuer the administrator points the gateway at; the gateway's sign-in is set
    // up for the very tenant, audience and scope demo tokens carry, the closest a configuration can come.
    issuer = await startLocalIssuer();
    production = await startGatewayProcess({
      serviceUrl: simulator.url,
      files: gatewayFiles(TEAM_KEY, { script: "tok_script_SECRET_0d11" }),
      args: [
        "--entra-tenants",
        DEMO_TOKEN_FACTS.tenant,
        "--entra-audience",
        DEMO_TOKEN_FACTS.audience,
        "--entra-jwks-url",
        issuer.jwksUrl,
        "--entra-issuer",
        issuer.issuerTemplate,
      ],
    });
  }, 60_000);

  afterAll(async () => {
    await production?.stop();
    await issuer?.close();
  });

  it("refuses every demo token (401, nothing fetched) and serves the issuer it trusts", async () => {
    const get = async (path: string, token: string): Promise<number> =>
      (await fetch(`${production.url}${path}`, { headers: { authorization: `Bearer ${token}` } }))
        .status;
    const demoToken = await demo.mint();
    const trusted = await issuer.mint({
      tenant: DEMO_TOKEN_FACTS.tenant,
      oid: DEMO_TOKEN_FACTS.oid,
      audience: DEMO_TOKEN_FACTS.audience,
    });
    const before = simulator.requestLog.length;
    expect({
      demoProjects: await get("/v2/projects", demoToken),
      demoMe: await get("/gateway/v1/me", demoToken),
    }).toEqual({ demoProjects: 401, demoMe: 401 });
    expect(simulator.requestLog.length).toBe(before);
    // The control: the same claims from the issuer it was told to trust are served.
    expect(await get("/v2/projects", trusted)).toBe(200);
    // The log says why the demo token was refused, never the token.
    expect(production.errors()).toMatch(/"refused":"(claim iss|unknown key id|bad signature)"/);
    expect(production.errors()).not.toContain(demoToken.split(".")[2]);
  });

  it("has no flag that turns the demo issuer on", async () => {
    const started = startGatewayProcess({
      serviceUrl: simulator.url,
      files: gatewayFiles(TEAM_KEY, {}),
      args: ["--demo-sign-in"],
    });
    await expect(started).rejects.toThrow(/exited \(2\)/);
  });
});
