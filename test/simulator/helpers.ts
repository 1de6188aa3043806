/** Shared by the simulator tests: a simulator on port 0 with a fixed clock, and a small HTTP helper. */
import {
  DEMO_API_KEY,
  startSimulator,
  type RunningSimulator,
  type SimulatorOptions,
} from "../../src/simulator";

/** 2025-06-15 12:00 UTC: the dataset's "today" in every test unless a test moves the clock. */
export const FIXED_NOW = Date.UTC(2025, 5, 15, 12);
export const TODAY = "2025-06-15";

export function start(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  return startSimulator({ port: 0, now: () => FIXED_NOW, rateLimit: null, ...options });
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed body (undefined when the body is not JSON). */
  body: unknown;
}

export async function get(
  sim: RunningSimulator,
  path: string,
  init: RequestInit = {}
): Promise<Answer> {
  const response = await fetch(`${sim.url}${path}`, {
    redirect: "manual",
    ...init,
    headers: {
      Authorization: `Bearer ${DEMO_API_KEY}`,
      ...(init.headers as Record<string, string> | undefined),
    },
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body };
}

export type Row = Record<string, unknown>;

interface Payload {
  data: Row[];
  errors?: Row[];
}

/** GET that must answer 200 with `{data: [...]}`. */
export async function getList(sim: RunningSimulator, path: string): Promise<Payload> {
  const answer = await get(sim, path);
  if (answer.status !== 200)
    throw new Error(`${path} answered ${answer.status}: ${answer.text.slice(0, 200)}`);
  const payload = answer.body as Payload;
  if (!Array.isArray(payload.data)) throw new Error(`${path}: data is not an array`);
  return payload;
}

export async function getObject(sim: RunningSimulator, path: string): Promise<Row> {
  const answer = await get(sim, path);
  if (answer.status !== 200)
    throw new Error(`${path} answered ${answer.status}: ${answer.text.slice(0, 200)}`);
  return (answer.body as { data: Row }).data;
}

/** A metric value as sent (number, numeric string or null) as a number or null. */
export function num(value: unknown): number | null {
  if (value === null) return null;
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)))
    return Number(value);
  throw new Error(`Not a metric value: ${JSON.stringify(value)}`);
}

/** |a - b| small relative to their size. */
export function expectClose(actual: number | null, expected: number | null, relative = 1e-9): void {
  if (expected === null || actual === null) {
    expect(actual).toBe(expected);
    return;
  }
  const scale = Math.max(1, Math.abs(expected));
  expect(Math.abs(actual - expected) / scale).toBeLessThan(relative);
}

/** Sum of non-null values (in the given order). */
export function sum(values: readonly (number | null)[]): number {
  let total = 0;
  for (const v of values) if (v !== null) total += v;
  return total;
}

export function date(row: Row): string {
  return String(row.timestamp ?? row.date).slice(0, 10);
}
