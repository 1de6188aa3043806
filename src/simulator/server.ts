/** Starting and stopping the simulator: an HTTP(S) server on loopback around the request pipeline. */
import http from "node:http";
import https from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { DEMO_API_KEY } from "./constants";
import { initialKnobs, mergeKnobs } from "./knobs";
import { MAX_PROJECTS } from "./data/synthetic";
import { createPipeline } from "./pipeline";
import type { RequestLogEntry, RunningSimulator, SimulatorKnobs, SimulatorOptions } from "./types";
import { parseDate } from "./util/days";
import { mulberry32 } from "./util/prng";

/** What the HTTP server and the in-process simulator share: the pipeline, its log, knobs and timers. */
interface SimulatorCore {
  pipeline: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;
  requestLog: RequestLogEntry[];
  clearLog: () => void;
  setKnobs: (update: Partial<SimulatorKnobs>) => void;
  /** Settles every pending delay (as dropped) and refuses new ones. */
  stop: () => void;
}

/** The simulator without a socket: its options checked, its pipeline built. */
export function simulatorCore(options: SimulatorOptions = {}): SimulatorCore {
  const now = options.now ?? Date.now;
  const apiKeys = options.apiKeys ?? [DEMO_API_KEY];
  if (apiKeys.length === 0 || apiKeys.some((k) => k.length === 0))
    throw new Error("startSimulator: apiKeys must be non-empty strings");
  const projects = options.projects;
  if (
    projects !== undefined &&
    !(Number.isInteger(projects) && projects >= 0 && projects <= MAX_PROJECTS)
  )
    throw new Error(`startSimulator: projects must be an integer from 0 to ${MAX_PROJECTS}`);
  let knobs = initialKnobs(options);
  const requestLog: RequestLogEntry[] = [];
  const timers = new Set<{ timer: NodeJS.Timeout; resolve: (ran: boolean) => void }>();
  let closed = false;

  if (options.today !== undefined && parseDate(options.today) === undefined)
    throw new Error(`startSimulator: today must be YYYY-MM-DD, got "${options.today}"`);
  const pipeline = createPipeline({
    now,
    today: options.today,
    apiKeys,
    knobs: () => knobs,
    random: mulberry32(options.seed ?? 1),
    log: (entry) => {
      requestLog.push(entry);
      const max = options.maxLogEntries;
      if (max !== undefined && requestLog.length > max)
        requestLog.splice(0, requestLog.length - max);
    },
    answered: (entry) => options.onRequest?.(entry),
    projects: options.projects,
    delay: (ms) =>
      new Promise<boolean>((resolve) => {
        if (closed) return resolve(false);
        const pending = {
          timer: setTimeout(() => {
            timers.delete(pending);
            resolve(!closed);
          }, ms),
          resolve,
        };
        timers.add(pending);
      }),
  });
  return {
    pipeline,
    requestLog,
    clearLog: () => {
      requestLog.length = 0;
    },
    setKnobs: (update: Partial<SimulatorKnobs>) => {
      knobs = mergeKnobs(knobs, update);
    },
    stop: () => {
      closed = true;
      for (const pending of timers) {
        clearTimeout(pending.timer);
        pending.resolve(false);
      }
      timers.clear();
    },
  };
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const core = simulatorCore(options);
  const sockets = new Set<Socket>();
  let closed = false;
  const listener = (req: http.IncomingMessage, res: http.ServerResponse) => {
    core.pipeline(req, res).catch((error: unknown) => {
      // The pipeline answers its own errors; reaching here means the socket broke mid-answer.
      if (!res.headersSent) res.writeHead(500).end();
      void error;
    });
  };
  const server = options.https
    ? https.createServer({ key: options.https.key, cert: options.https.cert }, listener)
    : http.createServer(listener);
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(":") ? `[${host}]` : host === "0.0.0.0" ? "127.0.0.1" : host;

  return {
    url: `${options.https ? "https" : "http"}://${urlHost}:${port}`,
    requestLog: core.requestLog,
    clearLog: core.clearLog,
    setKnobs: core.setKnobs,
    close: () => {
      if (closed) return Promise.resolve();
      closed = true;
      core.stop();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Hanging requests and idle keep-alive connections would keep close() waiting forever.
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}
