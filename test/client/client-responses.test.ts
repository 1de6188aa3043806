import { CryptometricsError, type FetchResponseLike } from "../../src/client";
import {
  API_KEY,
  fixture,
  fixtureText,
  json,
  redirect,
  scriptedFetch,
  testClient,
  text,
} from "./helpers";

const failure = async (promise: Promise<unknown>) =>
  (await promise.catch((e: unknown) => e)) as CryptometricsError;

describe("unusable responses", () => {
  const cases: [string, () => Response, RegExp][] = [
    [
      "an HTML page with status 200",
      () => text(fixtureText("captive-portal.html"), 200, { "content-type": "text/html" }),
      /expected JSON, got text\/html: "<!DOCTYPE html> <html><head><title>Sign in to the hotel Wi-Fi/,
    ],
    [
      "JSON sent as another content type",
      () => text('{"data":[]}', 200, { "content-type": "text/plain" }),
      /expected JSON, got text\/plain/,
    ],
    [
      "truncated JSON",
      () => text('{"data":[{"metric_id":"fe', 200, { "content-type": "application/json" }),
      /invalid JSON \(truncated\?\): "\{"data":\[\{"metric_id":"fe"/,
    ],
    ["an empty body", () => text("", 200, { "content-type": "application/json" }), /empty body/],
    ["an object without data", () => json({ result: [] }), /no "data" member/],
    ["a top-level array", () => json([1, 2]), /expected a JSON object/],
    [
      "rows of the wrong shape",
      () => json({ data: [{ metric_name: "no id" }] }),
      /data\[0\]\.metric_id: expected a non-empty string/,
    ],
  ];

  it.each(cases)(
    "calls %s malformed, saying briefly what came back, without retrying",
    async (_what, reply, message) => {
      const { fetch, requests } = scriptedFetch(reply());
      const { client } = testClient(fetch);
      const error = await failure(client.listMetrics());
      expect(error).toBeInstanceOf(CryptometricsError);
      expect(error.kind).toBe("malformed-response");
      expect(error.message).toMatch(/^listMetrics\(\): unusable response/);
      expect(error.message).toMatch(message);
      expect(requests).toHaveLength(1);
    }
  );

  it("keeps the snippet short and free of the key", async () => {
    const body = `<html>${API_KEY}${"x".repeat(500)}</html>`;
    const { client } = testClient(
      scriptedFetch(text(body, 200, { "content-type": "text/html" })).fetch
    );
    const error = await failure(client.listMetrics());
    expect(error.message).not.toContain(API_KEY);
    expect(error.message.length).toBeLessThan(200);
  });
});

describe("error statuses", () => {
  it("names the operation, the ids and what the service said", async () => {
    const { client } = testClient(
      scriptedFetch(json({ message: "Invalid authorization header" }, 401)).fetch
    );
    const error = await failure(client.getProduct("aave", "aave-v3"));
    expect(error).toMatchObject({
      kind: "unauthorized",
      status: 401,
      operation: "getProduct",
      ids: ["aave", "aave-v3"],
      request: { method: "GET", url: "/v2/projects/aave/products/aave-v3" },
    });
    expect(error.message).toBe(
      "getProduct(aave, aave-v3): not authorised (check the API key) (HTTP 401): Invalid authorization header"
    );
  });

  it("names the ids of the failing part of a split request", async () => {
    const projects = ["a", "b", "c", "d"];
    const { fetch } = scriptedFetch(json({ data: [] }), json({ message: "bad project list" }, 400));
    const { client } = testClient(fetch, { maxIdsPerRequest: 2 });
    const error = await failure(client.getMetric("fees", { projectIds: projects }));
    expect(error).toMatchObject({ kind: "invalid-input", status: 400, ids: ["fees", "c", "d"] });
    expect(error.message).toBe("getMetric(fees; c, d): invalid input (HTTP 400): bad project list");
  });

  it("redacts the key when a service error echoes it", async () => {
    const { client } = testClient(
      scriptedFetch(json({ message: `key ${API_KEY} is not valid` }, 400)).fetch
    );
    const error = await failure(client.listMetrics());
    expect(JSON.stringify({ e: error, m: error.message, s: error.stack })).not.toContain(API_KEY);
  });

  it("quotes a non-JSON error body briefly", async () => {
    const { client } = testClient(scriptedFetch(text("<h1>Bad Gateway</h1>", 502)).fetch, {
      retry: { maxAttempts: 1 },
    });
    const error = await failure(client.listMetrics());
    expect(error.message).toBe('listMetrics(): service error (HTTP 502): "<h1>Bad Gateway</h1>"');
  });

  it("keeps the network error that caused a failure as its cause", async () => {
    const cause = new TypeError("fetch failed");
    const { client } = testClient(scriptedFetch(cause).fetch, { retry: { maxAttempts: 1 } });
    const error = await failure(client.listMetrics());
    expect(error).toMatchObject({ kind: "network" });
    expect(error.cause).toBe(cause);
    expect(error.message).toBe(
      "listMetrics(): network error reaching api.example.test: fetch failed"
    );
  });
});

describe("redirects", () => {
  it("follows a 308 for a renamed project, keeping the key on the same origin", async () => {
    const { fetch, requests } = scriptedFetch(
      redirect(308, "/v2/projects/aave-v2"),
      json(fixture("project-detail.json"))
    );
    const { client } = testClient(fetch);
    const result = await client.getProject("aave-old");
    expect(result.data.projectId).toBe("aave");
    expect(requests.map((r) => [r.url, r.init.headers.Authorization])).toEqual([
      ["https://api.example.test/v2/projects/aave-old", `Bearer ${API_KEY}`],
      ["https://api.example.test/v2/projects/aave-v2", `Bearer ${API_KEY}`],
    ]);
    expect(result.meta.redirects).toEqual([
      { status: 308, from: "/v2/projects/aave-old", to: "/v2/projects/aave-v2" },
    ]);
    expect(requests[0].init.redirect).toBe("manual");
  });

  it("drops the key when a redirect leaves the origin", async () => {
    const { fetch, requests } = scriptedFetch(
      redirect(307, "https://elsewhere.example/v2/metrics"),
      json({ data: [] })
    );
    const { client } = testClient(fetch);
    await client.listMetrics();
    expect(requests[1].url).toBe("https://elsewhere.example/v2/metrics");
    expect(requests[1].init.headers.Authorization).toBeUndefined();
  });

  it("refuses a redirect to plain http off loopback", async () => {
    const { fetch, requests } = scriptedFetch(redirect(308, "http://api.example.test/v2/metrics"));
    const { client } = testClient(fetch);
    const error = await failure(client.listMetrics());
    expect(error.kind).toBe("malformed-response");
    expect(error.message).toMatch(
      /refused redirect to http:\/\/api\.example\.test: plain http is only allowed/
    );
    expect(requests).toHaveLength(1);
  });

  it("detects a redirect loop", async () => {
    const { fetch } = scriptedFetch(
      redirect(308, "/v2/projects/b"),
      redirect(308, "/v2/projects/a")
    );
    const { client } = testClient(fetch);
    const error = await failure(client.getProject("a"));
    expect(error).toMatchObject({ kind: "malformed-response", status: 308 });
    expect(error.message).toBe(
      "getProject(a): redirect loop: /v2/projects/a → /v2/projects/b → /v2/projects/a"
    );
  });

  it("stops after too many hops", async () => {
    let n = 0;
    const { fetch, requests } = scriptedFetch(async () => redirect(302, `/hop/${++n}`));
    const { client } = testClient(fetch, { maxRedirects: 5 });
    const error = await failure(client.listMetrics());
    expect(error.message).toMatch(/more than 5 redirects/);
    expect(requests).toHaveLength(6);
  });

  it("calls a redirect without Location malformed", async () => {
    const { client } = testClient(scriptedFetch(new Response(null, { status: 308 })).fetch);
    await expect(client.listMetrics()).rejects.toMatchObject({
      kind: "malformed-response",
      message: "listMetrics(): redirect (HTTP 308) without a Location",
    });
  });

  it("lets the browser follow a redirect it will not show (opaque redirect)", async () => {
    const opaque: FetchResponseLike = {
      status: 0,
      type: "opaqueredirect",
      headers: new Headers(),
      text: async () => "",
    };
    const followed = json({ data: [] });
    const { fetch, requests } = scriptedFetch(opaque, {
      status: 200,
      redirected: true,
      url: "https://api.example.test/v2/metrics-new",
      headers: followed.headers,
      text: () => followed.text(),
    });
    const { client } = testClient(fetch);
    const result = await client.listMetrics();
    expect(requests.map((r) => r.init.redirect)).toEqual(["manual", "follow"]);
    expect(result.meta.redirects).toEqual([
      { status: 0, from: "/v2/metrics", to: "/v2/metrics-new" },
    ]);
  });
});
