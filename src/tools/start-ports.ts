/**
 * Before `npm start` builds anything: are its two ports free, and if one is taken, by whom? A second
 * `npm start` is named as such, with the URL of the one already running; a port held by another program is
 * one line with the flags to choose others. (Before: the second start failed after 12–39 s with the
 * simulator's EADDRINUSE, or a raw stack trace of the dev server when only the page port was taken.)
 */
import { request } from "https";
import { createServer } from "net";

/** What holds a port: nothing, an npm start of this project, its simulator alone, or another program. */
type PortHolder = "free" | "cryptometrics" | "simulator" | "other";

/** How long a port's holder has to answer who it is: a local server answers in milliseconds. */
const PROBE_TIMEOUT_MS = 2_000;

/** Header the simulator puts on every response (src/client's SIMULATED_HEADER_NAME). */
const SIMULATED_HEADER = "x-cryptometrics-simulated";

function portIsFree(port: number, host = "localhost"): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once("error", () => done(false));
    server.listen(port, host, () => server.close(() => done(true)));
  });
}

/** One HTTPS GET on loopback (the development certificate is not checked: only the answer's shape is). */
function probe(
  port: number,
  path: string
): Promise<{ status: number; headers: Record<string, unknown>; body: string } | undefined> {
  return new Promise((done) => {
    const req = request(
      {
        host: "localhost",
        port,
        path,
        method: "GET",
        rejectUnauthorized: false,
        timeout: PROBE_TIMEOUT_MS,
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          if (body.length < 4_096) body += chunk;
        });
        res.on("end", () => done({ status: res.statusCode ?? 0, headers: res.headers, body }));
      }
    );
    req.on("timeout", () => req.destroy());
    req.on("error", () => done(undefined));
    req.end();
  });
}

/** Who holds `port`: asked over HTTPS as npm start serves (its pages, or the simulator's mark). */
async function portHolder(port: number): Promise<PortHolder> {
  if (await portIsFree(port)) return "free";
  const page = await probe(port, "/taskpane.html");
  if (page?.status === 200 && /Cryptometrics/.test(page.body)) return "cryptometrics";
  if (page?.headers[SIMULATED_HEADER] === "true") return "simulator";
  const metrics = await probe(port, "/v2/metrics");
  if (metrics?.headers[SIMULATED_HEADER] === "true") return "simulator";
  return "other";
}

/** The one line npm start prints when it cannot have its ports, or undefined when both are free. */
export async function portsProblem(
  port: number,
  simulatorPort: number
): Promise<string | undefined> {
  if (port === simulatorPort)
    return `--port and --simulator-port are both ${port}: give the simulator a port of its own`;
  const [pages, simulator] = await Promise.all([portHolder(port), portHolder(simulatorPort)]);
  const others = `npm start -- --port ${port + 1000} --simulator-port ${simulatorPort + 1000}`;
  if (pages === "cryptometrics")
    return `npm start is already running at https://localhost:${port}/taskpane.html: use that one, stop it (Ctrl+C in its terminal), or start a second one with ${others}`;
  if (pages !== "free")
    return `port ${port} (the add-in's pages) is taken by another program: stop it, or start with ${others}`;
  if (simulator === "simulator")
    return `port ${simulatorPort} is taken by a Cryptometrics simulator (another npm start, or npm run simulator): stop it, or start with ${others}`;
  if (simulator !== "free")
    return `port ${simulatorPort} (the simulator) is taken by another program: stop it, or start with ${others}`;
  return undefined;
}
