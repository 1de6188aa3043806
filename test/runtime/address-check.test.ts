/**
 * A service address is tried before it is kept: against the simulator over loopback (the service), a
 * static server (the add-in's own origin where no gateway serves the interface: 404), a web page (200 HTML)
 * and a closed port. Refusals say what to change; only the service's own answers keep an address.
 */
import http from "http";
import { createServer, type AddressInfo } from "net";
import { DEMO_API_KEY, startSimulator, type RunningSimulator } from "../../src/simulator";
import {
  checkServiceAddress,
  STAND_IN_KEY,
  versionInAddress,
} from "../../src/runtime/address-check";
import type { FetchLike } from "../../src/client";

let sim: RunningSimulator;
let page: http.Server;
let pageUrl: string;
let notFound: http.Server;
let notFoundUrl: string;

async function listen(
  handler: http.RequestListener
): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer(handler);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, rateLimit: null });
  ({ server: page, url: pageUrl } = await listen((_req, res) =>
    res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>Add-in</title>")
  ));
  ({ server: notFound, url: notFoundUrl } = await listen((_req, res) => res.writeHead(404).end()));
});
afterAll(async () => {
  await sim.close();
  page.close();
  notFound.close();
});

const noWait = async (): Promise<void> => undefined;
const check = (address: string, apiKey: string | null = DEMO_API_KEY, fetch?: FetchLike) =>
  checkServiceAddress(address, {
    apiKey: apiKey ?? (() => undefined),
    fetch,
    client: { sleep: noWait },
  });

test("the service's address is kept, saying what answered", async () => {
  expect(await check(sim.url)).toEqual({
    ok: true,
    simulated: true,
    message: `The service at ${sim.url} answers (27 metrics). It is the local simulator: demo data.`,
  });
});

test("an address holding the version is refused before any request: drop /v2, keep the part before", async () => {
  const before = sim.requestLog.length;
  const outcome = await check(`${sim.url}/v2`);
  expect(outcome).toEqual({
    ok: false,
    mayKeepUnchecked: false,
    message: `Drop /v2: the address is the part before it (${sim.url}). The add-in adds /v2/… to it for each request.`,
  });
  expect(versionInAddress("https://api.example.com/metrics/v2/projects/")).toBe(
    "Drop /v2/projects: the address is the part before it (https://api.example.com/metrics). The add-in adds /v2/… to it for each request."
  );
  expect(versionInAddress("https://api.example.com/v1")).toMatch(/^Drop \/v1: /);
  expect(versionInAddress("https://api.example.com/prefix")).toBeUndefined();
  expect(sim.requestLog.length).toBe(before);
});

test("an origin where nothing serves the interface (404) is refused: not the service's address", async () => {
  const outcome = await check(notFoundUrl);
  expect(outcome).toEqual({
    ok: false,
    mayKeepUnchecked: false,
    message: `Nothing at ${notFoundUrl} answers like the metrics service: its catalogue (/v2/metrics) is not found there (404). Enter the service's own address, the part before /v2.`,
  });
});

test("a web page is refused: something answers, not the service", async () => {
  const outcome = await check(pageUrl);
  expect(outcome).toMatchObject({ ok: false, mayKeepUnchecked: false });
  expect(outcome.message).toMatch(/^Something answers at .*, but not like the metrics service/);
});

test("no answer is refused too, but may be kept unchecked (the service may be down right now)", async () => {
  const port = await new Promise<number>((done) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port: free } = probe.address() as AddressInfo;
      probe.close(() => done(free));
    });
  });
  const outcome = await check(`http://127.0.0.1:${port}`);
  expect(outcome).toMatchObject({ ok: false, mayKeepUnchecked: true });
  expect(outcome.message).toMatch(
    /^No answer from http:\/\/127\.0\.0\.1:\d+ \(it could not be reached\)/
  );
});

test("with no key saved a stand-in is sent, never a secret; the service's 401 keeps the address", async () => {
  const sent: string[] = [];
  const recording: FetchLike = (url, init) => {
    sent.push(init.headers.Authorization ?? "");
    return fetch(url, init);
  };
  const outcome = await check(sim.url, null, recording);
  expect(outcome).toEqual({
    ok: true,
    keyRefused: true,
    message: `The service at ${sim.url} answers, and asks for a valid API key.`,
  });
  expect(sent).toEqual([`Bearer ${STAND_IN_KEY}`]);
  // A saved key is what the address will be used with: that one is sent.
  sent.length = 0;
  await check(sim.url, DEMO_API_KEY, recording);
  expect(sent).toEqual([`Bearer ${DEMO_API_KEY}`]);
});

test("a server error cannot confirm the address: refused, may be kept unchecked", async () => {
  const failing: FetchLike = async () => new Response("{}", { status: 503 });
  const outcome = await check("https://metrics.example.com", DEMO_API_KEY, failing);
  expect(outcome).toMatchObject({ ok: false, mayKeepUnchecked: true });
  expect(outcome.message).toMatch(/failed \(503\)/);
});
