import { DEMO_API_KEY, type RunningSimulator } from "../../src/simulator";
import { get, start } from "./helpers";

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await start();
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.setKnobs({ fault: null, faultFraction: 1 });
  sim.clearLog();
});

const PATH = "/v2/projects/aave/metrics?metric_ids=fees&start=2025-06-01";

describe("faults", () => {
  let healthy: string;
  beforeAll(async () => {
    healthy = (await get(sim, PATH)).text;
  });

  it("reset: drops the connection without an answer", async () => {
    sim.setKnobs({ fault: "reset" });
    await expect(get(sim, PATH)).rejects.toThrow();
    expect(sim.requestLog[0].status).toBe(0);
  });

  it("truncated-json: a 200 JSON response cut in the middle", async () => {
    sim.setKnobs({ fault: "truncated-json" });
    const answer = await get(sim, PATH);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    expect(answer.body).toBeUndefined();
    expect(answer.text.length).toBeGreaterThan(0);
    expect(healthy.startsWith(answer.text)).toBe(true);
  });

  it("html-200: an HTML page with status 200", async () => {
    sim.setKnobs({ fault: "html-200" });
    const answer = await get(sim, PATH);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^text\/html/);
    expect(answer.text).toMatch(/^<!DOCTYPE html>/);
  });

  it("wrong-content-type: the right JSON labelled text/plain", async () => {
    sim.setKnobs({ fault: "wrong-content-type" });
    const answer = await get(sim, PATH);
    expect(answer.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(answer.text).toBe(healthy);
  });

  it("empty-body: a 200 JSON response with nothing in it", async () => {
    sim.setKnobs({ fault: "empty-body" });
    const answer = await get(sim, PATH);
    expect(answer.status).toBe(200);
    expect(answer.text).toBe("");
  });

  it("redirect-loop: a 308 back to the same URL, which fetch gives up following", async () => {
    sim.setKnobs({ fault: "redirect-loop" });
    const answer = await get(sim, PATH);
    expect(answer.status).toBe(308);
    expect(answer.headers.get("location")).toBe(PATH);
    await expect(get(sim, PATH, { redirect: "follow" })).rejects.toThrow();
  });

  it("hits only a share of requests with faultFraction", async () => {
    sim.setKnobs({ fault: "empty-body", faultFraction: 0.5 });
    const bodies: string[] = [];
    for (let i = 0; i < 30; i++) bodies.push((await get(sim, PATH)).text);
    expect(bodies).toContain("");
    expect(bodies).toContain(healthy);
  });

  it("leaves authentication alone: a request without a key still gets a clean 401", async () => {
    sim.setKnobs({ fault: "html-200" });
    const response = await fetch(`${sim.url}${PATH}`);
    expect(response.status).toBe(401);
    // No body (the default errorBodies reading), and above all no maintenance page.
    expect(await response.text()).toBe("");
    expect(
      (await fetch(`${sim.url}${PATH}`, { headers: { Authorization: `Bearer ${DEMO_API_KEY}` } }))
        .status
    ).toBe(200);
  });
});
