import { gatewayLines } from "../../src/tools/bench/gateway-report";
import type { GatewayBenchResult, GatewayRow } from "../../src/tools/bench/gateway-bench";

const row = (over: Partial<GatewayRow>): GatewayRow => ({
  title: "same model",
  models: "same",
  fault: "none",
  cells: 1_000,
  upstream: 22,
  rateLimited: 0,
  alone: 22,
  analystRequests: 1_100,
  equalCells: 50_000,
  totalCells: 50_000,
  lastCellMs: 11_584,
  redisOutages: 0,
  ...over,
});

const result: GatewayBenchResult = {
  analysts: 50,
  processes: 5,
  scale: 20,
  windowMs: 3_000,
  latencyMs: [50, 100],
  rows: [
    row({}),
    row({
      title: "50 different models",
      models: "different",
      upstream: 1_002,
      alone: 1_100,
      lastCellMs: 116_766,
    }),
    row({
      title: "same model, Redis stopped",
      fault: "Redis stopped",
      upstream: 105,
      equalCells: 49_990,
      firstDifference: "analyst 3, cell 7: …",
    }),
  ],
};

describe("the team gateway's lines of the bench report", () => {
  it("puts each run in one aligned row, with the service's floor at the real limit", () => {
    const lines = gatewayLines(result);
    expect(lines[0]).toMatch(/^Team gateway: 50 analysts .*10 on each of 5 gateway processes/);
    const table = lines.slice(1, 5);
    expect(table[0]).toMatch(/^team gateway\s+upstream\s+one analyst alone\s+429/);
    expect(table[1]).toMatch(/^same model\s+22\s+22\s+0\s+50,000 \/ 50,000\s+11\.6 s\s+0\.00 ms$/);
    // 1,002 requests: 60 at once, then 60 a minute: 16 minutes.
    expect(table[2]).toMatch(
      /^50 different models\s+1,002\s+1,100\s+0\s+50,000 \/ 50,000\s+1 min 57 s\s+16 min$/
    );
    // Aligned: every row as long as the header (the last column right-aligned).
    expect(new Set(table.map((l) => l.length)).size).toBe(1);
  });

  it("says whether the same model cost no more than one analyst alone, and names a difference", () => {
    const lines = gatewayLines(result);
    expect(lines).toContain(
      "Same model, no fault: upstream 22 ≤ 22 for one analyst alone; 0 answered 429; every cell equal to a direct run."
    );
    expect(lines).toContain("First difference (same model, Redis stopped): analyst 3, cell 7: …");
  });

  it("names a run in which a process took Redis as unreachable without the fault striking", () => {
    const lines = gatewayLines({
      ...result,
      rows: [
        row({ redisOutages: 3 }),
        row({ title: "same model, Redis stopped", fault: "Redis stopped", redisOutages: 5 }),
      ],
    });
    expect(lines).toContain(
      "same model: a gateway process took Redis as unreachable 3 times (it then serves from its own memory)."
    );
    expect(lines.join("\n")).not.toMatch(/Redis stopped: a gateway process/);
  });

  it("says why when the run could not happen", () => {
    expect(gatewayLines({ ...result, rows: [], skipped: "no redis-server" })).toEqual([
      "Team gateway: not run (no redis-server).",
    ]);
    expect(gatewayLines(undefined)).toEqual([]);
  });
});
