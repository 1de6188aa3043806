// Builds the shared-runtime page (taskpane.html) that hosts the custom functions, the taskpane and the ribbon
// commands, the preview page (preview.html: the same functions bundle in a plain browser), plus functions.json
// generated from the JSDoc of src/functions/functions.ts.
const path = require("path");
const webpack = require("webpack");
const HtmlWebpackPlugin = require("html-webpack-plugin");
const CopyWebpackPlugin = require("copy-webpack-plugin");
const CustomFunctionsMetadataPlugin = require("custom-functions-metadata-plugin");
const devDefaults = require("./src/config/dev-defaults.json");
const pkg = require("./package.json");
const renderHelp = require("./src/help/render-help.js");
const manifests = require("./src/tools/manifest/manifests.js");

/** The development origin the committed manifest.xml names (npm start's default port). */
const urlDev = `https://localhost:${devDefaults.devServerPort}/`;

/**
 * Ports of a development build: npm start's defaults, or the ones it was started with (`npm start -- --port N
 * --simulator-port M` passes them here as webpack env), so the pages, the manifest and the default service URL
 * all name the servers actually running.
 */
function devPorts(env) {
  const port = (value, fallback) => {
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > 65535)
      throw new Error(`not a port number: "${value}"`);
    return n;
  };
  return {
    devServer: port(env.devServerPort, devDefaults.devServerPort),
    simulator: port(env.simulatorPort, devDefaults.simulatorPort),
  };
}

/** office.js (outside Office at least) opens Microsoft's telemetry page in a hidden frame. */
const OFFICE_TELEMETRY = "https://telemetryservice.firstpartyapps.oaspapps.com";

/**
 * The origins the pages may send requests to (connect-src), named one by one: the add-in's own origin
 * ('self': the team gateway is served there), the service the build is made for (CRYPTOMETRICS_BASE_URL)
 * and any other a deployment lists (CRYPTOMETRICS_CONNECT_ORIGINS, comma-separated). A build served from
 * this computer (development, or a production build without ADDIN_ORIGIN, for local testing) may also reach
 * loopback, where the simulator runs. No other origin: a page that could send anywhere (`https:`) would
 * send wherever an injected URL pointed. The runtime refuses, with the reason, a service address outside
 * this list (src/runtime/connect-origins.ts), rather than let the browser block its requests unexplained.
 */
function connectOrigins(dev, ports) {
  const named = [];
  const add = (url, what) => {
    let origin;
    try {
      origin = new URL(url).origin;
    } catch {
      throw new Error(`${what} is not a URL: "${url}"`);
    }
    if (!/^https:\/\//.test(origin) && !/^http:\/\/(localhost|127\.0\.0\.1)(:|$)/.test(origin))
      throw new Error(`${what} must be https (or http on loopback), got "${url}"`);
    if (!named.includes(origin)) named.push(origin);
  };
  if (dev) add(`https://localhost:${ports.simulator}`, "the simulator");
  if (process.env.CRYPTOMETRICS_BASE_URL)
    add(process.env.CRYPTOMETRICS_BASE_URL, "CRYPTOMETRICS_BASE_URL");
  for (const extra of (process.env.CRYPTOMETRICS_CONNECT_ORIGINS ?? "").split(","))
    if (extra.trim() !== "") add(extra.trim(), "CRYPTOMETRICS_CONNECT_ORIGINS");
  const local = dev || !process.env.ADDIN_ORIGIN;
  return { named, loopback: local };
}

/** Microsoft's identity platform: where the sign-in dialog's MSAL redeems its code for a token. */
const MICROSOFT_LOGIN = "https://login.microsoftonline.com";

/** The loopback sources a local build may reach (the simulator on any port, either scheme). */
const LOOPBACK = [
  "http://localhost:*",
  "http://127.0.0.1:*",
  "https://localhost:*",
  "https://127.0.0.1:*",
];

/**
 * The pages' Content-Security-Policy. Scripts only from the add-in's origin (and Microsoft's office.js CDN in
 * production: office.js loads its host scripts from there); no inline scripts, no eval. Requests only to the
 * origins connectOrigins names. Styles: the pages' own files only; Fluent UI's components (web components 3)
 * and its design tokens style the page through constructed style sheets (adoptedStyleSheets) and CSSOM
 * properties, which CSP does not govern: no <style> element, no 'unsafe-inline'.
 */
function contentSecurityPolicy(dev, connect) {
  const scripts = dev ? "'self'" : `'self' ${new URL(devDefaults.officeJsCdn).origin}`;
  return [
    "default-src 'self'",
    `script-src ${scripts}`,
    // No websocket: the dev server runs without its live-reload client (see src/tools/start.ts).
    `connect-src ${["'self'", ...connect.named, ...(connect.loopback ? LOOPBACK : [])].join(" ")}`,
    "style-src 'self'",
    // office.js hides its telemetry frame with a style attribute; attributes cannot run code.
    "style-src-attr 'unsafe-inline'",
    `frame-src ${OFFICE_TELEMETRY}`,
    "img-src 'self' data:",
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

/**
 * What each page's template is given: `head`, the <head> every page shares (charset, viewport, the page's
 * Content-Security-Policy, icon, style sheets, office.js), written once here rather than copied into each
 * template. A template writes `<%= head("Cryptometrics preview", "preview.css") %>` inside its <html>: its
 * title and its own style sheets, after the shared taskpane.css. html-webpack-plugin adds the page's bundles
 * after office.js, which must load first. `csp` too: the tests read each page's policy from here.
 */
function pageParameters(officeJs, csp) {
  const head = (title, ...styles) =>
    [
      "<head>",
      '    <meta charset="UTF-8" />',
      '    <meta name="viewport" content="width=device-width, initial-scale=1" />',
      `    <meta http-equiv="Content-Security-Policy" content="${csp}" />`,
      `    <title>${title}</title>`,
      '    <link rel="icon" type="image/png" href="assets/icon-32.png" />',
      ...["taskpane.css", ...styles].map((href) => `    <link rel="stylesheet" href="${href}" />`),
      `    <script src="${officeJs}"></script>`,
      "  </head>",
    ].join("\n");
  return { csp, head };
}

/** The origin the add-in is served from in production, e.g. https://addin.example.com/ (trailing slash added). */
function productionOrigin() {
  const origin = process.env.ADDIN_ORIGIN;
  if (!origin) return urlDev; // a production build for local testing keeps localhost
  if (!/^https:\/\//.test(origin))
    throw new Error(`ADDIN_ORIGIN must be an https URL, got "${origin}"`);
  return origin.endsWith("/") ? origin : `${origin}/`;
}

module.exports = (env = {}, argv = {}) => {
  const dev = argv.mode !== "production";
  const ports = devPorts(env);
  const origin = dev ? `https://localhost:${ports.devServer}/` : productionOrigin();
  const connect = connectOrigins(dev, ports);
  // What the runtime starts with before the user changes anything in the taskpane. Development builds call their
  // own origin, where npm start serves the team gateway (the simulator behind it), with the demo key as the
  // gateway's token; production builds take the service URL from the build environment (a team's gateway at
  // ADDIN_ORIGIN, or the service itself) and never carry a key (the user pastes theirs; it lives in
  // OfficeRuntime.storage).
  const buildConfig = {
    mode: dev ? "development" : "production",
    version: pkg.version,
    defaultBaseUrl: dev
      ? `https://localhost:${ports.devServer}`
      : process.env.CRYPTOMETRICS_BASE_URL || "",
    defaultApiKey: dev ? devDefaults.demoApiKey : "",
    helpUrl: `${origin}help.html`,
    // The origins the page may reach besides its own (null: any on loopback too, a local build).
    connectOrigins: connect.loopback ? null : connect.named,
  };
  const officeJs = dev ? "/office-js/office.js" : devDefaults.officeJsCdn;
  const pages = pageParameters(officeJs, contentSecurityPolicy(dev, connect));
  // The sign-in dialog runs MSAL itself (where nested app authentication is not offered): it redeems the code
  // at Microsoft's identity platform, so its page alone may also reach that one origin.
  const dialog = pageParameters(
    officeJs,
    contentSecurityPolicy(dev, { ...connect, named: [...connect.named, MICROSOFT_LOGIN] })
  );
  return {
    devtool: "source-map",
    entry: {
      functions: "./src/functions/entry.ts",
      // functions.js is self-contained (the manifest names it as the functions script); the commands and
      // taskpane bundles depend on it, so the page holds ONE instance of each module: one client, cache and
      // rate limiter for functions, taskpane and ribbon (the point of the shared runtime).
      commands: { import: "./src/commands/commands.ts", dependOn: "functions" },
      // The taskpane also shares the commands bundle's modules (the refresh log the ribbon writes to).
      taskpane: { import: "./src/taskpane/taskpane.ts", dependOn: ["functions", "commands"] },
      preview: { import: "./src/preview/preview.ts", dependOn: "functions" },
      // The sign-in dialog (Office dialog API fallback where the host has no nested app authentication).
      "signin-dialog": "./src/signin-dialog/dialog.ts",
    },
    output: {
      path: path.resolve(__dirname, "dist/web"),
      filename: "[name].js",
      // The chunks loaded on demand (the functions a workbook may never call, functions.ts): named by their
      // content, so a page cached by Office before a deployment never pairs an old entry with a new chunk.
      chunkFilename: "[name].[contenthash:8].js",
      clean: true,
    },
    resolve: {
      extensions: [".ts", ".js"],
    },
    module: {
      rules: [
        {
          // The core's modules only declare (no Office, no DOM, nothing run on import): what the page never uses
          // of their indexes is left out of the bundles, and a part loaded on demand stays out of functions.js.
          test: /[\\/]src[\\/](client|engine)[\\/].*\.ts$/,
          sideEffects: false,
        },
        {
          test: /\.ts$/,
          exclude: /node_modules/,
          use: {
            loader: "ts-loader",
            options: {
              configFile: "tsconfig.json",
              onlyCompileBundledFiles: true,
              // `npm test` type-checks every file beside the build (tsconfig.json, the pages' among them, as here
              // but for the module form below) and sets this: checking them again here made the production build
              // 41 CPU-s instead of 30 (27 s instead of 21 on the 2-core machine), before any test could start.
              transpileOnly: process.env.CM_BUILD_TRANSPILE_ONLY === "1",
              // ES modules for webpack (tsconfig's commonjs is for Node and jest): concatenated and
              // tree-shaken, about 6 kB less of functions.js gzipped than require() wrappers.
              compilerOptions: { module: "es2020" },
            },
          },
        },
      ],
    },
    performance: { hints: false },
    // No `global` shim: it brings webpack's `new Function("return this")` fallback; every host has globalThis.
    node: { global: false },
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
        templateParameters: pages,
      }),
      new HtmlWebpackPlugin({
        filename: "signin-dialog.html",
        template: "./src/signin-dialog/signin-dialog.html",
        chunks: ["signin-dialog"],
        templateParameters: dialog,
      }),
      new HtmlWebpackPlugin({
        filename: "preview.html",
        template: "./src/preview/preview.html",
        chunks: ["functions", "preview"],
        chunksSortMode: "manual",
        templateParameters: pages,
      }),
      {
        // After functions.json is generated: the help page from it, production URLs in both, and the two
        // manifests (XML and unified JSON) for this build's origin from their one source. Named, so that the
        // build test can run it over a build's functions.json for another origin without building again.
        name: "CryptometricsHelp",
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
                compilation.emitAsset(
                  "manifest.xml",
                  new webpack.sources.RawSource(manifests.renderXml(origin, pkg.version))
                );
                compilation.emitAsset(
                  "manifest.json",
                  new webpack.sources.RawSource(
                    manifests.unifiedText(origin, pkg.version, JSON.parse(json))
                  )
                );
              }
            );
          });
        },
      },
      new CopyWebpackPlugin({
        patterns: [
          { from: "assets/*", to: "assets/[name][ext]" },
          { from: "src/taskpane/taskpane.css", to: "taskpane.css" },
          { from: "src/preview/preview.css", to: "preview.css" },
        ],
      }),
    ],
  };
};
module.exports.urlDev = urlDev;
module.exports.contentSecurityPolicy = contentSecurityPolicy;
module.exports.connectOrigins = connectOrigins;
