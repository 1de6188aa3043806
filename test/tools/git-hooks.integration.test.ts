/**
 * The commit-msg hook as a contributor meets it: `npm ci` runs package.json's "prepare" (.githooks/install.cjs),
 * which points git at the repository's .githooks/; then `git commit` refuses a message that breaks the habits.
 * In a clone, in a worktree (where .git is a file), and where there is no checkout or no git at all (a tarball,
 * a CI job), where it does nothing and does not fail.
 */
import { execFileSync, spawnSync } from "child_process";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join, resolve } from "path";

const ROOT = resolve(__dirname, "../..");
const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "Test",
  GIT_AUTHOR_EMAIL: "test@example.com",
  GIT_COMMITTER_NAME: "Test",
  GIT_COMMITTER_EMAIL: "test@example.com",
  // The user's own git configuration (a global hooks path, a template) stays out of these repositories.
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
};

function git(cwd: string, ...args: string[]) {
  return spawnSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8" });
}

/** A repository holding the hooks and package.json, committed, as a clone of this one looks. */
function checkout(): string {
  const dir = mkdtempSync(join(tmpdir(), "hooks-"));
  cpSync(join(ROOT, ".githooks"), join(dir, ".githooks"), { recursive: true });
  cpSync(join(ROOT, "package.json"), join(dir, "package.json"));
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", ".");
  expect(
    git(dir, "commit", "-q", "--no-verify", "-m", "Start", "-m", "The first commit.").status
  ).toBe(0);
  return dir;
}

function prepare(dir: string, env: NodeJS.ProcessEnv = GIT_ENV) {
  return spawnSync(process.execPath, [join(dir, ".githooks/install.cjs")], {
    cwd: dir,
    env,
    encoding: "utf8",
  });
}

function commit(dir: string, message: string) {
  writeFileSync(join(dir, "change.txt"), `${message}\n`);
  git(dir, "add", "change.txt");
  return git(dir, "commit", "-q", "-m", message);
}

describe("the commit-msg hook", () => {
  it("is what npm ci installs: package.json's prepare runs .githooks/install.cjs", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.prepare).toBe("node .githooks/install.cjs");
  });

  it("refuses a long subject, a subject joining changes, a missing body; takes a good message", () => {
    const dir = checkout();
    const installed = prepare(dir);
    expect(installed.status).toBe(0);
    expect(installed.stdout).toMatch(/git runs \.githooks\/commit-msg/);
    expect(git(dir, "config", "core.hooksPath").stdout.trim()).toBe(".githooks");

    const long = commit(dir, `Tests: ${"x".repeat(70)}\n\nBody.`);
    expect(long.status).not.toBe(0);
    expect(long.stderr).toMatch(/The subject is 77 characters; keep it to 72/);
    const joined = commit(dir, "Build once; run two workers\n\nBody.");
    expect(joined.status).not.toBe(0);
    expect(joined.stderr).toMatch(/joins changes with "; "/);
    const bare = commit(dir, "Tests: two workers");
    expect(bare.status).not.toBe(0);
    expect(bare.stderr).toMatch(/Add a body/);
    expect(git(dir, "rev-list", "--count", "HEAD").stdout.trim()).toBe("1");

    const good = commit(dir, "Tests: two workers\n\nThe machine has two cores.");
    expect(good.stderr).toBe("");
    expect(good.status).toBe(0);
    expect(git(dir, "log", "-1", "--format=%s").stdout.trim()).toBe("Tests: two workers");
    // Running prepare again (npm install after npm ci) changes nothing.
    expect(prepare(dir).status).toBe(0);
    expect(git(dir, "config", "core.hooksPath").stdout.trim()).toBe(".githooks");
  });

  it("works from a worktree, where .git is a file", () => {
    const dir = checkout();
    const tree = join(mkdtempSync(join(tmpdir(), "worktree-")), "wt");
    expect(git(dir, "worktree", "add", "-q", "-b", "side", tree).status).toBe(0);
    expect(readFileSync(join(tree, ".git"), "utf8")).toMatch(/^gitdir: /);
    const installed = prepare(tree);
    expect(installed.status).toBe(0);
    expect(installed.stdout).toMatch(/git runs \.githooks\/commit-msg/);
    expect(commit(tree, "Tests: two workers").stderr).toMatch(/Add a body/);
  });

  it("does nothing and does not fail without a checkout, or without git", () => {
    const bare = mkdtempSync(join(tmpdir(), "tarball-"));
    cpSync(join(ROOT, ".githooks"), join(bare, ".githooks"), { recursive: true });
    const unpacked = prepare(bare);
    expect(unpacked.status).toBe(0);
    expect(unpacked.stdout).toMatch(/not installed \(not a git checkout/);

    const noGit = prepare(checkout(), { ...GIT_ENV, PATH: "/nonexistent" });
    expect(noGit.status).toBe(0);
    expect(noGit.stdout).toMatch(/not installed/);
  });

  it("leaves a hooks path the user chose alone", () => {
    const dir = checkout();
    git(dir, "config", "core.hooksPath", ".husky");
    const installed = prepare(dir);
    expect(installed.status).toBe(0);
    expect(installed.stdout).toMatch(/already \.husky/);
    expect(git(dir, "config", "core.hooksPath").stdout.trim()).toBe(".husky");
  });
});

// The repository itself keeps the hook executable (git stores the mode).
it("keeps .githooks/commit-msg executable in the repository", () => {
  const mode = execFileSync("git", ["ls-files", "-s", ".githooks/commit-msg"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  expect(mode).toMatch(/^100755 /);
});
