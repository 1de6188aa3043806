/**
 * The cache directory's rules (src/cli/cache/ownership.ts) from an ordinary user's side (uid 1000),
 * through an injected file system: what the integration test checks as root with real directories and a
 * second user, checked here wherever the suite runs.
 */
import { checkCacheDir, checkInnerDir, type OwnershipDeps } from "../../src/cli/cache/ownership";

interface Node {
  uid: number;
  mode: number;
  dir?: boolean;
  /** A link: where it points. */
  link?: string;
}

const ME = 1000;

/** A small tree of directories and links, as lstat/stat/realpath/mkdir see it. */
function fileSystem(nodes: Record<string, Node>): OwnershipDeps & { made: string[] } {
  const tree: Record<string, Node> = { "/": { uid: 0, mode: 0o755, dir: true }, ...nodes };
  const made: string[] = [];
  const missing = (path: string) => Object.assign(new Error(`ENOENT: ${path}`), { code: "ENOENT" });
  const stats = (n: Node) => ({
    uid: n.uid,
    mode: n.mode,
    isDirectory: () => n.dir === true,
    isSymbolicLink: () => n.link !== undefined,
  });
  const follow = (path: string): string => {
    const n = tree[path];
    if (!n) throw missing(path);
    return n.link ? follow(n.link) : path;
  };
  return {
    uid: ME,
    made,
    lstat: (path) => {
      const n = tree[path];
      if (!n) throw missing(path);
      return stats(n);
    },
    stat: (path) => stats(tree[follow(path)]),
    realpath: (path) => follow(path),
    mkdir: (path) => {
      made.push(path);
      tree[path] = { uid: ME, mode: 0o700, dir: true };
    },
  };
}

const HOME = {
  "/home": { uid: 0, mode: 0o755, dir: true },
  "/home/me": { uid: ME, mode: 0o755, dir: true },
  "/home/me/.cache": { uid: ME, mode: 0o700, dir: true },
};

describe("the cache directory", () => {
  it("is created private under the user's own directories, and used", () => {
    const fs = fileSystem(HOME);
    expect(checkCacheDir("/home/me/.cache/cryptometrics", fs)).toEqual({
      ok: true,
      dir: "/home/me/.cache/cryptometrics",
    });
    expect(fs.made).toEqual(["/home/me/.cache/cryptometrics"]);
  });

  it.each([
    [
      "another user's directory",
      {
        "/tmp": { uid: 0, mode: 0o1777, dir: true },
        "/tmp/x": { uid: 1001, mode: 0o777, dir: true },
      },
      "/tmp/x",
      "it belongs to another user (uid 1001)",
    ],
    [
      "root's directory",
      { "/var": { uid: 0, mode: 0o755, dir: true }, "/var/cm": { uid: 0, mode: 0o755, dir: true } },
      "/var/cm",
      "it belongs to another user (uid 0)",
    ],
    [
      "the user's own directory that the group can write",
      { ...HOME, "/home/me/.cache/cm": { uid: ME, mode: 0o770, dir: true } },
      "/home/me/.cache/cm",
      "other users can write to it (mode 0770); chmod go-w /home/me/.cache/cm if it is yours to share",
    ],
    [
      "a directory under another user's",
      {
        "/home": { uid: 0, mode: 0o755, dir: true },
        "/home/you": { uid: 1001, mode: 0o755, dir: true },
      },
      "/home/you/cm",
      "/home/you, a directory above it, belongs to another user (uid 1001)",
    ],
    [
      "a directory under one every user can write, without the sticky bit",
      { "/shared": { uid: 0, mode: 0o777, dir: true } },
      "/shared/cm",
      "/shared, a directory above it, can be written by every user (mode 0777, no sticky bit)",
    ],
    [
      "a link, owned by another user, to the user's own directory",
      {
        ...HOME,
        "/tmp": { uid: 0, mode: 0o1777, dir: true },
        "/home/me/real": { uid: ME, mode: 0o700, dir: true },
        "/tmp/cm": { uid: 1001, mode: 0o777, link: "/home/me/real" },
      },
      "/tmp/cm",
      "it is a link owned by another user (uid 1001)",
    ],
    [
      "the user's own link to a directory under another user's",
      {
        ...HOME,
        "/home/you": { uid: 1001, mode: 0o755, dir: true },
        "/home/you/cm": { uid: ME, mode: 0o700, dir: true },
        "/home/me/.cache/cm": { uid: ME, mode: 0o777, link: "/home/you/cm" },
      },
      "/home/me/.cache/cm",
      "/home/you, a directory above it, belongs to another user (uid 1001)",
    ],
    [
      "a file",
      { ...HOME, "/home/me/.cache/cm": { uid: ME, mode: 0o600 } },
      "/home/me/.cache/cm",
      "it is not a directory",
    ],
  ])("refuses %s, in words", (_, nodes, dir, reason) => {
    const fs = fileSystem(nodes);
    expect(checkCacheDir(dir, fs)).toEqual({ ok: false, reason });
    expect(fs.made).toEqual([]);
  });

  it("accepts a directory under /tmp (sticky), and the user's own link to their own directory", () => {
    const tmp = fileSystem({ "/tmp": { uid: 0, mode: 0o1777, dir: true } });
    expect(checkCacheDir("/tmp/cm-mine", tmp)).toMatchObject({ ok: true });
    const linked = fileSystem({
      ...HOME,
      "/data": { uid: 0, mode: 0o755, dir: true },
      "/data/me": { uid: ME, mode: 0o700, dir: true },
      "/home/me/.cache/cryptometrics": { uid: ME, mode: 0o777, link: "/data/me" },
    });
    expect(checkCacheDir("/home/me/.cache/cryptometrics", linked)).toMatchObject({ ok: true });
  });

  it("checks only for links where there are no POSIX users (Windows)", () => {
    const fs = { ...fileSystem({ "/c": { uid: 0, mode: 0o777, dir: true } }), uid: undefined };
    expect(checkCacheDir("/c", fs)).toEqual({ ok: true, dir: "/c" });
  });
});

describe("entries/ and rate/ inside it", () => {
  it("must be real directories of the user, writable by no one else", () => {
    const fs = fileSystem({
      ...HOME,
      "/home/me/.cache/cm": { uid: ME, mode: 0o700, dir: true },
      "/home/me/.cache/cm/entries": { uid: ME, mode: 0o700, link: "/elsewhere" },
      "/elsewhere": { uid: ME, mode: 0o700, dir: true },
      "/home/me/.cache/cm/rate": { uid: 1001, mode: 0o700, dir: true },
      "/home/me/.cache/cm/open": { uid: ME, mode: 0o777, dir: true },
    });
    expect(() => checkInnerDir("/home/me/.cache/cm/entries", fs)).toThrow(
      "/home/me/.cache/cm/entries is a link: the cache does not follow links"
    );
    expect(() => checkInnerDir("/home/me/.cache/cm/rate", fs)).toThrow(
      "/home/me/.cache/cm/rate belongs to another user (uid 1001)"
    );
    expect(() => checkInnerDir("/home/me/.cache/cm/open", fs)).toThrow(/mode 0777/);
    checkInnerDir("/home/me/.cache/cm/new", fs);
    expect(fs.made).toEqual(["/home/me/.cache/cm/new"]);
  });
});
