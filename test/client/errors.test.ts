import { CryptometricsError, kindForStatus, redact, snippet } from "../../src/client";
import { sanitizeCause } from "../../src/client/redact";
import { API_KEY } from "./helpers";

describe("error kinds", () => {
  it("maps HTTP statuses to stable kinds", () => {
    expect(kindForStatus(200)).toBeUndefined();
    expect(kindForStatus(400)).toBe("invalid-input");
    expect(kindForStatus(401)).toBe("unauthorized");
    expect(kindForStatus(402)).toBe("subscription");
    expect(kindForStatus(403)).toBe("subscription");
    expect(kindForStatus(404)).toBe("not-found");
    expect(kindForStatus(429)).toBe("rate-limited");
    expect(kindForStatus(500)).toBe("server");
    expect(kindForStatus(503)).toBe("server");
    expect(kindForStatus(308)).toBe("malformed-response");
  });

  it("says which kinds are worth retrying", () => {
    const make = (kind: CryptometricsError["kind"]) =>
      new CryptometricsError(kind, "x", { operation: "op" });
    expect(
      ["rate-limited", "server", "network", "timeout"].map((k) => make(k as never).retryable)
    ).toEqual([true, true, true, true]);
    expect(make("invalid-input").retryable).toBe(false);
    expect(make("cancelled").retryable).toBe(false);
  });
});

describe("redaction", () => {
  it("removes the key and any bearer token from text", () => {
    const text = `failed with key ${API_KEY} and header Authorization: Bearer other-token-123`;
    const out = redact(text, [API_KEY]);
    expect(out).not.toContain(API_KEY);
    expect(out).not.toContain("other-token-123");
    expect(out).toContain("[REDACTED]");
  });

  it("makes a short single-line snippet of an untrusted body", () => {
    const body = `<html>\n\t<body>${API_KEY}${"x".repeat(200)}</body>`;
    const s = snippet(body, [API_KEY]);
    expect(s).not.toContain(API_KEY);
    expect(s).not.toMatch(/[\n\t]/);
    expect(s.length).toBeLessThanOrEqual(81);
  });

  it("keeps a harmless cause as it is and replaces a leaking one by a redacted copy", () => {
    const harmless = new TypeError("fetch failed");
    expect(sanitizeCause(harmless, [API_KEY])).toBe(harmless);
    const leaking = new TypeError(`bad header Bearer ${API_KEY}`, { cause: new Error(API_KEY) });
    const clean = sanitizeCause(leaking, [API_KEY]) as Error;
    expect(clean).not.toBe(leaking);
    expect(clean.name).toBe("TypeError");
    expect(
      JSON.stringify([clean.message, clean.stack, String((clean.cause as Error).message)])
    ).not.toContain(API_KEY);
  });

  it("never lets the key into an error's message, cause, request or JSON form", () => {
    const error = new CryptometricsError("server", `boom ${API_KEY}`, {
      operation: "getProject",
      ids: ["aave"],
      status: 500,
      request: { method: "GET", url: `/v2/projects/aave?echo=${API_KEY}` },
      cause: new Error(`upstream said ${API_KEY}`),
      secrets: [API_KEY],
    });
    const everything = JSON.stringify({
      json: error,
      message: error.message,
      stack: error.stack,
      cause: (error.cause as Error).message,
      causeStack: (error.cause as Error).stack,
    });
    expect(everything).not.toContain(API_KEY);
    expect(error.toJSON()).toMatchObject({
      kind: "server",
      operation: "getProject",
      ids: ["aave"],
      status: 500,
    });
  });

  it("keeps kind, operation and cause when facts are added", () => {
    const cause = new Error("root");
    const error = new CryptometricsError("network", "getProject(aave): reset", {
      operation: "getProject",
      cause,
    });
    const later = error.with({
      attempts: 3,
      message: `${error.message} (gave up after 3 attempts)`,
    });
    expect(later).toBeInstanceOf(CryptometricsError);
    expect(later).toMatchObject({ kind: "network", operation: "getProject", attempts: 3 });
    expect(later.cause).toBe(cause);
  });
});
