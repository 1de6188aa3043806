/**
 * `npm start`: the add-in's dev server (https://localhost:3000) and the simulator of the metrics service
 * (https://localhost:3001), wired so the add-in talks to the simulator with its demo key. Ctrl+C stops both.
 * Flags: --port N (dev server), --simulator-port N (`npm start -- --port 4000 --simulator-port 4001` when
 * 3000/3001 are taken; the pages, the served manifest and the default service URL follow).
 *
 * Live reload is off on purpose. The dev server's client would have to be injected into every entry, and the
 * entries that share the functions bundle (`dependOn`) cannot resolve it; more to the point, the shared
 * runtime is one long-lived page holding the functions, the cache and the rate limiter for the whole workbook,
 * so reloading it on every save would drop the cache and re-run every cell against the rate limit, and the
 * help page has no script at all. webpack still watches and rebuilds in memory: reload the page to see a change.
 */
import { resolve } from "path";
import { parseArgs } from "util";
import webpack from "webpack";
import WebpackDevServer from "webpack-dev-server";
import devDefaults from "../config/dev-defaults.json";
import { startSimulator, type RunningSimulator } from "../simulator";
import { certificatePaths, loadDevCertificates } from "./dev-certs";
import { messageOf } from "../client/errors";

const root = resolve(__dirname, "../../..");

interface WebpackConfigModule {
  (env: Record<string, unknown>, argv: { mode: string }): webpack.Configuration;
}

function portNumber(flag: string, value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 65535)
    throw new Error(`${flag} takes a port number (1-65535), got "${value}"`);
  return n;
}

/** Resolves after webpack's first compilation, so the URLs are printed once the pages can be served. */
function firstCompilation(compiler: webpack.Compiler): Promise<void> {
  return new Promise((done) => {
    let first = true;
    compiler.hooks.done.tap("CryptometricsStart", () => {
      if (first) done();
      first = false;
    });
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: String(devDefaults.devServerPort) },
      "simulator-port": { type: "string", default: String(devDefaults.simulatorPort) },
    },
  });
  const port = portNumber("--port", values.port);
  const simulatorPort = portNumber("--simulator-port", values["simulator-port"]);
  const { credentials, caInstalled } = await loadDevCertificates();

  const simulator: RunningSimulator = await startSimulator({
    port: simulatorPort,
    host: "localhost",
    https: { key: credentials.key, cert: credentials.cert },
  });

  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const makeConfig = require(resolve(root, "webpack.config.js")) as WebpackConfigModule;
  const config = makeConfig({ devServerPort: port, simulatorPort }, { mode: "development" });
  config.mode = "development";
  config.infrastructureLogging = { level: "warn" };
  config.stats = "errors-warnings";
  const compiler = webpack(config);
  const compiled = firstCompilation(compiler);
  const server = new WebpackDevServer(
    {
      port,
      host: "localhost",
      server: { type: "https", options: { ...credentials } },
      headers: { "Access-Control-Allow-Origin": "*" },
      // office.js from Microsoft's npm package, so the page also loads offline (production builds use the CDN).
      static: [
        {
          directory: resolve(root, "node_modules/@microsoft/office-js/dist"),
          publicPath: "/office-js",
          watch: false,
        },
      ],
      // No client injected, no websocket: live reload is off on purpose (see the top of this file).
      client: false,
      webSocketServer: false,
      liveReload: false,
      hot: false,
    },
    compiler
  );
  await server.start();
  await compiled;
  // After the dev server's own "compiled" line, so the URLs and "Press Ctrl+C" are the last thing shown.
  await new Promise((next) => setImmediate(next));

  const page = `https://localhost:${port}`;
  // The committed manifest names the default port; on another port, the served copy names the one in use.
  const manifest =
    port === devDefaults.devServerPort
      ? `${resolve(root, "manifest.xml")}  (also served at ${page}/manifest.xml)`
      : `${page}/manifest.xml  (manifest.xml in the repository names port ${devDefaults.devServerPort})`;
  process.stdout.write(
    [
      "",
      "Cryptometrics for Excel is running.",
      `  Add-in page:     ${page}/taskpane.html`,
      `  Preview page:    ${page}/preview.html  (CRYPTO formulas in any browser, no Excel needed)`,
      `  Functions:       ${page}/functions.js  (metadata ${page}/functions.json)`,
      `  Manifest:        ${manifest}`,
      `  Unified manifest: ${page}/manifest.json  (Excel on the web, Windows 2501+, Mac 16.103+; the XML one for older Office)`,
      `  Simulator:       ${simulator.url}  (demo data, not real figures)`,
      `  Demo API key:    ${devDefaults.demoApiKey}  (opens only the simulator)`,
      "",
      "Sideload into Excel:",
      "  Desktop (Windows/macOS):  npx office-addin-debugging start manifest.xml",
      "  Excel on the web:         Home > Add-ins > More add-ins > Upload My Add-in > manifest.xml",
      caInstalled
        ? ""
        : `  On Linux the development CA is not installed system-wide: trust ${certificatePaths.ca} in your browser.`,
      "Press Ctrl+C to stop.",
      "",
    ].join("\n")
  );

  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    process.stdout.write("\nStopping…\n");
    await Promise.allSettled([server.stop(), simulator.close()]);
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`npm start failed: ${messageOf(error)}\n`);
  process.exit(1);
});
