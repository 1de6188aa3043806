import officeAddins from "eslint-plugin-office-addins";
import tseslint from "typescript-eslint";

// Office's globals are touched only by the edge files below; everything else gets what the host provides
// injected (an ExcelRun, a storage, a settings hint), so it runs in plain Node and in a plain browser.
const officeGlobals = ["Office", "Excel", "OfficeRuntime", "CustomFunctions"].map((name) => ({
  name,
  message:
    "Office globals stay at the edge (eslint.config.mjs lists the files): inject what the host provides.",
}));
const OFFICE_EDGE = [
  "src/excel/office-host.ts", // Excel.run, requirement sets, selection events: injected everywhere else
  "src/functions/edge.ts", // CustomFunctions.Error: Excel errors only at the function edge
  "src/functions/host.ts", // what the host can display (requirement sets)
  "src/runtime/office.ts", // OfficeRuntime.storage and Office.onReady for the composition root
  "src/runtime/sign-in/office-ports.ts", // sign-in: NAA's requirement set and the Office dialog API
  "src/signin-dialog/dialog.ts", // the sign-in dialog page: Office.onReady and messageParent
  "src/commands/commands.ts", // ribbon command registration
  "src/taskpane/taskpane.ts", // the page's Office.onReady
  "src/preview/preview.ts", // the page's Office.onReady (outside Excel: no host)
];
// The core (client, engine, sheet) does not touch the page either: a DOM object would pin it to a browser.
const domGlobals = [
  "window",
  "document",
  "navigator",
  "localStorage",
  "sessionStorage",
  "indexedDB",
].map((name) => ({ name, message: "The core runs in plain Node: inject what the page provides." }));

// A spread puts every element of an array on the call stack as an argument: past about 100,000 elements
// (a catalogue, a long series, a whole column) it throws "Maximum call stack size exceeded". Data from the
// service or the workbook is never spread into a call: fold it (reduce, a loop) instead. A spread of a
// list that is small by construction (a function's own parameters) may stay, with a disable comment
// saying why.
const noDataSpreads = [
  {
    selector:
      "CallExpression[callee.object.name='Math'][callee.property.name=/^(max|min|hypot)$/] > SpreadElement",
    message:
      "Math.max/min over a spread overflows the stack on large arrays: fold with reduce or a loop.",
  },
  {
    selector: "CallExpression[callee.property.name=/^(push|unshift|splice)$/] > SpreadElement",
    message:
      "push/unshift/splice of a spread overflows the stack on large arrays: use a loop or concat.",
  },
  {
    selector:
      "CallExpression[callee.object.name='String'][callee.property.name=/^fromCharCode|fromCodePoint$/] > SpreadElement",
    message: "String.fromCharCode over a spread overflows the stack on large arrays.",
  },
  {
    selector: "CallExpression[callee.property.name='apply'][arguments.length=2]",
    message: "fn.apply(this, array) passes every element as an argument: fold with a loop instead.",
  },
];

// The pages show text from the service (names, descriptions, messages): every write of an element's text goes
// through src/ui/dom.ts (h, setText), which shows bidirectional controls as U+FFFD as the CLI does, so that
// "gnp.exe" behind an override cannot show as "exe.png". HTML is never written from a string.
const pageTextWrites = [
  {
    selector:
      "AssignmentExpression > MemberExpression.left[property.name=/^(textContent|innerText|innerHTML|outerHTML|nodeValue)$/]",
    message:
      "Write an element's text with setText (or h) from src/ui/dom.ts: it neutralises bidi controls in service text.",
  },
];

export default [
  {
    ignores: [
      "node_modules/**",
      "dist/**",
      "coverage/**",
      "test-results/**",
      "bench-results/**",
      "reports/**",
      ".stryker-tmp/**",
    ],
  },
  // Office's recommended set (office-addins rules, prettier), but run by the project's own typescript-eslint:
  // the plugin's bundled copy (8.8) predates this ESLint and crashes, and ESLint refuses two registrations.
  ...officeAddins.configs.recommended.map((config) =>
    config.plugins?.["@typescript-eslint"]
      ? {
          ...config,
          plugins: { ...config.plugins, "@typescript-eslint": tseslint.plugin },
          languageOptions: { ...config.languageOptions, parser: tseslint.parser },
        }
      : config
  ),
  // Type-aware: the rules that need the types (floating promises, unsafe any flows, misused promises...)
  // read them through the TypeScript project service, from tsconfig.json.
  ...tseslint.configs.recommendedTypeChecked.map(
    ({ plugins: _plugins, languageOptions: _lo, ...rest }) => ({ ...rest, files: ["**/*.ts"] })
  ),
  {
    files: ["**/*.ts"],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Passing on what was caught, or an AbortSignal's reason, is not inventing a non-Error rejection.
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingUnknown: true }],
      // `async` without `await` is how a method fulfils a promise-returning interface (storage, the
      // workbook port, test doubles), and it turns a synchronous throw into the rejection callers expect.
      "@typescript-eslint/require-await": "off",
    },
  },
  {
    files: ["**/*.{ts,js,mjs,cjs}"],
    languageOptions: { ecmaVersion: 2022 },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/ban-ts-comment": [
        "error",
        { "ts-ignore": true, "ts-expect-error": "allow-with-description" },
      ],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      "no-console": "error",
      "no-eval": "error",
      "no-implied-eval": "error",
      "no-new-func": "error",
      "no-restricted-syntax": ["error", ...noDataSpreads],
    },
  },
  {
    files: ["src/**/*.ts"],
    ignores: OFFICE_EDGE,
    rules: { "no-restricted-globals": ["error", ...officeGlobals] },
  },
  {
    files: ["src/{taskpane,ui,preview,commands}/**/*.ts"],
    ignores: ["src/ui/dom.ts"],
    rules: { "no-restricted-syntax": ["error", ...noDataSpreads, ...pageTextWrites] },
  },
  {
    files: ["src/{client,engine,sheet}/**/*.ts"],
    rules: { "no-restricted-globals": ["error", ...officeGlobals, ...domGlobals] },
  },
  {
    // @types/jest types its asymmetric matchers (expect.any, expect.stringContaining...) as `any`, and
    // tests build expected values out of them: only these two rules are off, and only in tests.
    files: ["test/**/*.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
    },
  },
  {
    // The Excel boundary: custom function arguments arrive untyped from the host, and Excel's metadata
    // (custom-functions-metadata-plugin) reads `any` as "any value" in functions.ts's signatures. Only there.
    files: ["src/functions/functions.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // Command-line scripts run by npm (test/harness/mutation.mjs): Node's process is their input and output.
    files: ["test/harness/**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly" } },
    rules: { "no-console": "off" },
  },
  {
    files: ["*.js", "**/*.cjs", "test/**/*.config.js", "src/help/*.js", "src/tools/manifest/*.js"],
    languageOptions: {
      sourceType: "commonjs",
      globals: {
        module: "writable",
        require: "readonly",
        __dirname: "readonly",
        process: "readonly",
        URL: "readonly",
      },
    },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
];
