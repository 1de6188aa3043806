// `npm ci` and `npm install` run this (package.json's "prepare"): git takes its hooks from .githooks/ of the
// checkout (core.hooksPath), so the commit-msg hook is the repository's own and changes with it. Nothing to do,
// and no failure, where there is no git checkout (an unpacked tarball, a CI job without .git) or no git at all;
// a worktree (.git is a file there) shares its repository's setting. A hooks path the user set to another
// directory (another hook manager) is left alone, with a note.
const { spawnSync } = require("node:child_process");
const { realpathSync } = require("node:fs");
const { resolve } = require("node:path");

const HOOKS = ".githooks";
const root = resolve(__dirname, "..");

function git(...args) {
  const run = spawnSync("git", args, { cwd: root, encoding: "utf8" });
  return run.error || run.status !== 0 ? undefined : run.stdout.trim();
}

function main() {
  const top = git("rev-parse", "--show-toplevel");
  // Not a checkout of its own: this package unpacked inside another repository is not that one's business.
  if (top === undefined || realpathSync(top) !== realpathSync(root)) {
    process.stdout.write(
      "commit-msg hook: not installed (not a git checkout of this repository)\n"
    );
    return;
  }
  const current = git("config", "--get", "core.hooksPath");
  if (current !== undefined && current !== HOOKS) {
    process.stdout.write(
      `commit-msg hook: not installed, core.hooksPath is already ${current} ` +
        `(git config core.hooksPath ${HOOKS} to use this repository's hooks)\n`
    );
    return;
  }
  if (current === undefined && git("config", "core.hooksPath", HOOKS) === undefined) {
    process.stdout.write("commit-msg hook: not installed (git config failed)\n");
    return;
  }
  process.stdout.write(`commit-msg hook: git runs ${HOOKS}/commit-msg on each commit\n`);
}

main();
