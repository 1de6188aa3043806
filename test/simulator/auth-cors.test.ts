import { DEMO_API_KEY, SIMULATED_HEADER, type RunningSimulator } from "../../src/simulator";
import { get, start } from "./helpers";

let sim: RunningSimulator;
beforeAll(async () => {
  // Error bodies are a reading (§7 shows none): these tests read the JSON ones; the default sends none.
  sim = await start({
    apiKeys: [DEMO_API_KEY, "cm_test_second_key"],
    readings: { errorBodies: "json" },
  });
});
afterAll(() => sim.close());
beforeEach(() => sim.clearLog());

const raw = (path: string, init: RequestInit = {}) => fetch(`${sim.url}${path}`, init);

describe("bearer authentication", () => {
  it("answers 401 with no body by default (the interface shows none)", async () => {
    const bare = await start();
    try {
      const response = await fetch(`${bare.url}/v2/projects`);
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(await response.text()).toBe("");
    } finally {
      await bare.close();
    }
  });

  it("answers 401 with a JSON message without a key", async () => {
    const response = await raw("/v2/projects");
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await response.json()).toEqual({ message: "Missing authorization header" });
  });

  it("answers 401 for an unknown key or another scheme, never echoing the key", async () => {
    for (const authorization of [
      "Bearer cm_wrong_key_123",
      "Basic Y206cGFzcw==",
      "Bearer",
      "cm_demo_4f1c2a9e",
    ]) {
      const response = await raw("/v2/projects", { headers: { Authorization: authorization } });
      expect(response.status).toBe(401);
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({ message: "Invalid authorization header" });
      expect(text).not.toContain("cm_wrong_key_123");
    }
  });

  it("accepts every configured key, case-insensitive scheme", async () => {
    expect(
      (await get(sim, "/v2/metrics", { headers: { Authorization: "Bearer cm_test_second_key" } }))
        .status
    ).toBe(200);
    expect(
      (await get(sim, "/v2/metrics", { headers: { Authorization: `bearer ${DEMO_API_KEY}` } }))
        .status
    ).toBe(200);
  });

  it("protects v1 too", async () => {
    expect((await raw("/v1/projects")).status).toBe(401);
  });
});

describe("CORS", () => {
  const preflightRequest = {
    method: "OPTIONS",
    headers: {
      Origin: "https://localhost:3000",
      "Access-Control-Request-Method": "GET",
      "Access-Control-Request-Headers": "authorization",
      "Access-Control-Request-Private-Network": "true",
    },
  };

  it("answers no preflight by default: the interface promises GET only", async () => {
    const response = await raw("/v2/projects/aave/metrics?metric_ids=fees", preflightRequest);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET");
    expect(response.headers.get("access-control-allow-methods")).toBeNull();
    expect(response.headers.get("access-control-allow-headers")).toBeNull();
    expect(sim.requestLog).toEqual([
      expect.objectContaining({ method: "OPTIONS", status: 405, authorized: false }),
    ]);
  });

  it("answers a preflight without credentials under preflight=answer, allowing GET with Authorization", async () => {
    const direct = await start({ readings: { preflight: "answer" } });
    try {
      const response = await fetch(
        `${direct.url}/v2/projects/aave/metrics?metric_ids=fees`,
        preflightRequest
      );
      expect(response.status).toBe(204);
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      expect(response.headers.get("access-control-allow-methods")).toContain("GET");
      expect(response.headers.get("access-control-allow-headers")?.toLowerCase()).toContain(
        "authorization"
      );
      expect(response.headers.get("access-control-allow-private-network")).toBe("true");
      expect(direct.requestLog).toEqual([
        expect.objectContaining({ method: "OPTIONS", status: 204, authorized: false }),
      ]);
      expect(
        (await fetch(`${direct.url}/v2/projects`, { method: "POST" })).headers.get("allow")
      ).toBe("GET, OPTIONS");
      // A reading switched back between two requests takes effect at once.
      direct.setKnobs({ readings: { preflight: "refuse" } });
      expect(
        (await fetch(`${direct.url}/v2/projects/aave/metrics?metric_ids=fees`, preflightRequest))
          .status
      ).toBe(405);
    } finally {
      await direct.close();
    }
  });

  it("lets a browser read the simulated header and Retry-After on real responses", async () => {
    const answer = await get(sim, "/v2/metrics", { headers: { Origin: "https://localhost:3000" } });
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    const exposed = answer.headers.get("access-control-expose-headers")?.toLowerCase() ?? "";
    expect(exposed).toContain(SIMULATED_HEADER);
    expect(exposed).toContain("retry-after");
  });
});

describe("GET only", () => {
  it.each(["POST", "PUT", "DELETE", "PATCH"])(
    "answers %s with 405 and a JSON message",
    async (method) => {
      const answer = await get(sim, "/v2/projects", { method });
      expect(answer.status).toBe(405);
      expect(answer.headers.get("allow")).toBe("GET");
      expect(answer.body).toEqual({ message: expect.stringContaining("read-only") });
    }
  );
});

describe("the simulated header", () => {
  it("is on every response: success, errors and preflights", async () => {
    const responses = [
      await raw("/v2/projects", { headers: { Authorization: `Bearer ${DEMO_API_KEY}` } }),
      await raw("/v2/projects"),
      await raw("/v2/projects/aave/metrics?start=bad", {
        headers: { Authorization: `Bearer ${DEMO_API_KEY}` },
      }),
      await raw("/v2/unknown", { headers: { Authorization: `Bearer ${DEMO_API_KEY}` } }),
      await raw("/v2/projects", { method: "POST" }),
      await raw("/v2/projects", { method: "OPTIONS" }),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 401, 400, 404, 405, 405]);
    for (const response of responses) expect(response.headers.get(SIMULATED_HEADER)).toBe("true");
  });
});

describe("request log", () => {
  it("records every request in order with its query, status and whether it was authorised", async () => {
    await get(sim, "/v2/projects/aave/metrics?metric_ids=fees,tvl&start=2025-06-01");
    await raw("/v2/metrics");
    expect(sim.requestLog).toEqual([
      {
        method: "GET",
        path: "/v2/projects/aave/metrics",
        query: { metric_ids: "fees,tvl", start: "2025-06-01" },
        status: 200,
        at: expect.any(Number),
        authorized: true,
      },
      {
        method: "GET",
        path: "/v2/metrics",
        query: {},
        status: 401,
        at: expect.any(Number),
        authorized: false,
      },
    ]);
  });

  it("never holds an API key, even one sent by mistake in the query", async () => {
    await get(sim, `/v2/projects?api_key=${DEMO_API_KEY}`);
    await raw(`/v2/projects?token=cm_leaked_guess`, {
      headers: { Authorization: "Bearer cm_leaked_guess" },
    });
    const log = JSON.stringify(sim.requestLog);
    expect(log).not.toContain(DEMO_API_KEY);
    expect(log).not.toContain("cm_leaked_guess");
    expect(sim.requestLog[0].query).toEqual({ api_key: "[redacted]" });
  });

  it("empties on clearLog", async () => {
    await get(sim, "/v2/metrics");
    sim.clearLog();
    expect(sim.requestLog).toEqual([]);
  });
});
