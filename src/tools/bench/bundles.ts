/**
 * Gzipped sizes of the production bundles: functions.js (the manifest's functions script), and every script
 * the shared-runtime page (taskpane.html) loads, read from the built HTML so a bundle added by a later change
 * is counted without anyone editing the bench. office.js is Microsoft's CDN script, loaded by every add-in
 * and cached by the host: it is listed as excluded, never counted.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { gzipSync } from "node:zlib";

export interface BundleFile {
  /** Path relative to the web build directory. */
  file: string;
  bytes: number;
  gzipBytes: number;
}

export interface PageScripts {
  page: string;
  scripts: BundleFile[];
  /** Scripts not counted, with why. */
  excluded: Array<{ src: string; reason: string }>;
  gzipBytes: number;
}

export interface BundleReport {
  functions: BundleFile;
  /** The functions' chunks loaded the first time a workbook calls one of them (ON_DEMAND_CHUNK), by name. */
  onDemand?: BundleFile[];
  /** The shared-runtime page first, then any other built page, for information. */
  pages: PageScripts[];
}

const SHARED_RUNTIME_PAGE = "taskpane.html";
const FUNCTIONS_BUNDLE = "functions.js";
/**
 * A chunk of the functions loaded on demand: src/functions/functions.ts names each `fn-…`, and
 * webpack.config.js adds its content hash.
 */
export const ON_DEMAND_CHUNK = /^fn-[a-z-]+\.[0-9a-f]{8}\.js$/;

/** The `src` of every <script> element, in document order (inline scripts have none). */
export function scriptSources(html: string): string[] {
  const sources: string[] = [];
  for (const tag of html.matchAll(/<script\b[^>]*>/gi)) {
    const src = /\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(tag[0]);
    if (src) sources.push(src[1] ?? src[2] ?? src[3]);
  }
  return sources;
}

/** Why a script is not counted, or undefined when it is one of ours. */
export function exclusionReason(src: string): string | undefined {
  if (/^(?:[a-z]+:)?\/\//i.test(src)) {
    return /office(?:\.debug)?\.js(?:[?#].*)?$/i.test(src)
      ? "office.js: Microsoft's CDN script, shared by every add-in and cached by the host"
      : "loaded from another origin";
  }
  if (/(?:^|\/)office(?:\.debug)?\.js(?:[?#].*)?$/i.test(src))
    return "office.js: Microsoft's script (from its CDN in production builds)";
  return undefined;
}

function measureFile(webDir: string, file: string): BundleFile {
  const content = readFileSync(join(webDir, file));
  return { file, bytes: content.length, gzipBytes: gzipSync(content).length };
}

/** A script's path inside the build, from the page that loads it. */
function resolveSrc(page: string, src: string): string {
  const path = src.replace(/[?#].*$/, "");
  if (path.startsWith("/")) return path.slice(1);
  return posix.normalize(posix.join(posix.dirname(page), path));
}

function measurePage(webDir: string, page: string): PageScripts {
  const html = readFileSync(join(webDir, page), "utf8");
  const result: PageScripts = { page, scripts: [], excluded: [], gzipBytes: 0 };
  for (const src of scriptSources(html)) {
    const reason = exclusionReason(src);
    if (reason) {
      result.excluded.push({ src, reason });
      continue;
    }
    const file = resolveSrc(page, src);
    if (!existsSync(join(webDir, file))) {
      result.excluded.push({ src, reason: "not in the build" });
      continue;
    }
    const measured = measureFile(webDir, file);
    result.scripts.push(measured);
    result.gzipBytes += measured.gzipBytes;
  }
  return result;
}

export function measureBundles(webDir: string): BundleReport {
  if (!existsSync(join(webDir, SHARED_RUNTIME_PAGE)))
    throw new Error(`${join(webDir, SHARED_RUNTIME_PAGE)} is missing: run "npm run build" first`);
  const others = readdirSync(webDir)
    .filter((f) => f.endsWith(".html") && f !== SHARED_RUNTIME_PAGE)
    .sort();
  return {
    functions: measureFile(webDir, FUNCTIONS_BUNDLE),
    onDemand: readdirSync(webDir)
      .filter((f) => ON_DEMAND_CHUNK.test(f))
      .sort()
      .map((f) => measureFile(webDir, f)),
    pages: [SHARED_RUNTIME_PAGE, ...others].map((page) => measurePage(webDir, page)),
  };
}

/** The project root: the nearest folder above `from` holding package.json (from src/ or dist/node/ alike). */
export function projectRoot(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}
