/**
 * `npm start` as a user runs it (the built start script): the dev server serves the shared-runtime page over
 * https with the office-addin-dev-certs certificates, the simulator answers the demo key, and Ctrl+C stops both.
 */
import { spawn, type ChildProcess } from "child_process";
import { existsSync, readFileSync } from "fs";
import { request } from "https";
import { resolve } from "path";
import { certificatePaths } from "../../src/tools/dev-certs";
import devDefaults from "../../src/config/dev-defaults.json";

const root = resolve(__dirname, "../..");
const script = resolve(root, "dist/node/tools/start.js");
const PORT = 13_000 + (process.pid % 1000);
const SIM_PORT = PORT + 1000;

/** GET over https, trusting only the development CA (as a browser that imported it would). */
function get(
  url: string,
  headers: Record<string, string> = {}
): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const req = request(url, { ca: readFileSync(certificatePaths.ca), headers }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => done({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", fail);
    req.end();
  });
}

let child: ChildProcess;
let output = "";

beforeAll(async () => {
  if (!existsSync(script))
    throw new Error("dist/node/tools/start.js is missing: run npm run build:node (npm test does)");
  child = spawn(
    process.execPath,
    [script, "--port", String(PORT), "--simulator-port", String(SIM_PORT)],
    {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    }
  );
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  await new Promise<void>((ready, fail) => {
    const timer = setInterval(() => {
      if (/webpack compiled/.test(output) && /Press Ctrl\+C to stop/.test(output)) {
        clearInterval(timer);
        ready();
      }
      if (child.exitCode !== null) {
        clearInterval(timer);
        fail(new Error(`npm start exited early:\n${output}`));
      }
    }, 200);
  });
}, 180_000);

afterAll(() => {
  if (child.exitCode === null) child.kill("SIGKILL");
});

describe("npm start", () => {
  it("prints the manifest, the URLs, how to sideload and the demo key", () => {
    expect(output).toContain(`https://localhost:${PORT}/taskpane.html`);
    expect(output).toContain(`https://localhost:${PORT}/preview.html`);
    expect(output).toContain(resolve(root, "manifest.xml"));
    expect(output).toContain("npx office-addin-debugging start manifest.xml");
    expect(output).toContain("Upload My Add-in");
    expect(output).toContain(devDefaults.demoApiKey);
  });

  it("serves the shared-runtime page, the functions and their metadata over https", async () => {
    const page = await get(`https://localhost:${PORT}/taskpane.html`);
    expect(page.status).toBe(200);
    expect(page.body).toContain("functions.js");
    const metadata = await get(`https://localhost:${PORT}/functions.json`);
    expect(JSON.parse(metadata.body).functions.map((f: { id: string }) => f.id)).toContain(
      "METRIC"
    );
    expect((await get(`https://localhost:${PORT}/office-js/office.js`)).status).toBe(200);
  });

  it("runs the simulator over https with the demo key, and refuses requests without it", async () => {
    const ok = await get(`https://localhost:${SIM_PORT}/v2/metrics`, {
      authorization: `Bearer ${devDefaults.demoApiKey}`,
    });
    expect(ok.status).toBe(200);
    expect((await get(`https://localhost:${SIM_PORT}/v2/metrics`)).status).toBe(401);
  });

  it("stops everything on Ctrl+C", async () => {
    const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
    child.kill("SIGINT");
    expect(await exited).toBe(0);
    await expect(get(`https://localhost:${SIM_PORT}/v2/metrics`)).rejects.toThrow();
  });
});
