/**
 * A real Sentinel-watched Redis for a test file, from Debian's redis-server: a primary, one replica
 * (`--replicaof`) and `sentinels` Sentinels (`redis-server <conf> --sentinel`, quorum a majority of them), each on
 * a free loopback port, nothing saved to disk (no RDB, no AOF; the replica loads its copy in memory), every file
 * in one temporary folder (a Sentinel must have a config file it may rewrite). The Sentinels take a primary as
 * down after 1 s without an answer and give a failover 5 s, so one takes a few seconds.
 * Ready once every Sentinel names the primary, knows the replica and the other Sentinels, and the replica is in
 * sync. `failover()` asks a Sentinel for a failover (SENTINEL FAILOVER: the replica is promoted at once) and
 * resolves once every Sentinel names the new primary and it answers as a master; the old primary is made a
 * replica of it by the Sentinels some seconds later (`settled()` waits for that).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import {
  REDIS_SERVER,
  freeLoopbackPort,
  launchRedis,
  stopRedisProcesses,
} from "../../../src/tools/bench/gateway-processes";

export interface SentinelNode {
  port: number;
  url: string;
}

export interface RedisSentinelSet {
  /** The name the Sentinels monitor the primary under (--redis-sentinel-name). */
  name: string;
  /** The Sentinels' URLs, the list the gateway takes (--redis-sentinel). */
  urls: string[];
  /** The two data nodes, the primary first at the start. */
  nodes: SentinelNode[];
  /** The node the Sentinels name as primary now. */
  primary(): Promise<SentinelNode>;
  /** Empties the primary (FLUSHALL; the replica follows): a set with nothing in it, as a fresh one. */
  flush(): Promise<void>;
  /** The replica takes over (SENTINEL FAILOVER); resolves once every Sentinel names it and it is a master. */
  failover(): Promise<{ from: SentinelNode; to: SentinelNode }>;
  /** Resolves once the other node replicates the primary again, in sync (after a failover: the old primary). */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

/** Polls `test` every 100 ms until it holds; throws `what` after `ms`. */
async function until(what: string, ms: number, test: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await test().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** One command to one node, on a connection of its own. */
async function ask(port: number, ...args: string[]): Promise<unknown> {
  const client = new Redis({ port, host: "127.0.0.1", maxRetriesPerRequest: 1, lazyConnect: true });
  client.on("error", () => undefined);
  try {
    await client.connect();
    return await client.call(args[0], ...args.slice(1));
  } finally {
    client.disconnect();
  }
}

/** SENTINEL replies of a list of fields (name, value, name, value…) as an object. */
function fields(flat: unknown): Record<string, string> {
  const list = flat as string[];
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < list.length; i += 2) out[list[i]] = list[i + 1];
  return out;
}

function launchSentinel(port: number, config: string): Promise<ChildProcess> {
  return new Promise((done, fail) => {
    const child = spawn(REDIS_SERVER, [config, "--sentinel"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      fail(
        new Error(`redis-server --sentinel (port ${port}) did not start within 10 s:\n${output}`)
      );
    }, 10_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      // A Sentinel prints no "Ready to accept connections": it says when it monitors the primary.
      if (/\+monitor master/.test(output)) {
        clearTimeout(timer);
        child.stdout?.off("data", onData);
        child.stdout?.resume();
        done(child);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", (error) => {
      clearTimeout(timer);
      fail(new Error(`${REDIS_SERVER} could not be started as a Sentinel: ${error.message}`));
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`redis-server --sentinel exited (${code}) before it was ready:\n${output}`));
    });
  });
}

export async function startRedisSentinel(
  options: { sentinels?: 1 | 3; name?: string } = {}
): Promise<RedisSentinelSet> {
  const count = options.sentinels ?? 3;
  const name = options.name ?? "cm-primary";
  const quorum = Math.floor(count / 2) + 1;
  const dir = mkdtempSync(join(tmpdir(), "cm-redis-sentinel-"));
  const children: ChildProcess[] = [];
  const cleanup = (): void => {
    for (const c of children) c.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  };
  const nodes: SentinelNode[] = [];
  const sentinels: number[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      const port = await freeLoopbackPort();
      children.push(
        await launchRedis(
          port,
          dir,
          i === 0
            ? []
            : // The replica loads the primary's copy in memory, never through a file.
              ["--replicaof", "127.0.0.1", String(nodes[0].port), "--repl-diskless-load", "swapdb"]
        )
      );
      nodes.push({ port, url: `redis://127.0.0.1:${port}` });
    }
    const inSync = async (replica: number): Promise<boolean> =>
      /master_link_status:up/.test((await ask(replica, "INFO", "replication")) as string);
    await until("the replica never came in sync", 20_000, () => inSync(nodes[1].port));
    for (let i = 0; i < count; i++) {
      const port = await freeLoopbackPort();
      const config = join(dir, `sentinel-${port}.conf`);
      writeFileSync(
        config,
        [
          `port ${port}`,
          "bind 127.0.0.1",
          `dir ${dir}`,
          `sentinel monitor ${name} 127.0.0.1 ${nodes[0].port} ${quorum}`,
          `sentinel down-after-milliseconds ${name} 1000`,
          `sentinel failover-timeout ${name} 5000`,
          "",
        ].join("\n")
      );
      children.push(await launchSentinel(port, config));
      sentinels.push(port);
    }
    // Every Sentinel names the primary, has seen the replica, and knows the others (so a failover's new
    // configuration reaches them all).
    await until("the Sentinels never agreed", 30_000, async () => {
      for (const port of sentinels) {
        const master = fields(await ask(port, "SENTINEL", "MASTER", name));
        if (
          master.port !== String(nodes[0].port) ||
          master["num-slaves"] !== "1" ||
          master["num-other-sentinels"] !== String(count - 1)
        )
          return false;
      }
      return true;
    });
  } catch (error) {
    cleanup();
    throw error;
  }
  process.once("exit", cleanup);
  const byPort = (port: number): SentinelNode => {
    const node = nodes.find((n) => n.port === port);
    if (!node) throw new Error(`no node on port ${port}`);
    return node;
  };
  const named = async (sentinel: number): Promise<number> =>
    Number(((await ask(sentinel, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", name)) as string[])[1]);
  const primary = async (): Promise<SentinelNode> => byPort(await named(sentinels[0]));
  const role = async (port: number): Promise<string> => ((await ask(port, "ROLE")) as string[])[0];
  return {
    name,
    urls: sentinels.map((port) => `redis://127.0.0.1:${port}`),
    nodes,
    primary,
    async flush() {
      const now = await primary();
      await ask(now.port, "FLUSHALL");
    },
    async failover() {
      const from = await primary();
      const to = nodes.find((n) => n !== from) ?? nodes[1];
      // Refused (NOGOODSLAVE) while the Sentinel has not yet seen the replica in sync since the last change.
      await until("no Sentinel took the failover", 30_000, async () => {
        await ask(sentinels[0], "SENTINEL", "FAILOVER", name);
        return true;
      });
      await until("the Sentinels never named the new primary", 30_000, async () => {
        for (const port of sentinels) if ((await named(port)) !== to.port) return false;
        return (await role(to.port)) === "master";
      });
      return { from, to };
    },
    async settled() {
      const now = await primary();
      const other = nodes.find((n) => n !== now) ?? nodes[1];
      // The Sentinels turn a stale primary into a replica some 8 s after the switch, at their next look.
      await until("the other node never rejoined as a replica in sync", 60_000, async () => {
        const info = (await ask(other.port, "INFO", "replication")) as string;
        return (
          /role:slave/.test(info) &&
          new RegExp(`master_port:${now.port}\\b`).test(info) &&
          /master_link_status:up/.test(info)
        );
      });
    },
    async stop() {
      process.off("exit", cleanup);
      await stopRedisProcesses(children, dir);
    },
  };
}
