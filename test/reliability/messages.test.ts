/**
 * What a user reads in a failed cell: a message within Excel's tooltip length that always ends with what to
 * do, however long the details (a request for forty projects names them all).
 */
import { openLab, type Lab } from "../harness/faults/lab";
import { HEALTHY } from "../harness/faults/scenarios";
import { createDataset, type SimulatorKnobs } from "../../src/simulator";
import { evaluate, type Formula } from "../harness/faults/workbook";

let lab: Lab;
beforeAll(async () => {
  lab = await openLab();
});
afterAll(() => lab.close());

const grid: Formula[] = createDataset("2026-11-20")
  .projects.filter((p) => p.metrics.includes("fees"))
  .slice(0, 40)
  .map((p, i) => ({ address: `M!A${i + 1}`, name: "VALUE", args: [p.id, "fees", "2025-06-30"] }));

const faults: Array<[string, Partial<SimulatorKnobs>, RegExp]> = [
  ["a 5xx outage", { fraction5xx: 1 }, /Use Refresh once it is back\.$/],
  ["connection resets", { fault: "reset" }, /Use Refresh once it is back\.$/],
  // The service answered, unreadably: not "could not be reached" (the answer came), and two pieces of advice.
  [
    "a captive portal",
    { fault: "html-200" },
    /^The service's answer could not be read: .*Use Refresh later; if it persists, check the service address in the Cryptometrics taskpane \(Settings\)\.$/,
  ],
  [
    "a redirect loop",
    { fault: "redirect-loop" },
    /^The service's answer could not be read: .*Use Refresh later; if it persists, check the service address/,
  ],
  ["hanging requests", { hang: true }, /Use Refresh once it is back\.$/],
  [
    "a 429 storm",
    { fraction429: 1 },
    /^The service is still rate-limiting after retries; use Refresh/,
  ],
];

describe("error messages under faults", () => {
  it.each(faults)("say what to do after %s, within 250 characters", async (_, knobs, advice) => {
    lab.setKnobs(HEALTHY);
    lab.reset();
    // The catalogues come first, so that the failing request is the long one for forty projects.
    await evaluate(lab, [{ address: "M!Z1", name: "VALUE", args: ["aave", "fees", "2020-01-01"] }]);
    lab.setKnobs(knobs);
    const cells = await evaluate(lab, grid);
    for (const cell of cells) {
      expect(cell).toMatchObject({ ok: false, code: "#N/A" });
      if (cell.ok) continue;
      expect(cell.message.length).toBeLessThanOrEqual(250);
      expect(cell.message).toMatch(advice);
      // What failed, in words: no client call label ("getMetric(fees; …)") in a cell.
      expect(cell.message).toMatch(/fees data for /);
      expect(cell.message).not.toMatch(/getMetric/);
    }
  });

  it("name the service's failure when the deadline cuts the retries short in the limiter's queue", async () => {
    // One request a minute: the second retry would start after the two-minute deadline.
    lab.setKnobs({ ...HEALTHY, fraction5xx: 1 });
    lab.reset({ rateLimitPerMinute: 1 });
    const started = lab.time.now();
    const error = await lab.drive(lab.runtime.client.listProjects()).catch((e: unknown) => e);
    expect(error).toMatchObject({
      kind: "server",
      attempts: 2,
      message: expect.stringMatching(
        /^listProjects\(\): service error \(HTTP 50[023]\).*\(gave up after 2 attempts; the call's deadline passed before the next attempt\)$/
      ),
    });
    expect(lab.time.now() - started).toBe(120_000);
    const [cell] = await evaluate(lab, [grid[0]]);
    expect(!cell.ok && cell.message).toMatch(/service error \(HTTP 50[023]\)/);
  });

  it("say where to set the key when the service refuses it, within 250 characters", async () => {
    lab.setKnobs(HEALTHY);
    lab.reset({ apiKey: "sk_wrong_key_0123456789" });
    const cells = await evaluate(lab, grid.slice(0, 3));
    for (const cell of cells) {
      expect(cell).toMatchObject({ ok: false, code: "#VALUE!" });
      if (cell.ok) continue;
      expect(cell.message.length).toBeLessThanOrEqual(250);
      expect(cell.message).toMatch(/HTTP 401.*(--api-key|taskpane)/);
      expect(cell.message).not.toContain("sk_wrong_key_0123456789");
    }
  });
});
