/**
 * Bundle sizes: the scripts a built page loads, read from its HTML, gzipped; Microsoft's office.js left out.
 * The pages are fixtures (test/fixtures/bench); the scripts they name are written into a temporary build.
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import {
  exclusionReason,
  measureBundles,
  projectRoot,
  scriptSources,
} from "../../src/tools/bench/bundles";

const fixtures = join(__dirname, "..", "fixtures", "bench");
let web: string;

const scripts: Record<string, string> = {
  "functions.js": Array.from(
    { length: 300 },
    (_, i) => `var f${i}=function(a){return a+${i}};`
  ).join("\n"),
  "commands.js": "Office.actions.associate('refresh', function(){});",
  "taskpane.js": "document.getElementById('app').textContent='ready';",
  // A function's chunk, loaded on its first call, and a chunk of the pages that is none of the functions'.
  "fn-statement.0123abcd.js": "self.chunk=function(){return 'statement'};",
  "938.4bfbb95e.js": "self.vendor=function(){return 'sign-in'};",
};

beforeAll(() => {
  web = mkdtempSync(join(tmpdir(), "bench-web-"));
  for (const page of ["taskpane.html", "preview.html"])
    copyFileSync(join(fixtures, page), join(web, page));
  for (const [file, text] of Object.entries(scripts)) writeFileSync(join(web, file), text);
});

afterAll(() => rmSync(web, { recursive: true, force: true }));

describe("the scripts a page loads", () => {
  it("are read from every <script src>, quoted or not, in document order, inline scripts left out", () => {
    const html = `<script src="a.js"></script><script>inline()</script>
      <script defer src='b.js?v=2'></script><SCRIPT type="module" src=c.js></SCRIPT>`;
    expect(scriptSources(html)).toEqual(["a.js", "b.js?v=2", "c.js"]);
  });

  it("leave out office.js, from Microsoft's CDN or served locally in development, and other origins", () => {
    expect(exclusionReason("https://appsforoffice.microsoft.com/lib/1/hosted/office.js")).toMatch(
      /Microsoft's CDN/
    );
    expect(exclusionReason("/office-js/office.js")).toMatch(/office\.js/);
    expect(exclusionReason("//cdn.example.com/lib.js")).toBe("loaded from another origin");
    expect(exclusionReason("functions.js")).toBeUndefined();
  });
});

describe("measuring a build", () => {
  it("gzips functions.js and every script of the shared-runtime page", () => {
    const report = measureBundles(web);
    const gz = (file: string) => gzipSync(Buffer.from(scripts[file])).length;
    expect(report.functions).toEqual({
      file: "functions.js",
      bytes: Buffer.byteLength(scripts["functions.js"]),
      gzipBytes: gz("functions.js"),
    });
    expect(report.functions.gzipBytes).toBeLessThan(report.functions.bytes / 3);

    const [page] = report.pages;
    expect(page.page).toBe("taskpane.html");
    expect(page.scripts.map((s) => s.file)).toEqual(["functions.js", "commands.js", "taskpane.js"]);
    expect(page.gzipBytes).toBe(gz("functions.js") + gz("commands.js") + gz("taskpane.js"));
    expect(page.excluded).toEqual([
      {
        src: "https://appsforoffice.microsoft.com/lib/1/hosted/office.js",
        reason: expect.stringMatching(/office\.js/),
      },
      { src: "./missing.js", reason: "not in the build" },
    ]);
  });

  it("measures the functions' chunks loaded on demand, and no other chunk", () => {
    const report = measureBundles(web);
    const file = "fn-statement.0123abcd.js";
    expect(report.onDemand).toEqual([
      {
        file,
        bytes: Buffer.byteLength(scripts[file]),
        gzipBytes: gzipSync(Buffer.from(scripts[file])).length,
      },
    ]);
  });

  it("lists the other built pages after the shared runtime, their root-relative scripts resolved", () => {
    const report = measureBundles(web);
    expect(report.pages.map((p) => p.page)).toEqual(["taskpane.html", "preview.html"]);
    expect(report.pages[1].scripts.map((s) => s.file)).toEqual(["functions.js"]);
    expect(report.pages[1].excluded.map((e) => e.src)).toEqual(["/office-js/office.js"]);
  });

  it("measures sizes that decompress to the files themselves", () => {
    const report = measureBundles(web);
    expect(report.functions.gzipBytes).toBeGreaterThan(0);
    const again = gzipSync(Buffer.from(scripts["functions.js"]));
    expect(gunzipSync(again).toString()).toBe(scripts["functions.js"]);
  });

  it("says to build first when the page is missing", () => {
    const empty = mkdtempSync(join(tmpdir(), "bench-empty-"));
    try {
      expect(() => measureBundles(empty)).toThrow(/npm run build/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("finds the project root from its own folder", () => {
    expect(projectRoot(__dirname)).toBe(join(__dirname, "..", ".."));
  });
});
