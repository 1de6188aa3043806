/**
 * The README's set-up (`npm ci`) prints no surprise warning: `npm ci --dry-run --offline` (the lockfile's
 * install, without writing node_modules or asking the network) warns about nothing but what is listed
 * here, each with why it is harmless. A new dependency that warns fails this test until it is either
 * replaced by a version that does not, or listed with its reason (and the README says so).
 */
import { execFile } from "child_process";
import { resolve } from "path";
import { promisify } from "util";

const ROOT = resolve(__dirname, "../..");

/** Packages whose `engines` leave out the Node these machines run (20), and why that is harmless. */
const KNOWN_ENGINE_MISMATCHES: Readonly<Record<string, string>> = {
  "@fluentui/web-components":
    "Fluent 2's browser components: prebuilt ES modules (dist/esm) that webpack bundles for the pages. " +
    "It has no install script and none of its code runs in Node; its engines field (Node 22 or 24) is the " +
    "Node of Fluent UI's own build tooling. Every 3.x release declares it (3.0.2, 3.1.2, 3.1.3); only 3.0 " +
    "betas declare nothing. The build and the whole test suite here run on Node 20.",
};

test("npm ci warns about nothing but the listed engine mismatches", async () => {
  const { stdout, stderr } = await promisify(execFile)(
    "npm",
    // A dry run still runs the package's own prepare script, which points this checkout's git (shared by
    // its worktrees) at .githooks/: a test changes nothing outside its own files.
    ["ci", "--dry-run", "--offline", "--no-audit", "--no-fund", "--ignore-scripts"],
    { cwd: ROOT, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }
  );
  const warnings = `${stdout}\n${stderr}`.split("\n").filter((line) => /^npm warn/i.test(line));
  const engines = [...`${stderr}`.matchAll(/package: '((?:@[^/]+\/)?[^@']+)@[^']+'/g)].map(
    (m) => m[1]
  );
  const other = warnings.filter((line) => !/^npm warn EBADENGINE/i.test(line));
  expect({ other, unlisted: engines.filter((name) => !(name in KNOWN_ENGINE_MISMATCHES)) }).toEqual(
    { other: [], unlisted: [] }
  );
}, 150_000);
