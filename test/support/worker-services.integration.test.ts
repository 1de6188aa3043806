/**
 * The jest worker's long-lived services (worker-services.cjs): started once, handed to every file the worker runs,
 * and gone, with their temporary files, when the worker ends.
 */
import { spawn } from "child_process";
import { existsSync, readdirSync } from "fs";
import { connect } from "net";
import { join } from "path";
import { Redis } from "ioredis";
import { chromium } from "playwright-core";
import { BROWSER_HOST, launch, launchSettings } from "../e2e/support/browser";
import { workerRedis } from "../gateway/support/worker-redis";
import { ensureNodeBuild } from "./node-build";

type WorkerService = (script: string, options: object) => Promise<string>;
const service = (globalThis as { __cmWorkerService?: WorkerService }).__cmWorkerService;
const REDIS_HOST = join(__dirname, "../gateway/support/redis-host.cjs");

function listening(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => done(socket.destroy() && true));
    socket.once("error", () => done(false));
  });
}

/** A host started as the worker starts it; its line, and a way to close its standard input. */
async function host(script: string, options: object) {
  const child = spawn(process.execPath, [script, JSON.stringify(options)], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const line = await new Promise<string>((done) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) done(out.slice(0, out.indexOf("\n")));
    });
  });
  const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
  return { line, end: () => (child.stdin.end(), exited) };
}

it("is handed to every file by the test environment", () => {
  expect(typeof service).toBe("function");
});

describe("the worker's Chromium", () => {
  it("is one browser for every launch with the same options, left running when a file disconnects", async () => {
    const line = await service!(BROWSER_HOST, launchSettings());
    expect(await service!(BROWSER_HOST, launchSettings())).toBe(line);
    const first = await launch();
    const page = await (await first.newContext()).newPage();
    await page.setContent("<p id=x>one</p>");
    expect(await page.textContent("#x")).toBe("one");
    await first.close();
    // The next file's connection finds the same browser, without the last one's contexts.
    const next = await launch();
    expect(next.contexts()).toEqual([]);
    expect(await (await next.newContext()).newPage().then((p) => p.evaluate(() => 1 + 1))).toBe(2);
    expect(await service!(BROWSER_HOST, launchSettings())).toBe(line);
    await next.close();
  }, 60_000);

  it("stops, and leaves no profile behind, when its host's standard input closes", async () => {
    const { line, end } = await host(BROWSER_HOST, {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu"],
    });
    const { wsEndpoint } = JSON.parse(line) as { wsEndpoint: string };
    const browser = await chromium.connect(wsEndpoint);
    expect(browser.isConnected()).toBe(true);
    const gone = new Promise<void>((done) => browser.on("disconnected", () => done()));
    expect(await end()).toBe(0);
    await gone;
    // This file's temporary directory (environment.cjs) was the host's TMPDIR: nothing of Chromium is left there.
    expect(
      readdirSync(process.env.TMPDIR ?? "/tmp").filter((n) => n.startsWith("cm-browser-"))
    ).toEqual([]);
  }, 60_000);
});

describe("the worker's redis-server", () => {
  it("is one server, emptied before it is handed out", async () => {
    const first = await workerRedis();
    const client = new Redis(first.url);
    await client.set("cm:left-over", "1");
    const second = await workerRedis();
    expect(second.url).toBe(first.url);
    expect(await client.get("cm:left-over")).toBeNull();
    client.disconnect();
  });

  it("stops, and leaves no files behind, when its host's standard input closes", async () => {
    const processes = join(await ensureNodeBuild(), "tools", "bench", "gateway-processes.js");
    const { line, end } = await host(REDIS_HOST, { processes });
    const { port } = JSON.parse(line) as { port: number };
    expect(await listening(port)).toBe(true);
    const dirs = readdirSync(process.env.TMPDIR ?? "/tmp").filter((n) => n.startsWith("cm-redis-"));
    expect(dirs).toHaveLength(1);
    expect(await end()).toBe(0);
    expect(await listening(port)).toBe(false);
    expect(existsSync(join(process.env.TMPDIR ?? "/tmp", dirs[0]))).toBe(false);
  });
});
