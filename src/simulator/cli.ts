/**
 * Entry of `npm run simulator`: starts the simulator alone with flags/environment (see cli-options.ts),
 * prints where it listens and the demo key, logs requests to stderr, and stops cleanly on Ctrl+C.
 */
import { banner, SimulatorOptionError, parseCliOptions, USAGE } from "./cli-options";
import { startSimulator } from "./server";
import { messageOf } from "../client";

async function main(): Promise<void> {
  const cli = parseCliOptions(process.argv.slice(2), process.env);
  if (cli.help) {
    process.stdout.write(USAGE);
    return;
  }
  const sim = await startSimulator({
    ...cli.simulator,
    onRequest: cli.quiet
      ? undefined
      : (entry) =>
          process.stderr.write(
            `${new Date(entry.at).toISOString()} ${entry.method} ${entry.path} ${entry.status || "-"}\n`
          ),
  });
  process.stdout.write(`${banner(sim, cli.simulator)}\n`);
  const stop = () => {
    process.stdout.write("Stopping the simulator...\n");
    void sim.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  const { code, port } = error as { code?: unknown; port?: unknown };
  const taken = code === "EADDRINUSE";
  const message =
    error instanceof SimulatorOptionError
      ? `${error.message}\n\n${USAGE}`
      : taken
        ? `port ${typeof port === "number" ? port : ""} is taken: npm start runs a simulator of its own (its URL is in its output), so stop npm start first, or give this one another port with --port N`
        : messageOf(error);
  process.stderr.write(`simulator: ${message}\n`);
  process.exitCode = 2;
});
