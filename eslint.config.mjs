import officeAddins from "eslint-plugin-office-addins";
import tseslint from "typescript-eslint";

// Code that must run in plain Node and in the browser alike: no Office globals there (habit 1).
const officeGlobals = ["Office", "Excel", "OfficeRuntime", "CustomFunctions"].map((name) => ({
  name,
  message: "Office globals stay out of the core: inject what the host provides.",
}));

export default [
  { ignores: ["node_modules/**", "dist/**", "coverage/**", "test-results/**", "bench-results/**"] },
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
  ...tseslint.configs.recommended.map(
    ({ plugins: _plugins, languageOptions: _lo, ...rest }) => rest
  ),
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
    files: ["*.js", "**/*.cjs", "src/help/*.js"],
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
