/**
 * The hostile-service lab: the hostile service (server.ts) in front of the simulator, a second origin that
 * records whatever reaches it (where a redirect points), the command-line evaluator run in its own process
 * (memory measured), and the shared runtime on virtual time (backoff spacing and deadlines measured without
 * waiting for them). Used by the hostile-service tests and by `npm run faults`.
 */
import { setLogSink, type LogRecord } from "../../../src/client";
import { openLab, type Lab } from "../faults/lab";
import { evaluate, type CellResult, type Formula } from "../faults/workbook";
import { runCli, type CliRun } from "./cli-run";
import { startHostileService, type Attack, type HostileService } from "./server";

/** 64 characters, so that every cut of it from 8 to 64 characters is a different text. */
const LAB_KEY = "cm_live_7Qx9Tb2LmZ4pRv8Wn3Ks6Hd1Yf5Gc0Je7Ua2Oi9Pl4Xt6Bq8Nw3Mr5Vz";

export interface HostileLabOptions {
  /** The compiled CLI and peak-rss.js (see cli-run.ts). */
  cliPath: string;
  peakRssPath: string;
}

export interface CliOutcome extends CliRun {
  /** Requests the hostile service received. */
  requests: number;
}

export interface RuntimeOutcome {
  cells: CellResult[];
  /** Each request the client started: virtual ms from the start of the run, and its path. */
  starts: Array<{ ms: number; path: string }>;
  /** What a person could see: cell messages, logs, diagnostics, client events. */
  visible: string;
}

export interface HostileLab {
  readonly key: string;
  /** The compiled CLI and peak-rss.js, for attacks that start the CLI their own way. */
  readonly paths: HostileLabOptions;
  readonly service: HostileService;
  /** Another origin (localhost instead of 127.0.0.1): what reaches it is recorded. */
  readonly elsewhere: HostileService;
  /** The evaluator in its own process, the service under `attack` on the paths matching `paths`. */
  cli(
    formulas: readonly string[],
    attack: Attack,
    options?: {
      paths?: RegExp;
      format?: "table" | "csv" | "json";
      flags?: readonly string[];
      timeoutMs?: number;
    }
  ): Promise<CliOutcome>;
  /** The formulas through the shared runtime on virtual time, the service under `attack`. */
  runtime(formulas: readonly Formula[], attack: Attack, paths?: RegExp): Promise<RuntimeOutcome>;
  readonly virtual: Lab;
  close(): Promise<void>;
}

export async function openHostileLab(options: HostileLabOptions): Promise<HostileLab> {
  const virtual = await openLab({ apiKey: LAB_KEY });
  const service = await startHostileService({ upstream: virtual.sim.url });
  const elsewhere = await startHostileService({ upstream: virtual.sim.url, host: "localhost" });
  const arm = (attack: Attack, paths: RegExp | undefined): void => {
    service.attack = attack;
    service.paths = paths ?? /./;
    service.seen.length = 0;
    elsewhere.seen.length = 0;
  };
  return {
    key: LAB_KEY,
    paths: options,
    service,
    elsewhere,
    virtual,
    cli: async (formulas, attack, o = {}) => {
      arm(attack, o.paths);
      const run = await runCli(formulas, {
        cliPath: options.cliPath,
        peakRssPath: options.peakRssPath,
        baseUrl: service.url,
        apiKey: LAB_KEY,
        format: o.format,
        flags: o.flags,
        timeoutMs: o.timeoutMs,
      });
      return { ...run, requests: service.seen.length };
    },
    runtime: async (formulas, attack, paths) => {
      arm(attack, paths);
      const runtime = virtual.reset({ baseUrl: service.url, apiKey: LAB_KEY });
      // Bodies that trickle or never end only end by a time-out: they must not hold virtual time still.
      const attacked = paths ?? /./;
      virtual.io.park((url) => attack.kind === "slow-body" && attacked.test(new URL(url).pathname));
      const logs: LogRecord[] = [];
      const previous = setLogSink((record) => logs.push(record));
      const startedAt = virtual.time.now();
      try {
        const cells = await evaluate(virtual, formulas);
        const visible = [
          JSON.stringify(cells),
          JSON.stringify(logs),
          JSON.stringify(virtual.events),
          JSON.stringify(runtime.diagnostics.export()),
        ].join("\n");
        return {
          cells,
          starts: virtual.starts.map((s) => ({
            ms: s.at - startedAt,
            path: new URL(s.url).pathname,
          })),
          visible,
        };
      } finally {
        setLogSink(previous);
        virtual.io.park(() => false);
      }
    },
    close: async () => {
      await Promise.all([service.close(), elsewhere.close()]);
      await virtual.close();
    },
  };
}
