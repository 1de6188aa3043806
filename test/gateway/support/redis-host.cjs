/**
 * The host of a jest worker's redis-server (test/support/worker-services.cjs): `node redis-host.cjs
 * '{"processes": "<build>/tools/bench/gateway-processes.js"}'` starts one with the gateway's own helper
 * (startRedis: Debian's redis-server on a free loopback port, nothing saved to disk), prints {"port": N}, and
 * stops it when its standard input closes (the worker has ended).
 */
const { processes } = JSON.parse(process.argv[2] ?? "{}");

async function main() {
  const { startRedis } = require(processes);
  const redis = await startRedis();
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    redis.stop("SIGKILL").finally(() => process.exit(0));
  };
  process.stdin.on("end", stop);
  process.stdin.on("close", stop);
  process.stdin.resume();
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, stop);
  process.stdout.write(`${JSON.stringify({ port: redis.port })}\n`);
}

main().catch((error) => {
  process.stdout.write(
    `${JSON.stringify({ error: `redis-server did not start: ${error.message}` })}\n`
  );
  process.exit(1);
});
