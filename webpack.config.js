// Builds the shared-runtime page (taskpane.html) that hosts the custom functions, the taskpane and the ribbon
// commands, plus functions.json generated from the JSDoc of src/functions/functions.ts.
const path = require("path");
const webpack = require("webpack");
const HtmlWebpackPlugin = require("html-webpack-plugin");
const CopyWebpackPlugin = require("copy-webpack-plugin");
const CustomFunctionsMetadataPlugin = require("custom-functions-metadata-plugin");
const devDefaults = require("./src/config/dev-defaults.json");
const pkg = require("./package.json");
const renderHelp = require("./src/help/render-help.js");

const urlDev = `https://localhost:${devDefaults.devServerPort}/`;

/** The origin the add-in is served from in production, e.g. https://addin.example.com/ (trailing slash added). */
function productionOrigin() {
  const origin = process.env.ADDIN_ORIGIN;
  if (!origin) return urlDev; // a production build for local testing keeps localhost
  if (!/^https:\/\//.test(origin))
    throw new Error(`ADDIN_ORIGIN must be an https URL, got "${origin}"`);
  return origin.endsWith("/") ? origin : `${origin}/`;
}

/** The manifest for a production origin: every URL moves there; AppDomain takes the bare origin. */
function productionManifest(xml, origin) {
  const devOrigin = new URL(urlDev).origin;
  return xml
    .split(`<AppDomain>${devOrigin}</AppDomain>`)
    .join(`<AppDomain>${new URL(origin).origin}</AppDomain>`)
    .split(urlDev)
    .join(origin);
}

module.exports = (_env, argv) => {
  const dev = argv.mode !== "production";
  const origin = dev ? urlDev : productionOrigin();
  // What the runtime starts with before the user changes anything in the taskpane. Development builds talk to
  // the local simulator with its demo key; production builds take the service URL from the build environment
  // and never carry a key (the user pastes theirs; it lives in OfficeRuntime.storage).
  const buildConfig = {
    mode: dev ? "development" : "production",
    version: pkg.version,
    defaultBaseUrl: dev
      ? `https://localhost:${devDefaults.simulatorPort}`
      : process.env.CRYPTOMETRICS_BASE_URL || "",
    defaultApiKey: dev ? devDefaults.demoApiKey : "",
    helpUrl: `${origin}help.html`,
  };
  const officeJs = dev ? "/office-js/office.js" : devDefaults.officeJsCdn;
  return {
    devtool: "source-map",
    entry: {
      functions: "./src/functions/entry.ts",
      // functions.js is self-contained (the manifest names it as the functions script); the commands and
      // taskpane bundles depend on it, so the page holds ONE instance of each module: one client, cache and
      // rate limiter for functions, taskpane and ribbon (the point of the shared runtime).
      commands: { import: "./src/commands/commands.ts", dependOn: "functions" },
      taskpane: { import: "./src/taskpane/taskpane.ts", dependOn: "functions" },
    },
    output: {
      path: path.resolve(__dirname, "dist/web"),
      filename: "[name].js",
      clean: true,
    },
    resolve: { extensions: [".ts", ".js"] },
    module: {
      rules: [
        {
          test: /\.ts$/,
          exclude: /node_modules/,
          use: {
            loader: "ts-loader",
            options: { configFile: "tsconfig.json", onlyCompileBundledFiles: true },
          },
        },
      ],
    },
    performance: { hints: false },
    plugins: [
      new webpack.DefinePlugin({ __CM_BUILD__: JSON.stringify(buildConfig) }),
      new CustomFunctionsMetadataPlugin({
        output: "functions.json",
        input: "./src/functions/functions.ts",
      }),
      new HtmlWebpackPlugin({
        filename: "taskpane.html",
        template: "./src/taskpane/taskpane.html",
        chunks: ["functions", "commands", "taskpane"],
        chunksSortMode: "manual",
        templateParameters: { officeJs },
      }),
      {
        // After functions.json is generated: the help page from it, and production URLs in both.
        apply(compiler) {
          compiler.hooks.thisCompilation.tap("CryptometricsHelp", (compilation) => {
            compilation.hooks.processAssets.tap(
              { name: "CryptometricsHelp", stage: webpack.Compilation.PROCESS_ASSETS_STAGE_REPORT },
              () => {
                const asset = compilation.getAsset("functions.json");
                if (!asset) return;
                const json = asset.source.source().toString().split(urlDev).join(origin);
                compilation.updateAsset("functions.json", new webpack.sources.RawSource(json));
                compilation.emitAsset(
                  "help.html",
                  new webpack.sources.RawSource(renderHelp(json, pkg.version))
                );
              }
            );
          });
        },
      },
      new CopyWebpackPlugin({
        patterns: [
          { from: "assets/*", to: "assets/[name][ext]" },
          {
            from: "manifest.xml",
            to: "manifest.xml",
            transform: (content) =>
              dev ? content : productionManifest(content.toString(), origin),
          },
        ],
      }),
    ],
  };
};
module.exports.urlDev = urlDev;
