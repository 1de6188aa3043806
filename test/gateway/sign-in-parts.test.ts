/**
 * The parts of sign-in on their own: the key set is fetched once and again only for a key id it does not hold
 * (Microsoft's rotation), and per-user keys are sealed so that a record copied to another user, or read with
 * another key-encryption key, gives nothing.
 */
import { randomBytes } from "node:crypto";
import { EntraVerifier } from "../../src/gateway/auth/entra";
import { MemoryKeyRecords, parseKek, UserKeys } from "../../src/gateway/auth/user-keys";
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

  it("round-trips a key for its user only", async () => {
    const records = new MemoryKeyRecords();
    const keys = new UserKeys(records, kek);
    await keys.register("t.alice", "cm_alice_key_1234");
    expect(await keys.reveal("t.alice")).toBe("cm_alice_key_1234");
    expect(await keys.info("t.alice")).toMatchObject({ registered: true, last4: "1234" });
    // The record copied onto Bob: the user is authenticated data, so it does not open.
    await records.set("t.bob", (await records.get("t.alice")) as string);
    expect(await keys.reveal("t.bob")).toBeUndefined();
    // Another key-encryption key opens nothing.
    expect(await new UserKeys(records, randomBytes(32)).reveal("t.alice")).toBeUndefined();
    expect(await records.get("t.alice")).not.toContain("cm_alice_key");
  });

  it("names a new lane when the key is replaced, so every process moves to it", async () => {
    const keys = new UserKeys(new MemoryKeyRecords(), kek);
    await keys.register("t.alice", "cm_first_key");
    const first = await keys.idFor("t.alice");
    await keys.register("t.alice", "cm_second_key");
    const second = await keys.idFor("t.alice");
    expect(first).toMatch(/^user:/);
    expect(second).not.toBe(first);
    expect(second).not.toContain("cm_second_key");
    await keys.remove("t.alice");
    expect(await keys.idFor("t.alice")).toBeUndefined();
  });

  it("takes a 256-bit key-encryption key as base64 or hex, and says how to make one otherwise", () => {
    expect(parseKek(randomBytes(32).toString("base64"), "X")).toHaveLength(32);
    expect(parseKek(randomBytes(32).toString("hex"), "X")).toHaveLength(32);
    expect(() => parseKek("short", "GATEWAY_USER_KEY_KEK")).toThrow(/openssl rand -base64 32/);
  });

  it("refuses what cannot be a service key, in the user's words", async () => {
    const keys = new UserKeys(new MemoryKeyRecords(), kek);
    await expect(keys.register("t.a", "")).rejects.toThrow(/empty/);
    await expect(keys.register("t.a", "two words")).rejects.toThrow(/spaces/);
  });
});
