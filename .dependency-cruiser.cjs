/**
 * The architecture, enforced (`npm run deps`, part of `npm test`). Read it bottom up:
 *
 *   client  →  cache  →  engine  →  runtime  →  functions  →  pages (taskpane, commands, preview) and the CLI
 *   (cache: the cache policy the engine and the team gateway share)
 *   sheet: the spreadsheet model (formulas, cells, Excel dates), shared by the CLI and the pages
 *   excel: every Excel.run; ui: the pages' DOM helpers; simulator and tools: development only
 *
 * The core (client, engine, sheet) runs in plain Node, so it never reaches up into Office, DOM or UI code;
 * the pages never pull in the command line; nothing ships the simulator or the development tools.
 * Office *globals* are ESLint's job (eslint.config.mjs): an import graph cannot see them.
 */

/** The production bundles' entry points (webpack.config.js). */
const BUNDLE_ENTRIES =
  "^src/(functions/entry|commands/commands|taskpane/taskpane|preview/preview)[.]ts$";

module.exports = {
  forbidden: [
    {
      name: "no-file-cycles",
      comment:
        "A cycle, even a type-only one, is a knot for the reader: move the shared part down.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-folder-cycles",
      comment: "Folders are layers: two folders importing each other are one layer in two places.",
      severity: "error",
      scope: "folder",
      from: {},
      to: { circular: true },
    },
    {
      name: "core-stays-plain",
      comment:
        "client, engine and sheet run in plain Node and in any page: no Office, DOM or UI code, " +
        "nothing from the layers that compose them (runtime, functions), no CLI, no simulator.",
      severity: "error",
      from: { path: "^src/(client|cache|engine|sheet)/" },
      to: {
        path: [
          "^src/(excel|ui|taskpane|commands|preview|functions|runtime|cli|simulator)/",
          "(^|/)node_modules/(@microsoft/office-js|@fluentui|office-)",
        ],
      },
    },
    {
      name: "client-through-its-index",
      comment:
        "Everything outside src/client reaches the client through src/client/index.ts, its one door: what it " +
        "offers is said in one place, and its insides can move without touching the layers above.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/client/" },
      to: { path: "^src/client/", pathNot: "^src/client/index\\.ts$" },
    },
    {
      name: "engine-through-its-index",
      comment:
        "Everything outside src/engine reaches the engine through src/engine/index.ts, as the client through " +
        "its own: the figure rules, caches and ledger behind it can move without touching the layers above. " +
        "Named exceptions, dynamic imports only: the runtime loads ledger/ledger.ts (LazyLedger) and the saved " +
        "cache's implementation (persistence.ts, saved-entries.ts) on demand, chunks of their own, which a " +
        "static import of the door would pull into functions.js.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/engine/" },
      to: {
        path: "^src/engine/",
        pathNot: "^src/engine/index\\.ts$",
        dependencyTypesNot: ["dynamic-import"],
      },
    },
    {
      name: "cache-policy-below-engine-and-gateway",
      comment:
        "src/cache (lifetimes, bounds, the daily update, day coverage) is shared by the engine's caches and the " +
        "team gateway's: it sits below both and takes only the client.",
      severity: "error",
      from: { path: "^src/cache/" },
      to: { path: "^src/", pathNot: "^src/(cache|client)/" },
    },
    {
      name: "client-is-the-base",
      comment: "The service client depends on nothing else of ours: everything above may use it.",
      severity: "error",
      from: { path: "^src/client/" },
      to: { path: "^src/", pathNot: "^src/client/" },
    },
    {
      name: "pages-not-cli",
      comment:
        "The command line's flags, sources and output are Node-only; the pages share src/sheet instead.",
      severity: "error",
      from: { path: "^src/(taskpane|preview|commands|ui|excel)/" },
      to: { path: "^src/cli/" },
    },
    {
      name: "pages-not-function-internals",
      comment:
        "The pages use the functions through what src/functions offers (registry, options, coerce), never " +
        "an implementation in src/functions/impl: those change with a function's behaviour. What a page and " +
        "a function both read, formula text such as COMPS's columns, lives in src/sheet (sheet/comps-columns.ts).",
      severity: "error",
      from: { path: "^src/(taskpane|preview|commands)/" },
      to: { path: "^src/functions/impl/" },
    },
    {
      name: "tools-only-by-tools",
      comment:
        "The development harness (bench, faults, soak, start, validate) is nobody's dependency.",
      severity: "error",
      from: { pathNot: "^src/tools/" },
      to: { path: "^src/tools/" },
    },
    {
      name: "bundles-without-dev-code",
      comment: "What Excel loads never contains the simulator, the development tools or the CLI.",
      severity: "error",
      from: { path: BUNDLE_ENTRIES },
      to: { path: "^src/(simulator|tools|cli)/", reachable: true },
    },
    {
      name: "functions-bundle-lean",
      comment:
        "functions.js (the manifest's functions script, loaded before any page) holds the functions and what " +
        "they compose, nothing of the pages: no taskpane, preview, ribbon, Excel.run or DOM helpers, no " +
        "Fluent UI, and no lru-cache (its browser build was a tenth of the bundle's budget: src/engine/lru.ts).",
      severity: "error",
      from: { path: "^src/functions/entry[.]ts$" },
      to: {
        path: [
          "^src/(taskpane|preview|commands|ui|excel)/",
          "(^|/)node_modules/(@fluentui|lru-cache)/",
        ],
        reachable: true,
      },
    },
    {
      name: "no-unresolvable",
      comment: "An import that resolves to nothing is a typo or a missing dependency.",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    exclude: { path: "[.](css|html|json)$" },
    // Packages that publish their modules through package.json "exports" only (Fluent UI web components 3:
    // "@fluentui/web-components/button.js"), resolved as webpack resolves them.
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
    },
  },
};
