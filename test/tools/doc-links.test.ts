/**
 * Every link and image in the repository's Markdown that points inside it resolves: a path relative to the file
 * (or to the repository, with a leading `/`) names a file or a directory of the repository (not one a build or a
 * run makes), and a `#fragment` on a Markdown file names one of its headings. Links to the web, `mailto:` and the
 * like are not followed (no network here).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

const ROOT = join(__dirname, "..", "..");
/** What a build, a run or git makes, never a file the repository holds (.gitignore's folders). */
const MADE = new Set([
  ".git",
  "node_modules",
  "dist",
  "coverage",
  "test-results",
  "bench-results",
  "reports",
  ".stryker-tmp",
]);

function walk(dir: string, out: string[]): string[] {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    if (MADE.has(entry.name)) continue;
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

const tracked = walk("", []);
const files = new Set(tracked);
const directories = new Set(
  tracked.flatMap((f) => {
    const parts = f.split("/");
    return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join("/"));
  })
);
const markdown = tracked.filter((f) => f.endsWith(".md"));

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(join(ROOT, file), "utf8").replace(/```[\s\S]*?```/g, "");
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = anchorOf(match[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Each inline link or image target of a Markdown text, outside code. */
function linksOf(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  const link = /!?\[(?:[^\]\n]|\][^(])*?\]\(\s*(?:<([^>\n]+)>|([^)\s]+))(?:\s+"[^"]*")?\s*\)/g;
  return [...prose.matchAll(link)].map((m) => m[1] ?? m[2]);
}

const external = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target);

describe("links in the repository's Markdown", () => {
  it("reads inline links and images, and leaves code alone", () => {
    expect(
      linksOf('See [a](b.md#c), ![d](e/f.png "t") and `[g](h)`.\n```\n[i](j)\n```\n[k](<l m.md>)')
    ).toEqual(["b.md#c", "e/f.png", "l m.md"]);
    expect(anchorOf("How answers are shared: by what they contain")).toBe(
      "how-answers-are-shared-by-what-they-contain"
    );
  });

  it.each(markdown)("%s: every link inside the repository resolves", (file) => {
    const broken: string[] = [];
    for (const target of linksOf(readFileSync(join(ROOT, file), "utf8"))) {
      if (external(target)) continue;
      const [path, fragment] = target.split("#", 2) as [string, string | undefined];
      const resolved =
        path === ""
          ? file
          : normalize(
              path.startsWith("/") ? path.slice(1) : relative(ROOT, join(ROOT, dirname(file), path))
            ).replace(/\/$/, "");
      const decoded = decodeURIComponent(resolved);
      if (!files.has(decoded) && !directories.has(decoded)) {
        broken.push(`${target} (no ${decoded})`);
        continue;
      }
      if (fragment && decoded.endsWith(".md") && !anchorsOf(decoded).has(fragment))
        broken.push(`${target} (no heading #${fragment} in ${decoded})`);
    }
    expect(broken).toEqual([]);
  });
});
