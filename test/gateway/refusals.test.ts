/**
 * What the gateway says when it refuses, through `app.inject()` (no socket) against a service of the test's own:
 * fixed words from the interface's own names, never the caller's text, never a "[REDACTED]" that would tell a
 * caller their guess is a stretch of a key. The red team's walk (a key recovered one character at a time from
 * the redaction of a parameter's name, or of the service's echo of an id) finds nothing.
 */
import { Writable } from "node:stream";
import { randomBytes } from "node:crypto";
import { MemoryKeyRecords, UserKeys } from "../../src/gateway/auth/user-keys";
import { FixedTokens } from "../../src/gateway/auth/tokens-file";
import { UNEXPECTED } from "../../src/gateway/errors";
import { createGateway, type Gateway } from "../../src/gateway/server";
import {
  FAKE_SERVICE_URL,
  fakeService,
  seriesHandler,
  type FakeService,
} from "./support/fake-service";
import { signedIn } from "./support/signed-in";

const TEAM_KEY = `cm_team_${randomBytes(16).toString("hex")}`;
const ALICE_KEY = `cm_alic_${randomBytes(16).toString("hex")}`;
const TOKEN = "tok_bob_refusals_71";
const ADMIN = "tok_admin_refusals_72";

let service: FakeService;
let gateway: Gateway;
const log: string[] = [];

beforeAll(async () => {
  // The service echoes what it does not know: unknown ids in errors[].value, an unknown metric in a 404's message.
  service = fakeService((url) => {
    const metric = /^\/v2\/metrics\/([^/]+)$/.exec(url.pathname)?.[1];
    if (metric && metric !== "fees")
      return { status: 404, body: { message: `Metric not found: ${decodeURIComponent(metric)}` } };
    if (metric === "fees") {
      const ids = (url.searchParams.get("project_ids") ?? "").split(",");
      const known = ids.filter((id) => id === "aave");
      const answer = seriesHandler(
        new URL(url.toString().replace(/project_ids=[^&]*/, `project_ids=${known.join(",")}`))
      );
      return {
        body: {
          data: known.length > 0 ? (answer?.body as { data: unknown[] }).data : [],
          errors: ids
            .filter((id) => id !== "aave")
            .map((value) => ({ code: "NOT_FOUND", field: "project_ids", value })),
        },
      };
    }
    return seriesHandler(url);
  });
  const userKeys = new UserKeys(new MemoryKeyRecords(), randomBytes(32), {
    minKeyLength: TEAM_KEY.length,
  });
  gateway = await createGateway({
    serviceUrl: FAKE_SERVICE_URL,
    serviceKey: TEAM_KEY,
    verifiers: [
      new FixedTokens([
        { name: "bob", token: TOKEN },
        { name: "admin", token: ADMIN },
      ]),
      signedIn,
    ],
    admins: ["admin"],
    userKeys,
    fetch: service.fetch,
    logStream: new Writable({
      write(chunk: Buffer, _encoding, done) {
        log.push(chunk.toString());
        done();
      },
    }),
  });
  // Alice registers her own key and is served with it: the gateway holds two keys now.
  const put = await gateway.app.inject({
    method: "PUT",
    url: "/gateway/v1/me/key",
    headers: { authorization: "Bearer signed-in:alice" },
    payload: { key: ALICE_KEY },
  });
  expect(put.statusCode).toBe(200);
  await get("/v2/metrics", "signed-in:alice");
});

afterAll(() => gateway?.close());

async function get(url: string, token = TOKEN): Promise<{ status: number; text: string }> {
  const answer = await gateway.app.inject({
    method: "GET",
    url,
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: answer.statusCode, text: answer.body };
}

/** The red team's walk: the key's first 7 characters known, each next one guessed (see the module comment). */
async function walk(key: string, probe: (guess: string) => Promise<string>): Promise<number> {
  let known = key.slice(0, 7);
  for (;;) {
    let next: string | undefined;
    for (const c of "0123456789abcdefghijklmnopqrstuvwxyz_") {
      if ((await probe(`${known.slice(-7)}${c}`)).includes("[REDACTED]")) {
        next = c;
        break;
      }
    }
    if (next === undefined || known.length > key.length) break;
    known += next;
  }
  return known.length - 7;
}

describe("the redaction oracle", () => {
  it("tells nothing of either key through a parameter's name: the walk recovers 0 characters, at 0 upstream cost", async () => {
    const before = service.requests.length;
    const probe = async (guess: string) => (await get(`/v2/projects?${guess}=1`)).text;
    expect(await walk(TEAM_KEY, probe)).toBe(0);
    expect(await walk(ALICE_KEY, probe)).toBe(0);
    expect(service.requests.length).toBe(before);
  });

  it("tells nothing through the service's echo: an unknown id comes back as the caller sent it, a 404 in fixed words", async () => {
    const guess = TEAM_KEY.slice(0, 8);
    const echoed = await get(
      `/v2/metrics/fees?project_ids=aave,${guess}&start=2026-01-01&end=2026-01-01`
    );
    expect(echoed.status).toBe(200);
    expect(JSON.parse(echoed.text)).toMatchObject({
      errors: [{ code: "NOT_FOUND", field: "project_ids", value: guess }],
    });
    const notFound = await get(
      `/v2/metrics/${guess}?project_ids=aave&start=2026-01-01&end=2026-01-01`
    );
    expect(notFound.status).toBe(404);
    expect(notFound.text).not.toContain(guess);
    expect(notFound.text).not.toContain("[REDACTED]");
    // The walk over both echoes, one step: the true next character looks like any other.
    for (const path of [
      (g: string) => `/v2/metrics/fees?project_ids=aave,${g}&start=2026-01-02&end=2026-01-02`,
      (g: string) => `/v2/metrics/${g}?project_ids=aave&start=2026-01-02&end=2026-01-02`,
    ]) {
      const truth = (await get(path(TEAM_KEY.slice(0, 8)))).text;
      const other = (await get(path(`${TEAM_KEY.slice(0, 7)}${TEAM_KEY[7] === "z" ? "y" : "z"}`)))
        .text;
      expect(truth.includes("[REDACTED]")).toBe(other.includes("[REDACTED]"));
      expect(truth).not.toContain("[REDACTED]");
    }
  });

  it("still keeps the key out of what the service sends back, when the service itself echoes it", async () => {
    const echoing = fakeService(() => ({
      body: { data: [{ project_id: "x", name: `echo ${TEAM_KEY}` }] },
    }));
    const gw = await createGateway({
      serviceUrl: FAKE_SERVICE_URL,
      serviceKey: TEAM_KEY,
      verifiers: [new FixedTokens([{ name: "bob", token: TOKEN }])],
      fetch: echoing.fetch,
      logLevel: "silent",
    });
    try {
      const answer = await gw.app.inject({
        url: "/v2/projects",
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(answer.statusCode).toBe(200);
      expect(answer.body).not.toContain(TEAM_KEY);
      expect(answer.body).toContain("[REDACTED]");
    } finally {
      await gw.close();
    }
  });
});

describe("refusals in the interface's words", () => {
  it.each([
    [
      "an unknown name (caller text: named by position)",
      "/v2/projects?zz9_private=1",
      /^The query's first parameter is not one this operation takes \(it takes none\)$/,
    ],
    [
      "a parameter of another operation (a public word: named)",
      "/v2/projects/aave?metric_ids=fees",
      /^metric_ids is not one GET \/v2\/projects\/\{project_id\} takes/,
    ],
    [
      "a repeated parameter",
      "/v2/projects/aave/metrics?metric_ids=fees&metric_ids=tvl",
      /^metric_ids is given more than once/,
    ],
    ["an empty value", "/v2/projects/aave/metrics?metric_ids=", /^metric_ids is empty$/],
    [
      "an empty id in a list",
      "/v2/projects/aave/metrics?metric_ids=fees,,tvl",
      /^Each id of metric_ids/,
    ],
    [
      "a date that is no date",
      "/v2/projects/aave/metrics?start=2025-02-30",
      /^start must be a calendar date/,
    ],
    [
      "dates the wrong way round",
      "/v2/projects/aave/metrics?start=2025-02-02&end=2025-02-01",
      /^start is after end$/,
    ],
    [
      "a value outside a closed set",
      "/v2/projects/aave/metrics?aggregate_by=protocol",
      /^aggregate_by must be one of chain, product_id$/,
    ],
    ["an encoded /", "/v2/projects/..%2f..%2fadmin", /project_id \(path segment 3\)/],
    ["an encoded \\", "/v2/projects/a%5Cb", /project_id \(path segment 3\)/],
    ["an encoded ?", "/v2/projects/a%3Fb/metrics", /project_id \(path segment 3\)/],
    ["an encoded #", "/v2/projects/a%23b", /project_id \(path segment 3\)/],
    ["an encoded %", "/v2/projects/a%25b", /project_id \(path segment 3\)/],
    ["a .. inside an id", "/v2/market-sectors/a..b", /market_sector_id \(path segment 3\)/],
    [
      "a control character",
      "/v2/projects/aave/metrics?start=%1b%5b31m",
      /^start must be a date written YYYY-MM-DD$/,
    ],
  ])("refuses %s with 400 before any request", async (_what, url, message) => {
    const before = service.requests.length;
    const answer = await get(url);
    expect(answer.status).toBe(400);
    const { message: text } = JSON.parse(answer.text) as { message: string };
    expect(text).toMatch(message);
    expect(text).not.toMatch(/zz9|protocol|2025-02-30|admin/);
    expect(text).not.toContain(String.fromCharCode(27));
    expect(service.requests.length).toBe(before);
  });

  it("never forwards a dot-dot segment (inject reads it as the URL standard does: another path, not found)", async () => {
    const before = service.requests.length;
    for (const url of ["/v2/projects/%2e%2e", "/v2/projects/%2E%2E/x"])
      expect([400, 404]).toContain((await get(url)).status);
    expect(service.requests.length).toBe(before);
  });

  it("answers an unexpected failure 500 in fixed words, and logs its cause, redacted", async () => {
    // A deployment's store of service keys that breaks, quoting the team's key in its error.
    const lines: string[] = [];
    const broken = await createGateway({
      serviceUrl: FAKE_SERVICE_URL,
      serviceKey: TEAM_KEY,
      verifiers: [
        {
          name: "named-keys",
          verify: (credential) =>
            Promise.resolve(
              credential === "named:eve"
                ? { user: "eve", via: "named-keys", serviceKeyId: "eve-key" }
                : undefined
            ),
          describe: () => ({}),
          close: () => undefined,
        },
      ],
      serviceKeys: () => Promise.reject(new Error(`key store broke reading ${TEAM_KEY}`)),
      fetch: service.fetch,
      logStream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    });
    try {
      const answer = await broken.app.inject({
        url: "/v2/metrics",
        headers: { authorization: "Bearer named:eve" },
      });
      expect(answer.statusCode).toBe(500);
      expect(JSON.parse(answer.body)).toEqual({ message: UNEXPECTED });
      const failure = lines.find((l) => l.includes("request failed unexpectedly"));
      expect(failure).toContain("key store broke reading [REDACTED]");
      expect(lines.join("")).not.toContain(TEAM_KEY);
    } finally {
      await broken.close();
    }
  });

  it("answers a missing or unknown token 401 in words no redactor touched", async () => {
    for (const headers of [{}, { authorization: "Bearer tok_not_in_the_file" }]) {
      const answer = await gateway.app.inject({ url: "/v2/projects", headers });
      expect(answer.statusCode).toBe(401);
      expect(answer.headers["www-authenticate"]).toMatch(/^Bearer/);
      expect(answer.body).not.toContain("[REDACTED]");
    }
    const missing = await gateway.app.inject({ url: "/v2/projects" });
    expect(JSON.parse(missing.body)).toEqual({
      message:
        "Missing authorization header: send the token the team gateway's administrator gave you, in the Authorization header after the word Bearer",
    });
  });

  it("says ready or not and nothing else to a caller without a token; the budget in force and its use to one with", async () => {
    const bare = await gateway.app.inject({ url: "/readyz" });
    expect(JSON.parse(bare.body)).toEqual({ status: "ready" });
    const full = JSON.parse((await get("/readyz")).text) as { budget: Record<string, number> };
    expect(full.budget).toMatchObject({ limit: 60, windowMs: 60_000, inForce: 60 });
    expect(full.budget.used).toBeLessThan(60);
  });

  it("names users in /metrics to administrators only", async () => {
    const team = (await get("/metrics")).text;
    expect(team).toContain("cryptometrics_gateway_requests_total");
    expect(team).not.toMatch(/user="/);
    const admin = (await get("/metrics", ADMIN)).text;
    expect(admin).toMatch(/cryptometrics_gateway_user_requests_total\{user="bob"/);
    for (const text of [team, admin, log.join("")]) {
      expect(text).not.toContain(TEAM_KEY);
      expect(text).not.toContain(ALICE_KEY);
      expect(text).not.toContain(TOKEN);
    }
  });

  it("refuses a key shorter than the team's with 400, and a body that is not {key}", async () => {
    const put = (payload: unknown) =>
      gateway.app.inject({
        method: "PUT",
        url: "/gateway/v1/me/key",
        headers: { authorization: "Bearer signed-in:trent", "content-type": "application/json" },
        payload: JSON.stringify(payload),
      });
    const short = await put({ key: "http" });
    expect(short.statusCode).toBe(400);
    const said = (body: string): string => (JSON.parse(body) as { message: string }).message;
    expect(said(short.body)).toMatch(/too short/);
    const extra = await put({ key: ALICE_KEY, admin: true });
    expect(extra.statusCode).toBe(400);
    expect(said(extra.body)).toMatch(/\{"key": "…"\}/);
    expect((await put("just a string")).statusCode).toBe(400);
  });
});
