/**
 * npm start asks who holds its ports before it builds anything: a second npm start is named as such with its
 * URL, a simulator already running says so, another program is one line with the flags to choose other ports.
 * Real servers on loopback stand for each holder (the test-only localhost certificate for the https ones).
 */
import { readFileSync } from "fs";
import https from "https";
import net from "net";
import { join } from "path";
import { startSimulator } from "../../src/simulator";
import { portsProblem } from "../../src/tools/start-ports";

const FIXTURES = join(__dirname, "../fixtures/simulator");
const TLS = {
  key: readFileSync(join(FIXTURES, "test-only-localhost.key")),
  cert: readFileSync(join(FIXTURES, "test-only-localhost.crt")),
};

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

function listening(server: net.Server): Promise<number> {
  return new Promise((done) =>
    server.listen(0, "localhost", () => {
      closers.push(() => new Promise((closed) => server.close(() => closed())));
      done((server.address() as net.AddressInfo).port);
    })
  );
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  const port = await listening(server);
  await closers.pop()?.();
  return port;
}

test("says nothing when both ports are free", async () => {
  expect(await portsProblem(await freePort(), await freePort())).toBeUndefined();
});

test("names a second npm start with the URL of the one running", async () => {
  const pages = https.createServer(TLS, (_, res) =>
    res.end("<!doctype html><title>Cryptometrics</title>")
  );
  const port = await listening(pages);
  const simulatorPort = await freePort();
  expect(await portsProblem(port, simulatorPort)).toBe(
    `npm start is already running at https://localhost:${port}/taskpane.html: use that one, stop it (Ctrl+C in its terminal), or start a second one with npm start -- --port ${port + 1000} --simulator-port ${simulatorPort + 1000}`
  );
});

test("names a simulator already running on the simulator's port", async () => {
  const simulator = await startSimulator({ port: 0, host: "localhost", https: TLS });
  closers.push(() => simulator.close());
  const problem = await portsProblem(await freePort(), Number(new URL(simulator.url).port));
  expect(problem).toMatch(
    /is taken by a Cryptometrics simulator \(another npm start, or npm run simulator\)/
  );
});

test("a port held by another program is one line with the flags that choose others", async () => {
  const port = await listening(net.createServer((socket) => socket.destroy()));
  const problem = await portsProblem(port, await freePort());
  expect(problem).toMatch(
    new RegExp(
      `^port ${port} \\(the add-in's pages\\) is taken by another program: stop it, or start with npm start -- --port \\d+ --simulator-port \\d+$`
    )
  );
  expect(problem).not.toMatch(/\n/);
  expect(await portsProblem(4000, 4000)).toMatch(/both 4000/);
});
