/**
 * The parts of sign-in on their own: the key set is fetched once and again only for a key id it does not hold
 * (Microsoft's rotation), and per-user keys are sealed so that a record copied to another user, or read with
 * another key-encryption key, gives nothing.
 */
import { randomBytes } from "node:crypto";
import { EntraVerifier } from "../../src/gateway/auth/entra";
import { FixedTokens } from "../../src/gateway/auth/tokens-file";
import {
  MemoryKeyRecords,
  parseKek,
  UserKeys,
  type KeyRecords,
} from "../../src/gateway/auth/user-keys";
import { MAX_KEY_CHANGES_PER_HOUR } from "../../src/gateway/bounds";
import { signingKey, startLocalIssuer, type LocalIssuer } from "./support/oidc-issuer";

const TENANT = "6f0c6a1e-1d7c-4bd2-9b53-0f4c2b8e7a11";

describe("the key set of the issuer", () => {
  let issuer: LocalIssuer;
  beforeAll(async () => {
    issuer = await startLocalIssuer();
  });
  afterAll(() => issuer.close());

  it("is fetched once for many tokens, and again when a token names a key published since", async () => {
    const refused: string[] = [];
    const verifier = new EntraVerifier({
      tenants: [TENANT],
      audience: ["api://cm-gateway-test"],
      jwksUrl: issuer.jwksUrl,
      issuerTemplate: issuer.issuerTemplate,
      jwksCooldownMs: 0,
      onRefused: (r) => refused.push(r),
    });
    for (let i = 0; i < 5; i++)
      expect(await verifier.verify(await issuer.mint({ tenant: TENANT }))).toMatchObject({
        via: "entra",
      });
    expect(issuer.jwksFetches()).toBe(1);

    const rotated = await signingKey();
    issuer.publish(rotated);
    const caller = await verifier.verify(
      await issuer.mint({ tenant: TENANT, key: rotated, roles: ["Gateway.Admin"] })
    );
    expect(refused).toEqual([]);
    expect(caller).toMatchObject({ admin: true });
    expect(issuer.jwksFetches()).toBe(2);
    expect(refused).toEqual([]);
  });

  it("names the person by their sign-in name, as a token named after it is named: one person, one turn", async () => {
    const verifier = new EntraVerifier({
      tenants: [TENANT],
      audience: ["api://cm-gateway-test"],
      jwksUrl: issuer.jwksUrl,
      issuerTemplate: issuer.issuerTemplate,
    });
    const signedIn = await verifier.verify(
      await issuer.mint({ tenant: TENANT, upn: "Alice@Firm.test" })
    );
    const token = await new FixedTokens([{ name: "alice@firm.test", token: "tok_alice_1" }]).verify(
      "tok_alice_1"
    );
    expect(signedIn?.person).toBe("alice@firm.test");
    expect(token?.person).toBe("alice@firm.test");
    // Their identities stay apart (usage, keys): only the turns are one person's.
    expect(signedIn?.user).not.toBe(token?.user);
  });

  it("refuses a configuration that would let anyone in", () => {
    expect(() => new EntraVerifier({ tenants: [], audience: ["api://x"] })).toThrow(/tenant/);
    expect(() => new EntraVerifier({ tenants: ["common"], audience: ["api://x"] })).toThrow(/GUID/);
    expect(() => new EntraVerifier({ tenants: [TENANT], audience: [] })).toThrow(/audience/);
  });

  it("leaves a personal access token to the tokens file, unread", async () => {
    const verifier = new EntraVerifier({
      tenants: [TENANT],
      audience: ["api://cm-gateway-test"],
      jwksUrl: issuer.jwksUrl,
      issuerTemplate: issuer.issuerTemplate,
    });
    const before = issuer.jwksFetches();
    expect(await verifier.verify("tok_plain_personal_token")).toBeUndefined();
    expect(issuer.jwksFetches()).toBe(before);
  });
});

describe("per-user keys at rest", () => {
  const kek = randomBytes(32);
  const keyOf = async (keys: UserKeys, user: string): Promise<string | undefined> => {
    const state = await keys.current(user);
    return state.state === "key" ? state.key : undefined;
  };

  it("round-trips a key for its user only, with nothing of it in plaintext", async () => {
    const records = new MemoryKeyRecords();
    const keys = new UserKeys(records, kek, { freshMs: 0 });
    await keys.register("t.alice", "cm_alice_key_1234567");
    expect(await keyOf(keys, "t.alice")).toBe("cm_alice_key_1234567");
    expect(await keys.info("t.alice")).toMatchObject({ registered: true, last4: "4567" });
    const { record } = await records.get("t.alice");
    // The whole record is sealed: not the key, not its last four characters, not when it was registered.
    expect(record).not.toContain("cm_alice_key");
    expect(record).not.toContain("4567");
    expect(Object.keys(JSON.parse(record as string) as object).sort()).toEqual([
      "data",
      "iv",
      "tag",
      "v",
    ]);
    // The record copied onto Bob: the user is authenticated data, so it does not open.
    await records.set("t.bob", record as string);
    expect(await keyOf(keys, "t.bob")).toBeUndefined();
    // Another key-encryption key opens nothing.
    expect(await keyOf(new UserKeys(records, randomBytes(32)), "t.alice")).toBeUndefined();
    // One byte of the sealed data changed: nothing.
    const sealed = JSON.parse(record as string) as { data: string };
    const bytes = Buffer.from(sealed.data, "base64");
    bytes[0] ^= 1;
    await records.set("t.alice", JSON.stringify({ ...sealed, data: bytes.toString("base64") }));
    expect(await keyOf(keys, "t.alice")).toBeUndefined();
  });

  it("names a new lane when the key is replaced, so every process moves to it", async () => {
    const keys = new UserKeys(new MemoryKeyRecords(), kek, { freshMs: 0 });
    await keys.register("t.alice", "cm_first_key_000001");
    const first = await keys.current("t.alice");
    await keys.register("t.alice", "cm_second_key_00002");
    const second = await keys.current("t.alice");
    expect(first).toMatchObject({ state: "key", id: expect.stringMatching(/^user:/) });
    expect(second.state === "key" && first.state === "key" && second.id !== first.id).toBe(true);
    expect(JSON.stringify(second.state === "key" ? second.id : "")).not.toContain("cm_second");
    await keys.remove("t.alice");
    expect(await keys.current("t.alice")).toEqual({ state: "none" });
  });

  it("tells a user whose key the store lost, and never serves them with another key unsaid", async () => {
    let records = new MemoryKeyRecords();
    const store: KeyRecords = {
      get: (user) => records.get(user),
      set: (user, record, ttl) => records.set(user, record, ttl),
      countChange: (user, now) => records.countChange(user, now),
    };
    const keys = new UserKeys(store, kek, { freshMs: 0 });
    await keys.register("t.alice", "cm_alice_key_1234567");
    expect((await keys.current("t.alice")).state).toBe("key");
    records = new MemoryKeyRecords(); // the store restarted empty
    expect(await keys.current("t.alice")).toEqual({ state: "lost" });
    expect(await keys.info("t.alice")).toMatchObject({ registered: false, lost: true });
    // Removing it (or registering again) is the user's answer: the team's key serves them from then on.
    await keys.remove("t.alice");
    expect(await keys.current("t.alice")).toEqual({ state: "none" });
  });

  it("serves a signed-in user with the key it last read while the store cannot be reached", async () => {
    const records = new MemoryKeyRecords();
    let down = false;
    const flaky: KeyRecords = {
      get: (user) => (down ? Promise.reject(new Error("ECONNREFUSED")) : records.get(user)),
      set: (user, record, ttl) =>
        down ? Promise.reject(new Error("ECONNREFUSED")) : records.set(user, record, ttl),
      countChange: (user, now) =>
        down ? Promise.reject(new Error("ECONNREFUSED")) : records.countChange(user, now),
    };
    const keys = new UserKeys(flaky, kek, { freshMs: 0 });
    await keys.register("t.alice", "cm_alice_key_1234567");
    await keys.current("t.alice");
    down = true;
    expect(await keyOf(keys, "t.alice")).toBe("cm_alice_key_1234567");
    // Nobody this process has not seen is guessed at: "unknown", which the gateway answers 503.
    expect(await keys.current("t.bob")).toEqual({ state: "unknown" });
    await expect(keys.register("t.alice", "cm_alice_key_7654321")).rejects.toMatchObject({
      status: 503,
    });
  });

  it("bounds how often a user may change their key", async () => {
    const keys = new UserKeys(new MemoryKeyRecords(), kek);
    for (let i = 0; i < MAX_KEY_CHANGES_PER_HOUR; i++)
      await keys.register("t.alice", `cm_alice_key_${String(i).padStart(8, "0")}`);
    await expect(keys.register("t.alice", "cm_alice_key_too_many")).rejects.toMatchObject({
      status: 429,
      retryAfterSeconds: expect.any(Number),
    });
  });

  it("takes a 256-bit key-encryption key as base64 or hex, and says how to make one otherwise", () => {
    expect(parseKek(randomBytes(32).toString("base64"), "X")).toHaveLength(32);
    expect(parseKek(randomBytes(32).toString("hex"), "X")).toHaveLength(32);
    expect(() => parseKek("short", "GATEWAY_USER_KEY_KEK")).toThrow(/openssl rand -base64 32/);
  });

  it("refuses what cannot be a service key, in the user's words: a four-character key included", async () => {
    const keys = new UserKeys(new MemoryKeyRecords(), kek, { minKeyLength: 24 });
    await expect(keys.register("t.a", "")).rejects.toThrow(/empty/);
    await expect(keys.register("t.a", "two words")).rejects.toThrow(/spaces/);
    await expect(keys.register("t.a", "http")).rejects.toThrow(/too short.*at least 24/);
    await expect(keys.register("t.a", "cm_exactly_23_character")).rejects.toThrow(/too short/);
  });
});
