/**
 * The paid API key never leaves the Authorization header of requests to the configured service: not in a
 * cell's message, an error's cause chain, a log line, the diagnostics (view and export), a client event, or
 * a request to any other origin, including after a cross-origin redirect, and whatever a misbehaving
 * service echoes back. Over real HTTP on loopback, on virtual time.
 */
import { inspect } from "node:util";
import { setLogSink, type FetchLike, type LogRecord, type LogSink } from "../../src/client";
import { openLab, type Lab } from "../harness/faults/lab";
import { HEALTHY, SCENARIOS } from "../harness/faults/scenarios";
import { evaluate, type CellResult, type Formula } from "../harness/faults/workbook";
import { startServer, type Answer, type LoopbackServer } from "./loopback-server";

const SECRET = "sk_live_Q7x9Lm2Pz4Rt8Vw1";

interface Sent {
  url: string;
  authorization: string | undefined;
}

let logs: LogRecord[] = [];
let previousSink: LogSink;
beforeAll(() => {
  previousSink = setLogSink((record) => logs.push(record));
});
afterAll(() => setLogSink(previousSink));
beforeEach(() => {
  logs = [];
});

/** Every request as it left the client: URL and Authorization header. */
function recording(sent: Sent[]): (fetch: FetchLike) => FetchLike {
  return (fetch) => (url, init) => {
    sent.push({ url, authorization: init.headers.Authorization });
    return fetch(url, init);
  };
}

/** Everything a person or a support request could ever see, as text. */
function visible(lab: Lab, cells: readonly CellResult[], errors: readonly unknown[]): string {
  const diagnostics = lab.runtime.diagnostics;
  return [
    JSON.stringify(cells),
    ...errors.map((e) => inspect(e, { depth: 20 })),
    ...errors.map((e) => JSON.stringify(e)),
    JSON.stringify(logs),
    JSON.stringify(lab.events),
    JSON.stringify(diagnostics.export()),
    JSON.stringify(diagnostics.recentErrors()),
    JSON.stringify(lab.sim.requestLog),
  ].join("\n");
}

function expectKeyOnlyToward(origin: string, sent: readonly Sent[]): void {
  for (const request of sent) {
    expect(request.url).not.toContain(SECRET);
    if (new URL(request.url).origin !== origin) expect(request.authorization).toBeUndefined();
  }
}

const workbook: Formula[] = [
  { address: "K!A1", name: "VALUE", args: ["aave", "fees"] },
  {
    address: "K!A2",
    name: "METRIC",
    args: [[["aave", "curve"]], [["tvl"]], "2025-01-01", "2025-01-31"],
  },
  { address: "K!A3", name: "STATEMENT", args: ["uniswap"] },
  { address: "K!A4", name: "PROJECT", args: ["compound", "chains"] },
];

describe("the API key under every fault of the simulator", () => {
  it("stays out of cells, causes, logs, diagnostics, events and URLs", async () => {
    const sent: Sent[] = [];
    const lab = await openLab({ apiKey: SECRET, wrapFetch: recording(sent) });
    const cells: CellResult[] = [];
    const errors: unknown[] = [];
    try {
      for (const s of SCENARIOS) {
        lab.setKnobs({ ...HEALTHY, ...s.knobs });
        lab.runtime.engine.clear();
        for (const cell of await evaluate(lab, workbook)) cells.push(cell);
        errors.push(
          await lab.drive(lab.runtime.client.getProject("aave")).catch((e: unknown) => e)
        );
      }
      expect(cells.filter((c) => !c.ok).length).toBeGreaterThan(10);
      expect(errors.filter((e) => e instanceof Error).length).toBeGreaterThan(5);
      expect(sent.filter((r) => r.authorization === `Bearer ${SECRET}`).length).toBeGreaterThan(0);
      expect(visible(lab, cells, errors)).not.toContain(SECRET);
      expectKeyOnlyToward(new URL(lab.sim.url).origin, sent);
    } finally {
      await lab.close();
    }
  });
});

describe("a service that echoes the key back", () => {
  const echoes: Array<[string, (auth: string) => Answer, string]> = [
    [
      "a 400 quoting the header",
      (auth) => ({ status: 400, body: JSON.stringify({ message: `bad header: ${auth}` }) }),
      "#VALUE!",
    ],
    [
      "a 401 quoting the key",
      (auth) => ({
        status: 401,
        body: JSON.stringify({ message: `key ${auth.slice(7)} refused` }),
      }),
      "#VALUE!",
    ],
    [
      "a 500 debug page",
      (auth) => ({
        status: 500,
        headers: { "content-type": "text/plain" },
        body: `Authorization: ${auth}`,
      }),
      "#N/A",
    ],
    [
      "a captive portal greeting the key",
      (auth) => ({
        status: 200,
        headers: { "content-type": "text/html" },
        body: `<p>Hello ${auth.slice(7)}</p>`,
      }),
      "#N/A",
    ],
    [
      "truncated JSON holding the key",
      (auth) => ({ status: 200, body: `{"data":[{"echo":"${auth.slice(7)}` }),
      "#N/A",
    ],
    [
      "a 429 quoting it, with Retry-After",
      (auth) => ({
        status: 429,
        headers: { "Retry-After": "1" },
        body: JSON.stringify({ error: `slow down, ${auth}` }),
      }),
      "#N/A",
    ],
    [
      "a redirect that puts it in the URL",
      (auth) => ({ status: 302, headers: { Location: `/v2/login?token=${auth.slice(7)}` } }),
      "#N/A",
    ],
  ];

  it.each(echoes)("keeps it out of everything after %s", async (_, answer, code) => {
    const sent: Sent[] = [];
    let server: LoopbackServer | undefined;
    const lab = await openLab({ apiKey: SECRET });
    try {
      server = await startServer((req, auth) =>
        req.url?.startsWith("/v2/login")
          ? { status: 200, headers: { "content-type": "text/html" }, body: "<p>sign in</p>" }
          : answer(auth)
      );
      lab.reset({ apiKey: SECRET, baseUrl: server.url, wrapFetch: recording(sent) });
      const cells = await evaluate(lab, workbook.slice(0, 1));
      const error = await lab.drive(lab.runtime.client.listMetrics()).catch((e: unknown) => e);
      expect(cells[0]).toMatchObject({ ok: false, code });
      expect(error).toBeInstanceOf(Error);
      expect(server.seen.some((s) => s.authorization === `Bearer ${SECRET}`)).toBe(true);
      expect(visible(lab, cells, [error])).not.toContain(SECRET);
    } finally {
      await lab.close();
      await server?.close();
    }
  });
});

describe("redirects to another origin", () => {
  let lab: Lab;
  let other: LoopbackServer;
  let service: LoopbackServer;
  const sent: Sent[] = [];
  beforeAll(async () => {
    lab = await openLab({ apiKey: SECRET });
    other = await startServer(() => ({ status: 200, body: JSON.stringify({ data: [] }) }));
  });
  afterAll(async () => {
    await lab.close();
    await other.close();
  });
  afterEach(() => service.close());

  async function via(location: (path: string) => string): Promise<unknown> {
    sent.length = 0;
    service = await startServer((req) => ({
      status: 308,
      headers: { Location: location(req.url ?? "/") },
    }));
    lab.reset({ apiKey: SECRET, baseUrl: service.url, wrapFetch: recording(sent) });
    return lab.drive(lab.runtime.client.listProjects()).catch((e: unknown) => e);
  }

  it("follows a redirect to another origin without the key", async () => {
    const result = await via((path) => `${other.url}${path}`);
    expect(result).toMatchObject({ data: [] });
    expect(service.seen.map((s) => s.authorization)).toEqual([`Bearer ${SECRET}`]);
    expect(other.seen.length).toBeGreaterThan(0);
    expect(other.seen.every((s) => s.authorization === undefined)).toBe(true);
    expectKeyOnlyToward(new URL(service.url).origin, sent);
  });

  it("does not send it again when the other origin redirects back", async () => {
    const bounce = await startServer((req) => ({
      status: 302,
      headers: { Location: `${service.url}/back${req.url}` },
    }));
    try {
      await via((path) =>
        path.startsWith("/back") ? `${other.url}/v2/projects` : `${bounce.url}${path}`
      );
      expect(bounce.seen.every((s) => s.authorization === undefined)).toBe(true);
      expect(
        service.seen
          .filter((s) => s.path.startsWith("/back"))
          .every((s) => s.authorization === undefined)
      ).toBe(true);
      expectKeyOnlyToward(new URL(service.url).origin, sent);
    } finally {
      await bounce.close();
    }
  });

  it("refuses a redirect to plain http off loopback before sending anything there", async () => {
    const error = await via((path) => `http://metrics.example.com${path}`);
    expect(error).toMatchObject({
      kind: "malformed-response",
      message: expect.stringMatching(/plain http/),
    });
    expect(sent.map((s) => new URL(s.url).host)).not.toContain("metrics.example.com");
  });

  it("sends nothing with the key to a loopback port of another origin", async () => {
    await via((path) => `http://127.0.0.2:1${path}`);
    const elsewhere = sent.filter((s) => new URL(s.url).port === "1");
    expect(elsewhere.length).toBeGreaterThan(0);
    expect(elsewhere.every((s) => s.authorization === undefined)).toBe(true);
  });
});
