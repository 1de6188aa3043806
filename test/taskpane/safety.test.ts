/**
 * The pages render service text as text: no innerHTML-like sinks and no eval anywhere in the taskpane,
 * commands or preview code (the DOM is built by ui/dom.ts with text nodes). A scan, so a future change
 * that adds one fails here with the file and line.
 */
import { readdirSync, readFileSync, statSync } from "fs";
import { join, relative } from "path";

const ROOT = join(__dirname, "../..");
const SINKS =
  /\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|document\.write|\beval\s*\(|new\s+Function\s*\(|setTimeout\(\s*["'`]/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.(ts|html)$/.test(name) ? [path] : [];
  });
}

test("no HTML-parsing sinks or eval in the UI code", () => {
  const hits = ["src/taskpane", "src/commands", "src/preview"]
    .flatMap((dir) => sources(join(ROOT, dir)))
    .flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .map((line, i) => ({ line, where: `${relative(ROOT, file)}:${i + 1}` }))
        .filter(({ line }) => SINKS.test(line))
        .map(({ where, line }) => `${where}: ${line.trim()}`)
    );
  expect(hits).toEqual([]);
});

test("every page carries a Content-Security-Policy without inline scripts or eval", () => {
  // webpack.config.js is CommonJS, loaded as webpack loads it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const makeConfig = require(join(ROOT, "webpack.config.js")) as (
    env: unknown,
    argv: { mode: string }
  ) => {
    plugins: {
      userOptions?: {
        filename?: string;
        template?: string;
        templateParameters?: { csp?: string; head?: (title: string) => string };
      };
    }[];
  };
  for (const mode of ["production", "development"]) {
    const pages = makeConfig({}, { mode })
      .plugins.map((p) => p.userOptions)
      .filter((o) => o?.filename?.endsWith(".html"));
    expect(pages.map((p) => p!.filename).sort()).toEqual([
      "preview.html",
      "signin-dialog.html",
      "taskpane.html",
    ]);
    for (const page of pages) {
      const csp = page!.templateParameters!.csp!;
      expect(csp).toMatch(/script-src 'self'( https:\/\/appsforoffice\.microsoft\.com)?;/);
      expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
      expect(csp).toMatch(/object-src 'none'/);
      // The page's template opens with the shared head, which carries the page's own policy.
      const html = readFileSync(join(ROOT, page!.template!), "utf8");
      expect(html).toMatch(
        /^<!doctype html>\n<html lang="en">\n {2}<%= head\("[^"]+"(, "[^"]+")*\) %>\n/
      );
      expect(page!.templateParameters!.head!("Title")).toContain(
        `<meta http-equiv="Content-Security-Policy" content="${csp}" />`
      );
      expect(html).not.toMatch(/<script>(?!<\/script>)|<script(?![^>]*src=)[^>]*>\s*\S/);
    }
  }
});
