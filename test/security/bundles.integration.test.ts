/**
 * The production bundles (dist/web, which `npm test` builds before jest; test/support/web-build.ts): no
 * simulator, test or dev-tool code, no demo key, and no way to run a string as code (eval, the Function
 * constructor, string timers).
 */
import { existsSync, readdirSync, readFileSync } from "fs";
import { join } from "path";
import { DEMO_API_KEY } from "../../src/simulator";
import { ensureBuild } from "../support/web-build";

/** The production build of the current sources: dist/web after npm test's build. */
let WEB: string;
const BUNDLES = ["functions.js", "taskpane.js", "commands.js"];

beforeAll(async () => {
  WEB = await ensureBuild();
}, 300_000);

function bundles(): Array<{ name: string; code: string }> {
  if (!BUNDLES.every((b) => existsSync(join(WEB, b))))
    throw new Error(`dist/web lacks ${BUNDLES.join(", ")}: run npm run build first`);
  return readdirSync(WEB)
    .filter((f) => f.endsWith(".js"))
    .map((name) => ({ name, code: readFileSync(join(WEB, name), "utf8") }));
}

/** Bundled module paths, from the source maps (what webpack actually put in each bundle). */
function sources(bundle: string): string[] {
  const map = JSON.parse(readFileSync(join(WEB, `${bundle}.map`), "utf8")) as { sources: string[] };
  return map.sources.map((s) => s.replace(/^webpack:\/\/[^/]*\//, "").replace(/^\.\//, ""));
}

/**
 * The one Function-constructor use tolerated: the last-resort `new Function("return this")` of a
 * globalThis look-up (webpack's runtime and FAST's), reached only on engines without globalThis, which no
 * Office host is. Anything else that turns a string into code fails.
 */
function isGlobalThisFallback(code: string, at: number): boolean {
  const before = code.slice(Math.max(0, at - 250), at);
  return code.startsWith('new Function("return this")', at) && before.includes("globalThis");
}

const CODE_FROM_STRING: ReadonlyArray<[string, RegExp]> = [
  ["eval", /(^|[^.\w$])eval\s*\(/g],
  ["the Function constructor", /(^|[^.\w$])(new\s+)?Function\s*\(/g],
  ["a timer given a string", /(^|[^.\w$])set(Timeout|Interval)\s*\(\s*["'`]/g],
];

describe("production bundles", () => {
  it("are a production build", () => {
    const functions = bundles().find((b) => b.name === "functions.js");
    expect(functions?.code).toMatch(/mode:"production"/);
  });

  it("bundle no simulator, test, tooling or command-line evaluator-only code", () => {
    const forbidden =
      /^(src\/simulator\/|src\/tools\/|test\/|node_modules\/(fast-check|jest|@jest|ts-jest|office-addin-mock|playwright-core|pure-rand)\/)/;
    for (const { name } of bundles()) {
      if (!existsSync(join(WEB, `${name}.map`))) continue;
      const bad = sources(name).filter((s) => forbidden.test(s));
      expect({ bundle: name, bad }).toEqual({ bundle: name, bad: [] });
    }
  });

  it("carry neither the simulator's demo key nor its dataset", () => {
    for (const { name, code } of bundles()) {
      for (const marker of [DEMO_API_KEY, "Tick & Tock", "Simulator error", "(simulated)."])
        expect({ bundle: name, has: marker, found: code.includes(marker) }).toMatchObject({
          found: false,
        });
    }
  });

  it("never turn a string into code", () => {
    const found: string[] = [];
    let tolerated = 0;
    for (const { name, code } of bundles()) {
      for (const [what, pattern] of CODE_FROM_STRING) {
        for (const m of code.matchAll(pattern)) {
          const at = (m.index ?? 0) + m[1].length;
          if (what === "the Function constructor" && isGlobalThisFallback(code, at)) tolerated++;
          else found.push(`${name}: ${what}: …${code.slice(at, at + 60)}…`);
        }
      }
    }
    expect(found).toEqual([]);
    // Each bundle holds at most webpack's and FAST's fallbacks; more would be a new use to look at.
    expect(tolerated).toBeLessThanOrEqual(2 * bundles().length);
  });
});
