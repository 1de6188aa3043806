import officeAddins from "eslint-plugin-office-addins";
import tseslint from "typescript-eslint";

// Code that must run in plain Node and in the browser alike: no Office globals there (habit 1).
const officeGlobals = ["Office", "Excel", "OfficeRuntime", "CustomFunctions"].map((name) => ({
  name,
  message: "Office globals stay out of the core: inject what the host provides.",
}));

export default [
  { ignores: ["node_modules/**", "dist/**", "coverage/**", "test-results/**", "bench-results/**"] },
  ...officeAddins.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts"],
    languageOptions: { ecmaVersion: 2022 },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/ban-ts-comment": ["error", { "ts-ignore": true, "ts-expect-error": "allow-with-description" }],
      "no-console": "error",
      "no-eval": "error",
      "no-implied-eval": "error",
      "no-new-func": "error",
    },
  },
  {
    files: ["src/client/**/*.ts", "src/engine/**/*.ts", "src/simulator/**/*.ts", "src/cli/**/*.ts"],
    rules: { "no-restricted-globals": ["error", ...officeGlobals] },
  },
  {
    // The Excel boundary: custom function arguments arrive untyped from the host.
    files: ["src/functions/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["*.js", "*.mjs", "**/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { module: "writable", require: "readonly", __dirname: "readonly", process: "readonly" } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
];
