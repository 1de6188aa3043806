/**
 * What a team puts in front of several gateway processes (a TLS reverse proxy, a load balancer), reduced to what
 * the tests need: a TCP round robin over the processes that skips one that refuses connections.
 */
import { connect, createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export interface Balancer {
  url: string;
  close(): Promise<void>;
}

export async function startBalancer(backends: readonly string[]): Promise<Balancer> {
  const targets = backends.map((b) => new URL(b));
  let next = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.pause();
    const tryBackend = (left: number): void => {
      const target = targets[next++ % targets.length];
      const upstream = connect(Number(target.port), target.hostname);
      sockets.add(upstream);
      upstream.on("close", () => sockets.delete(upstream));
      upstream.once("connect", () => {
        upstream.on("error", () => client.destroy());
        client.on("error", () => upstream.destroy());
        client.pipe(upstream).pipe(client);
        client.resume();
      });
      upstream.once("error", () => {
        if (upstream.connecting && left > 1) tryBackend(left - 1);
        else client.destroy();
      });
    };
    tryBackend(targets.length);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((done) => {
        for (const s of sockets) s.destroy();
        server.close(() => done());
      }),
  };
}
