/** jest's transform (ts-transform.cjs): the built-ins a module reads are bound once, the module otherwise as compiled. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createTransformer } = require("./ts-transform.cjs") as {
  createTransformer: (options: object) => {
    process: (source: string, path: string, options: object) => { code: string };
  };
};

const transformer = createTransformer({ tsconfig: "tsconfig.test.json" });

function compile(source: string): string {
  return transformer.process(source, `${__dirname}/sample.ts`, {
    config: { cwd: process.cwd(), rootDir: process.cwd(), testMatch: [], testRegex: [] },
    cacheFS: new Map(),
    transformerConfig: {},
    supportsStaticESM: false,
    supportsDynamicImport: false,
    supportsExportNamespaceFrom: false,
    supportsTopLevelAwait: false,
    instrument: false,
  }).code;
}

describe("the test transform", () => {
  it("binds the built-ins a module reads, after its strict-mode directive, on the first line", () => {
    const source = "export const f = (h: number) => Math.imul(h, 3) + JSON.stringify([]).length;\n";
    const code = compile(source);
    // TypeScript's own output reads Object (Object.defineProperty(exports, "__esModule", ...)).
    expect(code.split("\n")[0]).toBe(
      '"use strict";var Math = globalThis.Math, JSON = globalThis.JSON, Object = globalThis.Object;'
    );
    // Still strict: the directive stays the first statement.
    expect(code.startsWith('"use strict";')).toBe(true);
    // eslint-disable-next-line @typescript-eslint/no-implied-eval, no-new-func
    const f = new Function("exports", "require", code) as (
      e: Record<string, unknown>,
      r: unknown
    ) => void;
    const exports: Record<string, unknown> = {};
    f(exports, require);
    expect((exports.f as (h: number) => number)(2)).toBe(8);
  });

  it("leaves alone what a module declares itself, and names it does not read", () => {
    const code = compile("const Map = 1;\nclass Set {}\nexport const x = [Map, new Set()];\n");
    const first = code.split("\n")[0];
    expect(first).not.toMatch(/\bMap = globalThis/);
    expect(first).not.toMatch(/\bSet = globalThis/);
    expect(first).not.toMatch(/\bMath = globalThis/);
  });

  it("never binds what tests replace: Date, timers, fetch", () => {
    const code = compile(
      "export const t = () => [Date.now(), setTimeout(() => 1, 1), fetch, Math.max(1, 2)];\n"
    );
    expect(code.split("\n")[0]).toBe(
      '"use strict";var Math = globalThis.Math, Object = globalThis.Object;'
    );
    expect(code).not.toMatch(/(Date|setTimeout|fetch) = globalThis/);
  });
});
