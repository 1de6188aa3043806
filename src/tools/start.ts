/**
 * `npm start`: the add-in's dev server (https://localhost:3000) serving the pages, the functions and the team
 * gateway from one origin, and the simulator of the metrics service (https://localhost:3001) behind the gateway.
 * The pages call their own origin (as they do behind a team's gateway in production), so the simulator answers
 * no CORS preflight, as the interface promises GET only; the add-in's default key is the demo token the
 * gateway accepts, and the gateway calls the simulator with a service key of its own, made up for the run and
 * never shown. Sign-in can be tried too: a demo issuer at the same origin (demo-sign-in.ts) signs in "Demo Analyst",
 * and this gateway alone trusts it (its `verifiers` and `signIn` options). Ctrl+C stops everything.
 * Flags: --port N (dev server), --simulator-port N (`npm start -- --port 4000 --simulator-port 4001` when
 * 3000/3001 are taken; the pages, the served manifest and the default service URL follow, and the manifest to
 * sideload for those ports is written to a temporary file whose path is printed).
 *
 * Live reload is off on purpose. The dev server's client would have to be injected into every entry, and the
 * entries that share the functions bundle (`dependOn`) cannot resolve it; more to the point, the shared
 * runtime is one long-lived page holding the functions, the cache and the rate limiter for the whole workbook,
 * so reloading it on every save would drop the cache and re-run every cell against the rate limit, and the
 * help page has no script at all. webpack still watches and rebuilds in memory: reload the page to see a change.
 */
import { randomBytes } from "crypto";
import { rmSync, writeFileSync } from "fs";
import type { IncomingMessage, ServerResponse } from "http";
import { tmpdir } from "os";
import { join, resolve } from "path";
import { parseArgs } from "util";
import webpack from "webpack";
import WebpackDevServer from "webpack-dev-server";
import devDefaults from "../config/dev-defaults.json";
import { FixedTokens } from "../gateway/auth/tokens-file";
import { MemoryKeyRecords, UserKeys } from "../gateway/auth/user-keys";
import { createGateway } from "../gateway/server";
import { startSimulator, type RunningSimulator } from "../simulator";
import { certificatePaths, loadDevCertificates } from "./dev-certs";
import { trustingFetch } from "./trusting-fetch";
import { portsProblem } from "./start-ports";
import { createDemoSignIn, DEMO_ACCOUNT } from "./demo-sign-in";
import { messageOf } from "../client";

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

/** A file as the dev server serves it (from webpack's in-memory output). */
function servedFile(compiler: webpack.Compiler, path: string): Promise<Buffer> {
  return new Promise((done, fail) => {
    const fs = compiler.outputFileSystem;
    if (!fs) return fail(new Error("the dev server has no output yet"));
    fs.readFile(path, (error, data) =>
      error || data === undefined
        ? fail(new Error(`the dev server has not built ${path}`))
        : done(Buffer.isBuffer(data) ? data : Buffer.from(String(data)))
    );
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
  // Before anything is built: a second npm start, or a port held by another program, is one line.
  const problem = await portsProblem(port, simulatorPort);
  if (problem) throw new Error(problem);
  const began = Date.now();
  const say = (line: string): boolean => process.stdout.write(`${line}\n`);
  say(
    `Starting: the simulator on port ${simulatorPort}, the pages and the gateway on port ${port}.`
  );
  const { credentials, caInstalled } = await loadDevCertificates();

  // The gateway's own key for the simulator: made up for this run, held by the gateway alone. The simulator also
  // takes the demo key, for the command line and scripts that call it straight.
  const serviceKey = `cm_npmstart_${randomBytes(16).toString("hex")}`;
  const simulator: RunningSimulator = await startSimulator({
    port: simulatorPort,
    host: "localhost",
    https: { key: credentials.key, cert: credentials.cert },
    apiKeys: [devDefaults.demoApiKey, serviceKey],
  });
  const page = `https://localhost:${port}`;
  // Sign-in to try locally: a demo issuer at this origin (see demo-sign-in.ts), trusted by this gateway only.
  const demoSignIn = await createDemoSignIn(page);
  const gateway = await createGateway({
    serviceUrl: simulator.url,
    serviceKey,
    verifiers: [
      // The add-in's development default: the demo key, which the gateway takes as the token of user "demo".
      new FixedTokens([{ name: "demo", token: devDefaults.demoApiKey }]),
      demoSignIn.verifier,
    ],
    signIn: demoSignIn.signInConfig,
    // npm start is the development start path: the demo issuer's verifier is let in here, and only here.
    development: true,
    // The signed-in pane's "Your own service key" can be tried too: kept in this process's memory only.
    userKeys: new UserKeys(new MemoryKeyRecords(), randomBytes(32)),
    fetch: trustingFetch(credentials.ca),
    // Warnings only: a line per request would bury webpack's messages.
    logLevel: "warn",
  });
  const mountGateway = (
    req: IncomingMessage,
    res: ServerResponse,
    next: (error?: unknown) => void
  ): void => {
    const path = (req.url ?? "/").split("?")[0];
    if (demoSignIn.owns(path)) demoSignIn.handle(req, res);
    else if (gateway.owns(req.url ?? "/")) gateway.handle(req, res);
    else next();
  };

  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const makeConfig = require(resolve(root, "webpack.config.js")) as WebpackConfigModule;
  const config = makeConfig({ devServerPort: port, simulatorPort }, { mode: "development" });
  config.mode = "development";
  config.infrastructureLogging = { level: "warn" };
  config.stats = "errors-warnings";
  const compiler = webpack(config);
  const compiled = firstCompilation(compiler);
  say("Building the pages with webpack (about 30 s the first time)…");
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
      // The gateway answers the service's paths at this origin, before anything of the dev server.
      setupMiddlewares: (middlewares) => {
        middlewares.unshift({ name: "cryptometrics-gateway", middleware: mountGateway });
        return middlewares;
      },
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

  // The committed manifests name the default port; on another port the ones to sideload are the served
  // copies, written where the sideloading tools can read them (outside the repository).
  const written: string[] = [];
  const manifestFile = async (name: "manifest.xml" | "manifest.json"): Promise<string> => {
    if (port === devDefaults.devServerPort) return resolve(root, name);
    const served = await servedFile(
      compiler,
      join(config.output?.path ?? resolve(root, "dist/web"), name)
    );
    const file = join(tmpdir(), `cryptometrics-${port}-${name}`);
    writeFileSync(file, served);
    written.push(file);
    return file;
  };
  const xmlFile = await manifestFile("manifest.xml");
  const jsonFile = await manifestFile("manifest.json");
  const portNote =
    port === devDefaults.devServerPort
      ? ""
      : `  (for port ${port}; the repository's manifests name port ${devDefaults.devServerPort})`;
  process.stdout.write(
    [
      "",
      `Cryptometrics for Excel is running (ready in ${Math.round((Date.now() - began) / 1000)} s).`,
      `  Add-in page:     ${page}/taskpane.html`,
      `  Preview page:    ${page}/preview.html  (CRYPTO formulas in any browser, no Excel needed)`,
      `  Functions:       ${page}/functions.js  (metadata ${page}/functions.json)`,
      `  Manifest:        ${xmlFile}  (XML: Perpetual Office 2019, 2021, 2024 and older builds)${portNote}`,
      `  Unified manifest: ${jsonFile}  (Excel on the web, Windows 2501+, Mac 16.103+)`,
      `  Service:         ${page}  (the team gateway, at the add-in's own origin: the pages and the CLI call it)`,
      `  Simulator:       ${simulator.url}  (demo data, not real figures; behind the gateway, it answers no browser preflight)`,
      `  Demo API key:    ${devDefaults.demoApiKey}  (the add-in's token for this gateway; opens only the simulator)`,
      `  Demo sign-in:    Settings > Use the team gateway > Sign in  (as ${DEMO_ACCOUNT.name}; a local issuer only this run trusts)`,
      "",
      "Sideload into Excel (the manifest your Excel takes):",
      `  Excel on the web, Windows 2501+, Mac 16.103+: ${jsonFile}`,
      `    on the web: Home > Add-ins > More add-ins > Upload My Add-in; on the desktop: npx office-addin-debugging start ${jsonFile}`,
      `  Perpetual Office (2019, 2021, 2024) and older builds: ${xmlFile}`,
      `    npx office-addin-debugging start ${xmlFile}`,
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
    // First: the process may end before every server says it has stopped (once nothing is left running).
    for (const file of written) rmSync(file, { force: true });
    await Promise.allSettled([server.stop(), gateway.close(), simulator.close()]);
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`npm start failed: ${messageOf(error)}\n`);
  process.exit(1);
});
