/**
 * `npm start`: the add-in's dev server (https://localhost:3000) and the simulator of the metrics service
 * (https://localhost:3001), wired so the add-in talks to the simulator with its demo key. Ctrl+C stops both.
 * Flags: --port N (dev server), --simulator-port N, --no-watch (serve one build, used by tests).
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

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: String(devDefaults.devServerPort) },
      "simulator-port": { type: "string", default: String(devDefaults.simulatorPort) },
    },
  });
  const port = Number(values.port);
  const simulatorPort = Number(values["simulator-port"]);
  const { credentials, caInstalled } = await loadDevCertificates();

  const simulator: RunningSimulator = await startSimulator({
    port: simulatorPort,
    host: "localhost",
    https: { key: credentials.key, cert: credentials.cert },
  });

  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const makeConfig = require(resolve(root, "webpack.config.js")) as WebpackConfigModule;
  const config = makeConfig({}, { mode: "development" });
  config.mode = "development";
  config.infrastructureLogging = { level: "warn" };
  config.stats = "errors-warnings";
  const compiler = webpack(config);
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
      client: { overlay: false },
      hot: false,
    },
    compiler
  );
  await server.start();

  const page = `https://localhost:${port}`;
  process.stdout.write(
    [
      "",
      "Cryptometrics for Excel is running.",
      `  Add-in page:     ${page}/taskpane.html`,
      `  Preview page:    ${page}/preview.html  (CRYPTO formulas in any browser, no Excel needed)`,
      `  Functions:       ${page}/functions.js  (metadata ${page}/functions.json)`,
      `  Manifest:        ${resolve(root, "manifest.xml")}  (also served at ${page}/manifest.xml)`,
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
