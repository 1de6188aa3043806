/**
 * `npm run gateway -- FLAGS`: the team gateway as a process (options.ts lists the flags). Prints one line,
 * "Gateway listening on http://HOST:PORT", once it serves; logs (JSON, pino) go to stderr. SIGTERM or SIGINT:
 * it stops taking requests, lets those in flight finish, then exits 0.
 */
import { TokensFile } from "./auth/tokens-file";
import { EntraVerifier } from "./auth/entra";
import type { Verifier } from "./auth/verifier";
import { isLoopbackHost } from "../client";
import { signInConfigOf } from "./sign-in-config";
import { GatewayOptionError, parseGatewayOptions, USAGE } from "./options";
import { createGateway } from "./server";

async function main(): Promise<number> {
  let options;
  try {
    options = parseGatewayOptions(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof GatewayOptionError)) throw error;
    process.stderr.write(`gateway: ${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const notes: Array<["info" | "warn" | "error", string]> = [];
  const tokens = options.tokensFile
    ? await TokensFile.open({
        path: options.tokensFile,
        log: (level, message) => notes.push([level, message]),
      })
    : undefined;
  // Refusals of sign-in tokens are told by reason (never the token) once the log exists.
  let onRefused: (reason: string) => void = () => undefined;
  const entra = options.entra
    ? new EntraVerifier({ ...options.entra, onRefused: (reason) => onRefused(reason) })
    : undefined;
  const verifiers: Verifier[] = [...(tokens ? [tokens] : []), ...(entra ? [entra] : [])];
  const gateway = await createGateway({
    serviceUrl: options.serviceUrl,
    serviceKey: options.serviceKey,
    verifiers,
    ...(options.userKeyKek ? { userKeyKek: options.userKeyKek } : {}),
    requireUserKeys: options.requireUserKeys,
    shareAnswersAcrossKeys: options.shareAnswersAcrossKeys,
    dailyRefresh: options.dailyRefresh,
    admins: options.admins,
    metricsReaders: options.metricsReaders,
    ...(options.entra?.addinClientId ? { signIn: signInConfigOf(options.entra) } : {}),
    ...(options.redis ? { redis: options.redis } : {}),
    processes: options.processes,
    rateLimit: options.rateLimit,
    windowMs: options.windowMs,
    openMs: options.openMs,
    logLevel: options.logLevel,
  });
  const log = gateway.app.log;
  // Notes from before the log existed, and the tokens file's later ones, go to the log.
  const toLog = (level: "info" | "warn" | "error", message: string): void => log[level](message);
  for (const [level, message] of notes) toLog(level, message);
  tokens?.logTo(toLog);
  onRefused = (reason) => log.info({ auth: "entra", refused: reason }, "sign-in token refused");
  for (const note of options.notes) log.warn(note);
  if (entra)
    log.info(
      {
        tenants: options.entra?.tenants.length,
        userKeys: options.userKeyKek ? (options.requireUserKeys ? "required" : "optional") : "off",
      },
      "sign-in with Microsoft 365 is on"
    );
  if (options.userKeyKek && !options.redis)
    log.warn(
      "per-user keys are kept in this process's memory (no --redis): they are lost when it stops"
    );
  if (!isLoopbackHost(options.host))
    log.warn(
      `listening on ${options.host}: the gateway speaks plain HTTP; put it behind the TLS reverse proxy that serves the add-in (see its README)`
    );
  if (tokens && tokens.size === 0 && !entra)
    log.warn(`the tokens file ${options.tokensFile} holds no token yet: every request gets 401`);

  const url = await gateway.listen(options.port, options.host);
  process.stdout.write(`Gateway listening on ${url}\n`);

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: finishing the requests under way, then exiting`);
    gateway.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error(
          { err: { message: error instanceof Error ? error.message : String(error) } },
          "stopping failed"
        );
        process.exit(1);
      }
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  return -1;
}

main().then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`gateway: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
);
