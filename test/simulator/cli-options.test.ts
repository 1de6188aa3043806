import path from "node:path";
import {
  banner,
  SimulatorOptionError,
  parseCliOptions,
  USAGE,
} from "../../src/simulator/cli-options";
import { DEMO_API_KEY, simulatorOptionsFromEnv, type RunningSimulator } from "../../src/simulator";

const FIXTURES = path.join(__dirname, "..", "fixtures", "simulator");

describe("npm run simulator options", () => {
  it("defaults to port 3001 on loopback, the demo key, 60 requests per minute and the default readings", () => {
    const { simulator, help, quiet } = parseCliOptions([], {});
    expect(help).toBe(false);
    expect(quiet).toBe(false);
    expect(simulator).toMatchObject({
      port: 3001,
      host: "127.0.0.1",
      apiKeys: [DEMO_API_KEY],
      rateLimit: { limit: 60, windowMs: 60_000 },
    });
    // Retry-After follows the retryAfter reading (none by default); no reading is changed.
    expect(simulator.rateLimit).not.toHaveProperty("retryAfter");
    expect(simulator.retryAfter429).toBeUndefined();
    expect(simulator.readings).toBeUndefined();
    expect(simulator.fault).toBeUndefined();
    expect(simulator.now).toBeUndefined();
  });

  it("answers browsers' preflights only under the reading preflight=answer (flag or environment)", () => {
    expect(parseCliOptions([], {}).simulator.readings?.preflight).toBeUndefined();
    expect(
      parseCliOptions(["--reading", "preflight=answer"], {}).simulator.readings?.preflight
    ).toBe("answer");
    expect(
      parseCliOptions([], { SIMULATOR_READINGS: "preflight=answer" }).simulator.readings?.preflight
    ).toBe("answer");
    expect(() => parseCliOptions(["--reading", "preflight=yes"], {})).toThrow(/refuse, answer/);
  });

  it("reads every knob from flags", () => {
    const { simulator } = parseCliOptions(
      [
        "--port",
        "0",
        "--host",
        "::1",
        "--key",
        "a1",
        "--key",
        "b2",
        "--latency",
        "20-80",
        "--rate-limit",
        "5",
        "--rate-window-ms",
        "1000",
        "--no-retry-after",
        "--fraction-429",
        "0.1",
        "--fraction-5xx",
        "0.2",
        "--hang-path",
        "statement$",
        "--fault",
        "html-200",
        "--fault-fraction",
        "0.5",
        "--renamed",
        "matic-network=polygon",
        "--seed",
        "9",
        "--today",
        "2024-02-29",
        "--report-unavailable",
        "--duplicate-rows",
        "0.05",
        "--restatements",
        "refill",
        "--reading",
        "timestamps=utc",
        "--reading",
        "retryAfter=seconds",
      ],
      {}
    );
    expect(simulator).toMatchObject({
      port: 0,
      host: "::1",
      apiKeys: ["a1", "b2"],
      latencyMs: [20, 80],
      rateLimit: { limit: 5, windowMs: 1000, retryAfter: false },
      retryAfter429: false,
      fraction429: 0.1,
      fraction5xx: 0.2,
      hang: /statement$/,
      fault: "html-200",
      faultFraction: 0.5,
      renamed: { "matic-network": "polygon" },
      seed: 9,
      today: "2024-02-29",
      reportUnavailable: true,
      duplicateRows: 0.05,
      restatements: "refill",
      readings: { timestamps: "utc", retryAfter: "seconds" },
    });
    // --today fixes the dataset's day only: the clock (and with it the rate limit's window) goes on.
    expect(simulator.now).toBeUndefined();
  });

  it("falls back to the environment, and flags win over it", () => {
    const env = {
      SIMULATOR_PORT: "4000",
      SIMULATOR_KEYS: "k1, k2",
      SIMULATOR_RATE_LIMIT: "0",
      SIMULATOR_HANG: "true",
      SIMULATOR_LATENCY: "15",
      SIMULATOR_RENAMED: "a=b,c=d",
    };
    const { simulator } = parseCliOptions([], env);
    expect(simulator).toMatchObject({
      port: 4000,
      apiKeys: ["k1", "k2"],
      rateLimit: null,
      hang: true,
      latencyMs: 15,
      renamed: { a: "b", c: "d" },
    });
    expect(parseCliOptions(["--port", "5000"], env).simulator.port).toBe(5000);
  });

  it("reads readings from SIMULATOR_READINGS, lists them in --help and names the changed ones at start", () => {
    const { simulator } = parseCliOptions([], {
      SIMULATOR_READINGS: "availability=object, errorBodies=json",
    });
    expect(simulator.readings).toEqual({ availability: "object", errorBodies: "json" });
    expect(USAGE).toMatch(/availability: string \| list \| listed \| object/);
    const sim = { url: "http://127.0.0.1:3001" } as RunningSimulator;
    expect(banner(sim, simulator)).toMatch(/Readings: availability=object, errorBodies=json/);
    expect(banner(sim, {})).toMatch(/least helpful everywhere/);
  });

  it("gives tools that start the simulator in-process the same environment knobs", () => {
    expect(
      simulatorOptionsFromEnv({ SIMULATOR_FAULT: "empty-body", SIMULATOR_FRACTION_429: "0.2" })
    ).toMatchObject({
      fault: "empty-body",
      fraction429: 0.2,
      port: 3001,
    });
    expect(() => simulatorOptionsFromEnv({ SIMULATOR_FAULT: "fire" })).toThrow(
      SimulatorOptionError
    );
  });

  it.each([
    [["--port", "abc"], /--port must be a number/],
    [["--fraction-5xx", "2"], /between 0 and 1/],
    [["--fault", "meltdown"], /--fault must be one of/],
    [["--latency", "80-20"], /MIN <= MAX/],
    [["--renamed", "nope"], /OLD=NEW/],
    [["--today", "2024-02-30"], /YYYY-MM-DD/],
    [["--hang-path", "("], /regular expression/],
    [["--https-cert", "x.crt"], /go together/],
    [["--bogus"], /Unknown option/],
    [["--reading", "moods=happy"], /Unknown reading "moods"/],
    [["--reading", "timestamps=epoch"], /timestamps takes offset, utc, date/],
  ])("refuses %j", (argv, message) => {
    expect(() => parseCliOptions(argv, {})).toThrow(SimulatorOptionError);
    expect(() => parseCliOptions(argv, {})).toThrow(message);
  });

  it("reads the HTTPS certificate and key files", () => {
    const { simulator } = parseCliOptions(
      [
        "--https-cert",
        path.join(FIXTURES, "test-only-localhost.crt"),
        "--https-key",
        path.join(FIXTURES, "test-only-localhost.key"),
      ],
      {}
    );
    expect(String(simulator.https?.cert)).toMatch(/BEGIN CERTIFICATE/);
    expect(() =>
      parseCliOptions(["--https-cert", "/nope.crt", "--https-key", "/nope.key"], {})
    ).toThrow(/Cannot read/);
  });

  it("prints the URL and the demo key, but never custom keys", () => {
    const sim = { url: "http://127.0.0.1:3001" } as RunningSimulator;
    const text = banner(sim, { apiKeys: [DEMO_API_KEY, "cm_private_key"] });
    expect(text).toContain("http://127.0.0.1:3001");
    expect(text).toContain(DEMO_API_KEY);
    expect(text).toContain("simulated");
    expect(text).not.toContain("cm_private_key");
    expect(banner(sim, { apiKeys: ["cm_private_key"] })).not.toContain(DEMO_API_KEY);
  });
});
