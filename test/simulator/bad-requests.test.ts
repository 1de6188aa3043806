import table from "../fixtures/simulator/bad-requests.json";
import type { RunningSimulator } from "../../src/simulator";
import { get, start } from "./helpers";

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await start();
});
afterAll(() => sim.close());

describe("invalid requests", () => {
  it.each(table.cases)(
    "$path answers $status with a JSON message",
    async ({ path, status, message }) => {
      const answer = await get(sim, path);
      expect(answer.status).toBe(status);
      expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
      expect(answer.body).toEqual({ message: expect.stringContaining(message) });
    }
  );
});
