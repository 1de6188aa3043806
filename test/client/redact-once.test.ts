/**
 * Redaction runs once per answer, where foreign text enters what the client lets out (src/client/redact.ts):
 * each body, each fetch failure is looked through for the key one time, and the client's own text (the URL it
 * built, the caller's ids, its labels) never reaches the redactor that knows the key.
 */
import * as redactModule from "../../src/client/redact";
import { API_KEY, json, scriptedFetch, testClient } from "./helpers";

/** Entries into the redactor, by what they were handed; only those that know the key count as passes. */
function spyOnRedactor() {
  const names = [
    "redact",
    "redactRuns",
    "hasSecretRun",
    "containsSecret",
    "snippet",
    "sanitizeCause",
  ] as const;
  const spies = names.map((name) => jest.spyOn(redactModule, name));
  return {
    /** What each entry that knew the key was handed, as text. */
    passes(): string[] {
      return spies.flatMap((spy) =>
        spy.mock.calls
          .filter((args) => Array.isArray(args[1]) && (args[1] as unknown[]).includes(API_KEY))
          .map((args) => (typeof args[0] === "string" ? args[0] : String(args[0])))
      );
    },
    restore: () => spies.forEach((spy) => spy.mockRestore()),
  };
}

/** An id no answer below repeats: where it shows in a pass, the caller's text went through the redactor. */
const CALLER_ID = "caller-text-7f3a";

describe("redaction on one request's path", () => {
  let redactor: ReturnType<typeof spyOnRedactor>;
  beforeEach(() => (redactor = spyOnRedactor()));
  afterEach(() => redactor.restore());

  const settle = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error
    );

  it("looks through a data answer once, and never through the caller's text", async () => {
    const { fetch } = scriptedFetch(
      json({ data: { name: "Aave", project_id: CALLER_ID.toUpperCase() } })
    );
    const { client, events } = testClient(fetch);
    await client.getProject(CALLER_ID);
    expect(redactor.passes()).toHaveLength(1);
    expect(redactor.passes().join("\n")).not.toContain(CALLER_ID);
    // The events still name the request.
    expect(events.filter((e) => e.type === "request")).toHaveLength(1);
  });

  it("looks through an error answer once, its message quoted from the redacted text", async () => {
    const { fetch } = scriptedFetch(json({ message: `no such project (key ${API_KEY})` }, 404));
    const { client } = testClient(fetch);
    const error = (await settle(client.getProject(CALLER_ID))) as Error;
    expect(redactor.passes()).toHaveLength(1);
    expect(redactor.passes().join("\n")).not.toContain(CALLER_ID);
    expect(error.message).toContain(CALLER_ID);
    expect(error.message).toContain("[REDACTED]");
    expect(JSON.stringify({ m: error.message, s: error.stack, e: error })).not.toContain(API_KEY);
  });

  it("looks through a network failure once, the cause that quotes the key redacted", async () => {
    const { fetch } = scriptedFetch(new TypeError(`fetch failed (Authorization: ${API_KEY})`));
    const { client } = testClient(fetch, { retry: { maxAttempts: 1 } });
    const error = (await settle(client.getProject(CALLER_ID))) as Error;
    expect(redactor.passes()).toHaveLength(1);
    expect(redactor.passes().join("\n")).not.toContain(CALLER_ID);
    expect(error.message).not.toContain(API_KEY);
    expect(String((error.cause as Error).message)).not.toContain(API_KEY);
  });

  it("looks through each answer of a retried request once: one pass per answer", async () => {
    const { fetch } = scriptedFetch(
      json({ message: "busy" }, 503),
      json({ data: { name: "Aave", project_id: "aave" } })
    );
    const { client } = testClient(fetch, { retry: { maxAttempts: 2 } });
    await client.getProject(CALLER_ID);
    expect(redactor.passes()).toHaveLength(2);
    expect(redactor.passes().join("\n")).not.toContain(CALLER_ID);
  });
});
