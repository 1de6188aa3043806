/**
 * Whose cache directory the CLI writes into, and through what: the built CLI, run as users run it, against
 * the simulator. A directory of another user (or one others can write) is not used: the run goes on
 * without it and says so; links planted inside the user's own directory are never followed. The victims
 * are files the links point to, checked byte for byte afterwards.
 *
 * Runs as root (as CI and this machine do): root can give a directory to another uid (chown) and start the
 * CLI as another user (spawn's uid), which is how a second user is had here. The rules themselves are also
 * checked through an injected stat from an ordinary user's side (test/cli/cache-dir-rules.test.ts), so a
 * run as an ordinary user still checks them; this file then fails loudly rather than skipping.
 */
import { execFile } from "child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { DEMO_API_KEY, startSimulator, type RunningSimulator } from "../../src/simulator";
import { traversableBy } from "../support/traversable";
import { builtCli } from "../support/node-build";

/** The built CLI (test/support/node-build.ts): dist/node/cli/main.js after npm test's build. */
let CLI: string;
/** `nobody`: another user, as on any Debian system. */
const OTHER_UID = 65534;

let sim: RunningSimulator;
let base: string;
let restoreModes: (() => void) | undefined;

beforeAll(async () => {
  if (process.getuid?.() !== 0)
    throw new Error(
      "these tests give directories to another user and start the CLI as one: run them as root"
    );
  CLI = await builtCli();
  sim = await startSimulator({ port: 0, rateLimit: null });
  // The other user starts the CLI from this checkout: it must be able to reach it.
  restoreModes = traversableBy(CLI);
  // Traversable by the other user (mkdtemp makes 0700).
  base = mkdtempSync(join(tmpdir(), "cm-cache-owner-"));
  chmodSync(base, 0o755);
});

afterAll(async () => {
  restoreModes?.();
  await sim?.close();
  if (base) rmSync(base, { recursive: true, force: true });
});

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[], options: { uid?: number } = {}): Promise<Outcome> {
  return new Promise((done) =>
    execFile(
      process.execPath,
      [CLI, ...args],
      {
        cwd: base,
        timeout: 60_000,
        env: {
          PATH: process.env.PATH ?? "",
          HOME: base,
          CRYPTOMETRICS_BASE_URL: sim.url,
          CRYPTOMETRICS_API_KEY: DEMO_API_KEY,
        },
        ...(options.uid !== undefined ? { uid: options.uid, gid: options.uid } : {}),
      },
      (error, stdout, stderr) =>
        done({
          code: error ? ((error as { code?: number }).code ?? -1) : 0,
          stdout,
          stderr,
        })
    )
  );
}

const FORMULAS = ['VALUE("aave","tvl")', 'VALUE("aave","fees","2024-01-15")'];

/** A file whose content must survive: what a link in the cache directory points to. */
function victim(name: string): { path: string; content: string } {
  const path = join(base, `victim-${name}`);
  const content = `export PS1='${name}'\n`;
  writeFileSync(path, content, { mode: 0o644 });
  return { path, content };
}

function unchanged(v: { path: string; content: string }): boolean {
  return readFileSync(v.path, "utf8") === v.content;
}

let expected: string;
beforeAll(async () => {
  const healthy = await cli([
    "eval",
    "--no-cache",
    "--cache-dir",
    join(base, "healthy"),
    ...FORMULAS,
  ]);
  expect(healthy).toMatchObject({ code: 0, stderr: "" });
  expected = healthy.stdout;
});

describe("a cache directory that is not the user's", () => {
  it("another user's world-writable directory with usage.json linked to the victim's .bashrc: not used, said so, results as without", async () => {
    const dir = join(base, "others-0777");
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    const bashrc = victim("bashrc");
    symlinkSync(bashrc.path, join(dir, "usage.json"));
    chownSync(dir, OTHER_UID, OTHER_UID);
    const run = await cli(["eval", "--cache-dir", dir, ...FORMULAS]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(expected);
    expect(run.stderr).toBe(
      `cryptometrics: not using the cache directory ${dir}: it belongs to another user (uid ${OTHER_UID}). ` +
        "This run reads and saves no answers there and does not share its request budget with other runs; " +
        "pass --cache-dir with a directory of your own.\n"
    );
    expect(unchanged(bashrc)).toBe(true);
    // Nothing of ours was created there.
    expect(readdirSync(dir)).toEqual(["usage.json"]);
  });

  it("the user's own directory that others can write: not used", async () => {
    const dir = join(base, "mine-0777");
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    const run = await cli(["eval", "--cache-dir", dir, ...FORMULAS]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(expected);
    expect(run.stderr).toMatch(
      new RegExp(
        `^cryptometrics: not using the cache directory ${dir}: other users can write to it \\(mode 0777\\); chmod go-w`
      )
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it("a directory inside another user's directory: not used, and not created", async () => {
    const parent = join(base, "others-parent");
    mkdirSync(parent);
    chownSync(parent, OTHER_UID, OTHER_UID);
    const dir = join(parent, "cache");
    const run = await cli(["eval", "--cache-dir", dir, ...FORMULAS]);
    expect(run.stdout).toBe(expected);
    expect(run.stderr).toMatch(/a directory above it, belongs to another user \(uid 65534\)/);
    expect(existsSync(dir)).toBe(false);
  });

  it("run as another user, a directory of root's is theirs neither: not used", async () => {
    const dir = join(base, "roots");
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    const run = await cli(["eval", "--cache-dir", dir, ...FORMULAS], { uid: OTHER_UID });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(expected);
    expect(run.stderr).toMatch(
      /not using the cache directory .*: it belongs to another user \(uid 0\)/
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it("run as another user, a directory of their own is used", async () => {
    const dir = join(base, "nobodys");
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, OTHER_UID, OTHER_UID);
    const run = await cli(["eval", "--cache-dir", dir, ...FORMULAS], { uid: OTHER_UID });
    expect(run).toMatchObject({ code: 0, stderr: "", stdout: expected });
    expect(readdirSync(dir).sort()).toEqual(["CACHEDIR.TAG", "entries", "rate", "usage.json"]);
    expect(lstatSync(join(dir, "usage.json")).uid).toBe(OTHER_UID);
  });

  it("cache info and cache clear refuse it, exit 2, touching nothing", async () => {
    const dir = join(base, "others-clear");
    mkdirSync(dir);
    writeFileSync(join(dir, "keep.txt"), "theirs");
    chownSync(dir, OTHER_UID, OTHER_UID);
    for (const action of ["info", "clear"]) {
      const run = await cli(["cache", action, "--cache-dir", dir]);
      expect(run).toMatchObject({
        code: 2,
        stdout: "",
        stderr: `cryptometrics: cannot use the cache directory ${dir}: it belongs to another user (uid ${OTHER_UID})\n`,
      });
    }
    expect(readdirSync(dir)).toEqual(["keep.txt"]);
  });
});

describe("links inside the user's own directory", () => {
  it("every file replaced by a link to a victim: no victim is read or written, the run is as healthy", async () => {
    const dir = join(base, "planted");
    // A first run makes the files; then each is replaced by a link to a victim of its own.
    expect((await cli(["eval", "--cache-dir", dir, ...FORMULAS])).code).toBe(0);
    const files = ["usage.json", "CACHEDIR.TAG"]
      .map((f) => join(dir, f))
      .concat(readdirSync(join(dir, "entries")).map((f) => join(dir, "entries", f)))
      .concat(readdirSync(join(dir, "rate")).map((f) => join(dir, "rate", f)));
    expect(files.length).toBeGreaterThan(4);
    const victims = files.map((file, i) => {
      const v = victim(`planted-${i}`);
      unlinkSync(file);
      symlinkSync(v.path, file);
      return v;
    });
    // The next day's run (fresh answers wanted) and a cache command both go through every kind of file.
    const run = await cli(["eval", "--cache-dir", dir, ...FORMULAS]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(expected);
    await cli(["cache", "info", "--cache-dir", dir]);
    expect(victims.filter((v) => !unchanged(v)).map((v) => v.path)).toEqual([]);
    // The links were replaced by the cache's own files or left as links; none became a victim's content.
    for (const file of files) {
      if (lstatSync(file).isSymbolicLink()) continue;
      expect(readFileSync(file, "utf8")).not.toMatch(/PS1/);
    }
  });

  it("entries/ or rate/ replaced by a link to a directory elsewhere: nothing is written there", async () => {
    const dir = join(base, "linked-subdirs");
    expect((await cli(["eval", "--cache-dir", dir, ...FORMULAS])).code).toBe(0);
    const elsewhere = join(base, "elsewhere");
    mkdirSync(join(elsewhere, "entries"), { recursive: true });
    mkdirSync(join(elsewhere, "rate"), { recursive: true });
    for (const sub of ["entries", "rate"]) {
      rmSync(join(dir, sub), { recursive: true });
      symlinkSync(join(elsewhere, sub), join(dir, sub));
    }
    const run = await cli(["eval", "--cache-dir", dir, ...FORMULAS]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(expected);
    expect(run.stderr).toMatch(/entries is a link: the cache does not follow links/);
    expect(readdirSync(join(elsewhere, "entries"))).toEqual([]);
    expect(readdirSync(join(elsewhere, "rate"))).toEqual([]);
  });
});
