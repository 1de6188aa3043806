import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseGatewayOptions } from "../../src/gateway/options";

const dir = mkdtempSync(join(tmpdir(), "cm-gateway-options-"));
const keyFile = join(dir, "key");
writeFileSync(keyFile, "cm_live_key_123\n");
chmodSync(keyFile, 0o600);
const required = [
  "--service-url",
  "https://api.example.com",
  "--service-key-file",
  keyFile,
  "--tokens-file",
  join(dir, "tokens"),
];

describe("npm run gateway's flags and environment", () => {
  it("takes every flag, each with an environment variable, the flag winning", () => {
    const fromFlags = parseGatewayOptions(
      [
        ...required,
        "--port",
        "0",
        "--host",
        "0.0.0.0",
        "--redis",
        "redis://10.0.0.5:6379",
        "--rate-limit",
        "120",
        "--processes",
        "3",
        "--metrics-readers",
        "prometheus",
      ],
      {}
    );
    expect(fromFlags).toMatchObject({
      port: 0,
      host: "0.0.0.0",
      serviceUrl: "https://api.example.com",
      serviceKey: "cm_live_key_123",
      redis: { kind: "single", url: "redis://10.0.0.5:6379" },
      rateLimit: 120,
      processes: 3,
      metricsReaders: ["prometheus"],
      windowMs: 60_000,
    });
    const fromEnv = parseGatewayOptions([], {
      GATEWAY_PORT: "9000",
      GATEWAY_HOST: "::1",
      GATEWAY_SERVICE_URL: "https://api.example.com",
      GATEWAY_SERVICE_KEY_FILE: keyFile,
      GATEWAY_TOKENS_FILE: join(dir, "tokens"),
      GATEWAY_REDIS_URL: "redis://127.0.0.1:6380",
      GATEWAY_RATE_LIMIT: "30",
    });
    expect(fromEnv).toMatchObject({
      port: 9000,
      host: "::1",
      redis: { kind: "single", url: "redis://127.0.0.1:6380" },
      rateLimit: 30,
      // Without --processes, the safe guess: each process takes a quarter while it cannot use Redis.
      processes: 4,
    });
    expect(
      parseGatewayOptions([...required, "--port", "8081"], { GATEWAY_PORT: "9000" }).port
    ).toBe(8081);
    // Without --redis: the in-process store.
    expect(parseGatewayOptions(required, {}).redis).toBeUndefined();
  });

  it("takes a Redis Cluster's nodes or Sentinels instead of one server", () => {
    expect(
      parseGatewayOptions(
        [...required, "--redis-cluster", "redis://10.0.0.5:7000, redis://10.0.0.6:7000"],
        {}
      ).redis
    ).toEqual({ kind: "cluster", urls: ["redis://10.0.0.5:7000", "redis://10.0.0.6:7000"] });
    expect(
      parseGatewayOptions(
        [...required, "--redis-sentinel", "redis://10.0.0.7:26379", "--redis-sentinel-name", "cm"],
        {}
      ).redis
    ).toEqual({ kind: "sentinel", urls: ["redis://10.0.0.7:26379"], name: "cm" });
    expect(() =>
      parseGatewayOptions(
        [...required, "--redis", "redis://a:1", "--redis-cluster", "redis://b:2"],
        {}
      )
    ).toThrow(/give one of --redis/);
  });

  it.each([
    [[], /--service-url is required/],
    [
      [
        "--service-url",
        "http://api.example.com",
        "--service-key-file",
        keyFile,
        "--tokens-file",
        "t",
      ],
      /plain http is only allowed for loopback/,
    ],
    [
      ["--service-url", "https://api.example.com", "--tokens-file", "t"],
      /--service-key-file is required/,
    ],
    [
      ["--service-url", "https://api.example.com", "--service-key-file", keyFile],
      /--tokens-file is required/,
    ],
    [[...required, "--redis", "http://cache:6379"], /redis:\/\/ or rediss:\/\//],
    [[...required, "--port", "70000"], /--port takes a whole number from 0 to 65535/],
    [[...required, "--rate-limit", "0"], /--rate-limit takes a whole number/],
    [[...required, "--processes", "0"], /--processes takes a whole number from 1/],
    [[...required, "--user-rate", "45"], /Unknown option '--user-rate'/],
    [
      [...required, "--redis-cluster", "10.0.0.5:7000"],
      /--redis-cluster takes a URL such as redis:/,
    ],
    [[...required, "--service-key", "cm_live"], /Unknown option '--service-key'/],
    [
      [
        "--service-url",
        "https://api.example.com",
        "--service-key-file",
        join(dir, "missing"),
        "--tokens-file",
        "t",
      ],
      /cannot be read: no such file/,
    ],
  ])("refuses %j with a message saying what to change", (argv, message) => {
    expect(() => parseGatewayOptions(argv, {})).toThrow(message);
  });

  it("refuses a key file that holds more than the key, and notes one that others can read", () => {
    const messy = join(dir, "messy");
    writeFileSync(messy, "SERVICE_KEY=cm live\n");
    expect(() =>
      parseGatewayOptions(
        ["--service-url", "https://a.example", "--service-key-file", messy, "--tokens-file", "t"],
        {}
      )
    ).toThrow(/must hold the key alone/);
    const open = join(dir, "open");
    writeFileSync(open, "cm_live_key_123");
    chmodSync(open, 0o644);
    const options = parseGatewayOptions(
      ["--service-url", "https://a.example", "--service-key-file", open, "--tokens-file", "t"],
      {}
    );
    expect(options.notes).toEqual([expect.stringContaining("chmod 600")]);
    expect(options.notes.join()).not.toContain("cm_live_key_123");
  });

  it("runs the minute faster only when told to (benchmarks and tests)", () => {
    const scaled = parseGatewayOptions(required, { CRYPTOMETRICS_TIME_SCALE: "20" });
    expect(scaled.windowMs).toBe(3_000);
    expect(scaled.openMs).toBe(6_000);
    expect(() => parseGatewayOptions(required, { CRYPTOMETRICS_TIME_SCALE: "0.5" })).toThrow(
      /at least 1/
    );
  });
});
