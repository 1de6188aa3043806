/**
 * A real Redis Cluster for a test file, from Debian's redis-server: `masters` primaries (and `replicas` replicas
 * of each) on free loopback ports, each `--cluster-enabled yes` with a node timeout of 2 s, nothing saved to
 * disk, joined by `redis-cli --cluster create … --cluster-yes`, ready once every node says cluster_state:ok.
 * `failover(key)` makes the replica of the primary holding `key`'s slot take over (CLUSTER FAILOVER, the
 * graceful kind: the replica catches up first, nothing written is lost).
 */
import { spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import {
  freeLoopbackPort,
  launchRedis,
  stopRedisProcesses,
} from "../../../src/tools/bench/gateway-processes";

const REDIS_CLI = process.env.REDIS_CLI_PATH ?? "/usr/bin/redis-cli";

export interface ClusterNode {
  port: number;
  url: string;
}

export interface RedisCluster {
  nodes: ClusterNode[];
  /** The seed list the gateway takes (--redis-cluster): every node. */
  urls: string[];
  /** The node serving `key`'s slot as primary now. */
  primaryOf(key: string): Promise<ClusterNode>;
  /** Empties every primary (FLUSHALL): a cluster with nothing in it, as a fresh one. */
  flush(): Promise<void>;
  /** The replica of `key`'s primary takes over (CLUSTER FAILOVER); resolves once it serves as primary. */
  failover(key: string): Promise<{ from: ClusterNode; to: ClusterNode }>;
  stop(): Promise<void>;
}

function launch(port: number, dir: string): Promise<ChildProcess> {
  return launchRedis(port, dir, [
    "--cluster-enabled",
    "yes",
    "--cluster-config-file",
    `nodes-${port}.conf`,
    "--cluster-node-timeout",
    "2000",
  ]);
}

async function clusterInfo(port: number): Promise<string> {
  const client = new Redis({ port, host: "127.0.0.1", lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    return (await client.call("CLUSTER", "INFO")) as string;
  } catch {
    return "";
  } finally {
    client.disconnect();
  }
}

/** Slot ranges and their primary and replicas, as CLUSTER SLOTS says. */
async function slots(port: number): Promise<Array<{ from: number; to: number; ports: number[] }>> {
  const client = new Redis({ port, host: "127.0.0.1", maxRetriesPerRequest: 1 });
  try {
    const raw = (await client.call("CLUSTER", "SLOTS")) as Array<
      [number, number, ...Array<[string, number]>]
    >;
    return raw.map(([from, to, ...nodes]) => ({ from, to, ports: nodes.map((n) => Number(n[1])) }));
  } finally {
    client.disconnect();
  }
}

export async function startRedisCluster(
  options: { masters?: number; replicas?: number } = {}
): Promise<RedisCluster> {
  const masters = options.masters ?? 3;
  const replicas = options.replicas ?? 0;
  const dir = mkdtempSync(join(tmpdir(), "cm-redis-cluster-"));
  const children: ChildProcess[] = [];
  const nodes: ClusterNode[] = [];
  try {
    for (let i = 0; i < masters * (1 + replicas); i++) {
      const port = await freeLoopbackPort();
      children.push(await launch(port, dir));
      nodes.push({ port, url: `redis://127.0.0.1:${port}` });
    }
    const created = spawnSync(
      REDIS_CLI,
      [
        "--cluster",
        "create",
        ...nodes.map((n) => `127.0.0.1:${n.port}`),
        "--cluster-replicas",
        String(replicas),
        "--cluster-yes",
      ],
      { encoding: "utf8", timeout: 60_000 }
    );
    if (created.status !== 0)
      throw new Error(`redis-cli --cluster create failed:\n${created.stdout}\n${created.stderr}`);
    for (let t = 0; ; t++) {
      const infos = await Promise.all(nodes.map((n) => clusterInfo(n.port)));
      if (infos.every((i) => /cluster_state:ok/.test(i))) break;
      if (t > 300) throw new Error(`the cluster never became ok:\n${infos.join("\n")}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (error) {
    for (const c of children) c.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const keyslot = async (key: string): Promise<number> => {
    const client = new Redis({ port: nodes[0].port, host: "127.0.0.1", maxRetriesPerRequest: 1 });
    try {
      return Number(await client.call("CLUSTER", "KEYSLOT", key));
    } finally {
      client.disconnect();
    }
  };
  const range = async (key: string) => {
    const slot = await keyslot(key);
    const found = (await slots(nodes[0].port)).find((r) => r.from <= slot && slot <= r.to);
    if (!found) throw new Error(`no node serves slot ${slot}`);
    return found;
  };
  /** ROLE as the node answers it: ["master", …] or ["slave", host, its primary's port, …]. */
  const roleOf = async (port: number): Promise<unknown[]> => {
    const client = new Redis({ port, host: "127.0.0.1", maxRetriesPerRequest: 1 });
    try {
      return (await client.call("ROLE")) as unknown[];
    } finally {
      client.disconnect();
    }
  };
  const byPort = (port: number): ClusterNode => {
    const node = nodes.find((n) => n.port === port);
    if (!node) throw new Error(`no node on port ${port}`);
    return node;
  };
  const cleanup = (): void => {
    for (const c of children) c.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  };
  process.once("exit", cleanup);
  return {
    nodes,
    urls: nodes.map((n) => n.url),
    async primaryOf(key) {
      return byPort((await range(key)).ports[0]);
    },
    async flush() {
      for (const node of nodes) {
        const client = new Redis({ port: node.port, host: "127.0.0.1", maxRetriesPerRequest: 1 });
        try {
          const [role] = (await client.call("ROLE")) as [string];
          if (role === "master") await client.flushall();
        } finally {
          client.disconnect();
        }
      }
    },
    async failover(key) {
      // CLUSTER SLOTS is one node's view: after an earlier failover it may name the old pair until gossip
      // reaches that node (and the old primary refuses: "send CLUSTER FAILOVER to a replica"). Asked until the
      // two nodes say so themselves: the first a master, the second its replica.
      let primary = 0;
      let replica: number | undefined;
      for (let t = 0; ; t++) {
        [primary, replica] = (await range(key)).ports;
        if (replica === undefined) throw new Error("this cluster has no replica to fail over to");
        const [primaryRole, replicaRole] = await Promise.all([roleOf(primary), roleOf(replica)]);
        if (
          primaryRole[0] === "master" &&
          replicaRole[0] === "slave" &&
          Number(replicaRole[2]) === primary
        )
          break;
        if (t > 300) throw new Error(`the nodes never agreed on the pair serving "${key}"`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const client = new Redis({ port: replica, host: "127.0.0.1", maxRetriesPerRequest: 1 });
      try {
        await client.call("CLUSTER", "FAILOVER");
        for (let t = 0; ; t++) {
          const role = (await client.call("ROLE")) as [string];
          if (role[0] === "master") break;
          if (t > 300) throw new Error("the replica never took over");
          await new Promise((r) => setTimeout(r, 100));
        }
      } finally {
        client.disconnect();
      }
      return { from: byPort(primary), to: byPort(replica) };
    },
    async stop() {
      process.off("exit", cleanup);
      await stopRedisProcesses(children, dir);
    },
  };
}
