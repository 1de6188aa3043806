import { readFileSync } from "node:fs";
import https from "node:https";
import path from "node:path";
import { DEMO_API_KEY, SIMULATED_HEADER } from "../../src/simulator";
import { start } from "./helpers";

const FIXTURES = path.join(__dirname, "..", "fixtures", "simulator");
const cert = readFileSync(path.join(FIXTURES, "test-only-localhost.crt"));
const key = readFileSync(path.join(FIXTURES, "test-only-localhost.key"));

it("serves HTTPS with the given certificate (as npm start does with the dev certificates)", async () => {
  const sim = await start({ https: { cert, key } });
  try {
    expect(sim.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const { status, simulated, body } = await new Promise<{
      status?: number;
      simulated?: string | string[];
      body: string;
    }>((resolve, reject) => {
      const request = https.get(
        `${sim.url}/v2/market-sectors`,
        { ca: cert, headers: { Authorization: `Bearer ${DEMO_API_KEY}` } },
        (response) => {
          let text = "";
          response.on("data", (chunk: Buffer) => (text += chunk.toString()));
          response.on("end", () =>
            resolve({
              status: response.statusCode,
              simulated: response.headers[SIMULATED_HEADER],
              body: text,
            })
          );
        }
      );
      request.on("error", reject);
    });
    expect(status).toBe(200);
    expect(simulated).toBe("true");
    expect((JSON.parse(body) as { data: unknown[] }).data.length).toBeGreaterThanOrEqual(8);
  } finally {
    await sim.close();
  }
});
