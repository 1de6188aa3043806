/**
 * The gateway under every reading of the interface (src/simulator/readings.ts): whatever shape the service
 * takes where the interface is loose (timestamps, values as strings, bare v1 lists, error bodies, rows split
 * by a member nobody asked for, …), every operation through the gateway reads, through the project's own
 * client, to what the service itself gives. Each reading gets a fresh gateway (an empty cache), so every
 * answer is one the gateway split and recomposed from what the service sent under that reading.
 */
import { createClient, isCryptometricsError } from "../../src/client";
import {
  READING_SWITCHES,
  READING_VALUES,
  startSimulator,
  type ReadingName,
  type RunningSimulator,
} from "../../src/simulator";
import { CALLS } from "./support/calls";
import { startTestGateway } from "./support/in-process";

const SERVICE_KEY = "cm_service_key_readings_5d2";
const TOKEN = "tok_readings_reader_e41";

let simulator: RunningSimulator;

beforeAll(async () => {
  simulator = await startSimulator({
    port: 0,
    rateLimit: null,
    apiKeys: [SERVICE_KEY],
    today: "2026-11-20",
  });
});

afterAll(async () => {
  await simulator?.close();
});

/**
 * What a call gives: its data and errors, or, where the service itself refuses the request under a reading
 * (the client asks in one form), the kind and status of the failure, which the gateway must give alike.
 */
async function outcome(
  call: Promise<{ data: unknown; errors: readonly unknown[] }>
): Promise<unknown> {
  try {
    const { data, errors } = await call;
    return { data, errors };
  } catch (error) {
    if (!isCryptometricsError(error)) throw error;
    return { failed: error.kind, status: error.status };
  }
}

/** The default readings first, then every other value of every switch. */
const READINGS: Array<[ReadingName | "(defaults)", string]> = [
  ["(defaults)", ""],
  ...READING_SWITCHES.flatMap((s) =>
    (READING_VALUES[s.name] as readonly string[])
      .slice(1)
      .map((v): [ReadingName, string] => [s.name, v])
  ),
];

describe("every operation through the gateway, under every reading of the interface", () => {
  it.each(READINGS)("%s %s: the same data and errors as the service", async (name, value) => {
    simulator.setKnobs({ readings: undefined });
    if (name !== "(defaults)") simulator.setKnobs({ readings: { [name]: value } });
    const gw = await startTestGateway({
      serviceUrl: simulator.url,
      serviceKey: SERVICE_KEY,
      tokens: { reader: TOKEN },
      logLevel: "silent",
    });
    try {
      const direct = createClient({ baseUrl: simulator.url, apiKey: SERVICE_KEY });
      const through = createClient({ baseUrl: gw.url, apiKey: TOKEN });
      const differing: string[] = [];
      for (const [call, run] of Object.entries(CALLS)) {
        const expected = await outcome(run(direct));
        const got = await outcome(run(through));
        try {
          expect(got).toEqual(expected);
        } catch {
          differing.push(`${call}: ${JSON.stringify(got).slice(0, 300)}`);
        }
      }
      expect(differing).toEqual([]);
    } finally {
      await gw.close();
    }
  });
});
