#!/usr/bin/env node
/**
 * What the test suite needs beyond `npm ci`, provided before anything else runs, so that `npm test` is the one
 * command a fresh machine needs: Debian's Chromium (the browser tests drive it through playwright-core; no
 * browser is downloaded) and redis-server (the gateway's tests start real Redis servers on free ports).
 *
 * Missing ones are installed when this process can (root, or password-less sudo, with apt-get); otherwise it
 * stops at once, naming the one command to run. `CHROMIUM_PATH` points at another Chromium;
 * `CM_SKIP_PREREQUISITES=1` skips the check (for a machine that provides them some other way).
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/** Each need: the Debian package that provides it and how to tell it is there. */
const NEEDS = [
  {
    pkg: "chromium",
    present: () =>
      process.env.CHROMIUM_PATH ? executable(process.env.CHROMIUM_PATH) : onPath("chromium"),
  },
  { pkg: "redis-server", present: () => onPath("redis-server") },
];

function executable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name) {
  return (process.env.PATH ?? "")
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => executable(join(dir, name)));
}

function run(command, args) {
  return (
    spawnSync(command, args, {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    }).status === 0
  );
}

/** How this process may run apt-get as root: directly, through password-less sudo, or not at all. */
function asRoot() {
  if (!onPath("apt-get")) return undefined;
  if (process.getuid?.() === 0) return (args) => run("apt-get", args);
  if (onPath("sudo") && spawnSync("sudo", ["-n", "true"], { stdio: "ignore" }).status === 0)
    return (args) =>
      run("sudo", ["-n", "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", ...args]);
  return undefined;
}

if (process.env.CM_SKIP_PREREQUISITES !== "1") {
  const missing = NEEDS.filter((need) => !need.present()).map((need) => need.pkg);
  if (missing.length > 0) {
    const command = `sudo apt-get install -y ${missing.join(" ")}`;
    const apt = asRoot();
    if (!apt) {
      console.error(
        `npm test needs ${missing.join(" and ")} (Debian packages). Run:\n  ${command}`
      );
      process.exit(1);
    }
    console.log(`Installing ${missing.join(" and ")} for the tests (apt-get)…`);
    const ok = apt(["update", "-qq"]) && apt(["install", "-y", "-qq", ...missing]);
    const still = NEEDS.filter((need) => !need.present()).map((need) => need.pkg);
    if (!ok || still.length > 0) {
      console.error(
        `Could not install ${still.join(" and ") || missing.join(" and ")}. Run:\n  ${command}`
      );
      process.exit(1);
    }
  }
}
