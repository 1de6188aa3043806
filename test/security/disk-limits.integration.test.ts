/**
 * A cache directory on a full disk, or a CLI under a file-size limit (`ulimit -f`), is a cache that cannot
 * save: the results are printed all the same (exit 0), stderr says the answers could not be saved, and no
 * half-written entry is ever left in place to be read back. Before, a full disk left a truncated entry in
 * entries/, and a file-size limit killed the CLI (SIGXFSZ, exit 153) with nothing printed.
 *
 * The built CLI against the simulator. The full disk is a real 64 KB tmpfs, which needs root (as CI and this
 * machine have): without it this file fails, saying so, rather than skipping.
 */
import { execFile, execFileSync } from "child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "fs";
import { tmpdir } from "os";
import { dirname, join, resolve } from "path";
import { DEMO_API_KEY, startSimulator, type RunningSimulator } from "../../src/simulator";
import { cliNodeFlags } from "../harness/hostile/cli-command";
import { writeNoFollow } from "../../src/cli/cache/safe-fs";
import { builtCli } from "../support/node-build";

const ROOT = resolve(__dirname, "../..");
/** The built CLI (test/support/node-build.ts): dist/node/cli/main.js after npm test's build. */
let CLI: string;
const FORMULAS = [
  "PROJECTS()",
  'VALUE("aave","tvl")',
  'METRIC("aave","fees","2020-01-01","2024-12-31")',
];

let sim: RunningSimulator;
let base: string;
beforeAll(async () => {
  CLI = await builtCli();
  sim = await startSimulator({ port: 0, rateLimit: null });
  base = mkdtempSync(join(tmpdir(), "cm-disk-"));
});
afterAll(async () => {
  await sim?.close();
  rmSync(base, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

/** The CLI through sh, so that `limit` (a ulimit -f line) applies to it alone; output through pipes. */
function cli(cacheDir: string, limit = ""): Promise<Run> {
  const command = [
    limit,
    `exec "${process.execPath}" ${cliNodeFlags(ROOT).join(" ")} "${CLI}" eval --format json --cache-dir "${cacheDir}" ${FORMULAS.map((f) => `'${f}'`).join(" ")}`,
  ]
    .filter(Boolean)
    .join("; ");
  return new Promise((done) =>
    execFile(
      "sh",
      ["-c", command],
      {
        maxBuffer: 64 * 1024 * 1024,
        env: {
          PATH: process.env.PATH ?? "",
          CRYPTOMETRICS_BASE_URL: sim.url,
          CRYPTOMETRICS_API_KEY: DEMO_API_KEY,
        },
      },
      (error, stdout, stderr) => {
        const e = error as { code?: number; signal?: string } | null;
        done({ code: e ? (e.code ?? null) : 0, signal: e?.signal ?? null, stdout, stderr });
      }
    )
  );
}

/** Every file in entries/: a whole entry (JSON that parses) or nothing; no temporary file left. */
function entriesAreWhole(cacheDir: string): { names: string[]; broken: string[] } {
  const dir = join(cacheDir, "entries");
  const names = readdirSync(dir);
  const broken = names.filter((name) => {
    if (!/^[0-9a-f]{64}\.json$/.test(name)) return true;
    try {
      JSON.parse(readFileSync(join(dir, name), "utf8"));
      return false;
    } catch {
      return true;
    }
  });
  return { names, broken };
}

let healthy: unknown;
beforeAll(async () => {
  const run = await cli(join(base, "healthy"));
  expect(run).toMatchObject({ code: 0, stderr: "" });
  healthy = JSON.parse(run.stdout);
});

it("under ulimit -f 16: every result printed, exit 0, the answers not saved said once, no half entry", async () => {
  const dir = join(base, "limited");
  const run = await cli(dir, "ulimit -f 16");
  expect({ code: run.code, signal: run.signal }).toEqual({ code: 0, signal: null });
  expect(JSON.parse(run.stdout)).toEqual(healthy);
  expect(run.stderr).toMatch(
    /^cryptometrics: warn: \[saved-cache\] Answers could not be saved on this computer \(EFBIG/
  );
  const { names, broken } = entriesAreWhole(dir);
  expect(broken).toEqual([]);
  // The small answers fit under the limit and were saved; the large ones were not, not even in part.
  expect(names.length).toBeGreaterThan(0);
  for (const name of names)
    expect(statSync(join(dir, "entries", name)).size).toBeLessThanOrEqual(16 * 1024);
});

it("on a full disk (a 64 KB tmpfs): every result printed, exit 0, no truncated entry kept", async () => {
  if (process.getuid?.() !== 0)
    throw new Error("this test mounts a small tmpfs to fill it: run it as root");
  const mount = join(base, "tiny");
  mkdirSync(mount);
  execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mount]);
  try {
    const dir = join(mount, "cache");
    const run = await cli(dir);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(healthy);
    expect(run.stderr).toMatch(/Answers could not be saved on this computer \(ENOSPC/);
    expect(entriesAreWhole(dir).broken).toEqual([]);
    // And the next run reads back only whole entries (none of them is dropped as damaged).
    const again = await cli(dir);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual(healthy);
    expect(again.stderr).not.toMatch(/Dropped/);
  } finally {
    execFileSync("umount", [mount]);
  }
});

it("a write the file system refuses halfway leaves neither the entry nor its temporary file", async () => {
  // The same limit on a Node process of its own, writing 100 KB through the cache's writer.
  const dir = mkdtempSync(join(base, "writer-"));
  const target = join(dir, "entry.json");
  const script = `
    process.on("SIGXFSZ", () => {});
    const { writeNoFollow } = require(${JSON.stringify(join(dirname(CLI), "cache/safe-fs.js"))});
    writeNoFollow(${JSON.stringify(target)}, "x".repeat(100000)).then(
      () => console.log("written"),
      (e) => console.log(e.code)
    );`;
  const out = execFileSync(
    "sh",
    ["-c", `ulimit -f 16; exec "${process.execPath}" -e '${script.replace(/'/g, "'\\''")}'`],
    {
      encoding: "utf8",
    }
  );
  expect(out.trim()).toBe("EFBIG");
  expect(readdirSync(dir)).toEqual([]);
  // Without a limit the same write is whole.
  await writeNoFollow(target, "y".repeat(100_000));
  expect(readFileSync(target, "utf8")).toHaveLength(100_000);
});
