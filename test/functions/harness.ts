/**
 * Runs the custom functions as Excel would, against the simulator over real HTTP on loopback: the CLI's
 * host shim stands in for Excel's CustomFunctions (the only mock, at the Office host boundary).
 */
import { installCliHost } from "../../src/cli/host";
import { configureRuntime, type RuntimeConfig } from "../../src/runtime/runtime";
import {
  createDataset,
  DEMO_API_KEY,
  startSimulator,
  type RunningSimulator,
  type SimulatorOptions,
} from "../../src/simulator";
import { formatDay } from "../../src/client/data/days";
import { serialToDay } from "../../src/sheet/excel-dates";

installCliHost();

/** The fixed "now" of every functions test: the dataset's today is 2026-11-20. */
export const NOW = Date.UTC(2026, 10, 20, 12);
export const TODAY = "2026-11-20";
export const dataset = createDataset(TODAY);

export interface Harness {
  sim: RunningSimulator;
  close(): Promise<void>;
  /** Requests the simulator received (OPTIONS excluded) since the last clearLog(). */
  requests(): string[];
}

export async function startHarness(
  config: Partial<RuntimeConfig> = {},
  simulator: Partial<SimulatorOptions> = {}
): Promise<Harness> {
  const sim = await startSimulator({ port: 0, now: () => NOW, rateLimit: null, ...simulator });
  configureRuntime({
    baseUrl: sim.url,
    apiKey: DEMO_API_KEY,
    now: () => NOW,
    client: { retry: { baseDelayMs: 1, rateLimitedBaseDelayMs: 1, maxDelayMs: 5 } },
    engine: { windowMs: 5 },
    ...config,
  });
  return {
    sim,
    close: () => sim.close(),
    requests: () => sim.requestLog.filter((r) => r.method === "GET").map((r) => r.path),
  };
}

let cell = 0;
/** A fresh invocation, as Excel passes it to @requiresAddress @cancelable functions. */
export function inv(address = `Sheet1!A${++cell}`): CustomFunctions.CancelableInvocation {
  return { address, functionName: "TEST" };
}

/**
 * The Excel error a call rejected with (as the shim builds it: code and message). `call` is what the function
 * returned: a promise, or (VALUE and ASOF answered from the cache) the value itself.
 */
export async function excelError(call: unknown): Promise<{ code: string; message: string }> {
  try {
    await call;
  } catch (error) {
    const e = error as { code: string; message: string };
    return { code: e.code, message: e.message };
  }
  throw new Error("expected the call to fail with an Excel error");
}

type Rich = { type: string; basicValue: number; numberFormat: string };

/** Readable form of a result cell: dates as "YYYY-MM-DD", errors as "#N/A: message". */
export function show(cell: unknown): unknown {
  if (cell && typeof cell === "object" && "numberFormat" in cell) {
    const r = cell as Rich;
    return r.numberFormat.includes("yy") ? formatDay(serialToDay(r.basicValue)!) : r.basicValue;
  }
  if (cell instanceof Error) return `${(cell as Error & { code: string }).code}: ${cell.message}`;
  return cell;
}

/** What a call shows in its cell: its value in readable form, or its Excel error as "#CODE: message". */
export async function shown(call: unknown): Promise<unknown> {
  try {
    return show(await call);
  } catch (error) {
    return show(error);
  }
}

export function showTable(rows: unknown[][]): unknown[][] {
  return rows.map((r) => r.map(show));
}

/** Serial of a "YYYY-MM-DD" day, as a date cell holds it. */
export function serial(day: string): number {
  return Math.round(Date.parse(`${day}T00:00:00Z`) / 86_400_000) + 25_569;
}

export function expectedDaily(projectId: string, metricId: string, start: string, end: string) {
  return dataset.daily(projectId, metricId, { start, end });
}
