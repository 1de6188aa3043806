import table from "../fixtures/simulator/bad-requests.json";
import type { RunningSimulator } from "../../src/simulator";
import { get, start } from "./helpers";

let sim: RunningSimulator;
let said: RunningSimulator;
beforeAll(async () => {
  sim = await start();
  said = await start({ readings: { errorBodies: "json" } });
});
afterAll(() => Promise.all([sim.close(), said.close()]));

describe("invalid requests", () => {
  it.each(table.cases)(
    "$path answers $status, with no body by default and a JSON message under errorBodies=json",
    async ({ path, status, message }) => {
      // The interface shows no body for 400 and 404 (§7): by default there is none.
      const bare = await get(sim, path);
      expect(bare.status).toBe(status);
      expect(bare.text).toBe("");
      const answer = await get(said, path);
      expect(answer.status).toBe(status);
      expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
      expect(answer.body).toEqual({ message: expect.stringContaining(message) });
    }
  );
});
