/**
 * What the CLI prints the day after a run filled its cache, when the service no longer gives fresh
 * answers: a revoked key or a lapsed plan (401, 402, 403) is an error in every result, never yesterday's
 * figures; an outage (503) shows yesterday's figures, and stderr names each result as stale, with when it
 * was fetched. The built CLI in its own process, its clock a day ahead on the second run; a proxy on
 * loopback in front of the simulator answers as the service would.
 */
import { execFile } from "child_process";
import { mkdtempSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { DEMO_API_KEY, startSimulator, type RunningSimulator } from "../../src/simulator";
import { startHostileService, type HostileService } from "../harness/hostile/server";
import { PRELOADS } from "../harness/hostile/cli-command";
import { builtCli } from "../support/node-build";

/** The built CLI (test/support/node-build.ts): dist/node/cli/main.js after npm test's build. */
let CLI: string;
const CLOCK_AHEAD = PRELOADS.clockAhead;
const FORMULAS = ['VALUE("aave","tvl")', 'VALUE("aave","fees","2024-01-15")'];

let sim: RunningSimulator;
let service: HostileService;
beforeAll(async () => {
  CLI = await builtCli();
  sim = await startSimulator({ port: 0, rateLimit: null });
  service = await startHostileService({ upstream: sim.url });
});
afterAll(async () => {
  await service?.close();
  await sim?.close();
});

function cli(
  cacheDir: string,
  nextDay: boolean
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) =>
    execFile(
      process.execPath,
      [CLI, "eval", "--cache-dir", cacheDir, "--format", "json", ...FORMULAS],
      {
        timeout: 120_000,
        env: {
          PATH: process.env.PATH ?? "",
          CRYPTOMETRICS_BASE_URL: service.url,
          CRYPTOMETRICS_API_KEY: DEMO_API_KEY,
          ...(nextDay
            ? { NODE_OPTIONS: `--require ${CLOCK_AHEAD}`, CLOCK_OFFSET_MS: "86400000" }
            : {}),
        },
      },
      (error, stdout, stderr) =>
        done({ code: error ? ((error as { code?: number }).code ?? -1) : 0, stdout, stderr })
    )
  );
}

async function yesterday(): Promise<{ dir: string; values: unknown[]; at: number }> {
  service.attack = { kind: "none" };
  const dir = join(mkdtempSync(join(tmpdir(), "cm-stale-")), "cache");
  const at = Date.now();
  const first = await cli(dir, false);
  expect(first).toMatchObject({ code: 0, stderr: "" });
  return { dir, values: JSON.parse(first.stdout) as unknown[], at };
}

it.each([
  [401, /^not authorised \(check the API key\) \(HTTP 401\)/],
  [402, /^not covered by the subscription \(HTTP 402\).*your plan does not cover this call/],
  [403, /^not covered by the subscription \(HTTP 403\).*your plan does not cover this call/],
])(
  "the day after, a %i: every result says the key or plan was refused; no figure, nothing stale",
  async (status, said) => {
    const { dir } = await yesterday();
    service.attack = { kind: "key-echo", status };
    const next = await cli(dir, true);
    expect(next.code).toBe(1);
    expect(next.stderr).toBe("");
    const results = JSON.parse(next.stdout) as Array<
      Array<Array<{ error: string; message: string }>>
    >;
    expect(results).toHaveLength(2);
    for (const [[cell]] of results) {
      expect(cell.error).toBe("#VALUE!");
      expect(cell.message).toMatch(said);
    }
  },
  120_000
);

it("the day after, an outage: yesterday's figures, each named stale on stderr with when it was fetched", async () => {
  const { dir, values, at } = await yesterday();
  service.attack = { kind: "retry-after", value: "1", status: 503 };
  const next = await cli(dir, true);
  expect(next.code).toBe(0);
  expect(JSON.parse(next.stdout)).toEqual(values);
  const minute = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const lines = next.stderr.trimEnd().split("\n");
  expect(lines[0]).toBe(
    "cryptometrics: 2 results show figures kept from before, not current ones:"
  );
  expect(lines.slice(1)).toHaveLength(2);
  lines.slice(1).forEach((line, i) => {
    expect(line).toMatch(
      new RegExp(
        `^cryptometrics: stale: formula ${i + 1}: fetched (${minute(at)}|${minute(at + 60_000)}); `
      )
    );
    expect(line).toMatch(/HTTP 503|not answered within 10 s/);
  });
}, 120_000);
