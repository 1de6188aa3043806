/** A service that restates: answers as they leave the simulator, first served as generated, then restated. */
import {
  DRAWN_SHARE,
  DRAWN_WINDOW_DAYS,
  MAX_SERVED_MARKS,
  Restatements,
  defaultRefill,
} from "../../src/simulator/restatements";
import { parseDate } from "../../src/simulator/util/days";
import type { RunningSimulator } from "../../src/simulator";
import { getList, num, start } from "./helpers";

const TODAY = parseDate("2026-11-24")!;

/** A §4.11 answer: long rows, one per project and day. */
function metricAnswer(rows: Array<[string, string, number | string | null]>) {
  return {
    data: rows.map(([project, day, value]) => ({
      timestamp: `${day}T00:00:00+02:00`,
      project_id: project,
      project_name: project,
      metric_id: "fees",
      value,
    })),
  };
}

describe("a service that restates chosen days after they were first served", () => {
  const days = [{ projectId: "aave", metricId: "fees", day: "2026-11-20", factor: 1.25 }];

  it("sends a day as generated the first time, restated in every answer after, in every form", () => {
    const r = new Restatements("served", TODAY, { days });
    const first = metricAnswer([
      ["aave", "2026-11-20", 1000],
      ["aave", "2026-11-19", 900],
      ["gmx", "2026-11-20", 50],
    ]);
    r.restateAnswer("/v2/metrics/fees", first);
    expect(first.data.map((row) => row.value)).toEqual([1000, 900, 50]);
    const again = metricAnswer([
      ["aave", "2026-11-20", 1000],
      ["aave", "2026-11-19", 900],
      ["gmx", "2026-11-20", 50],
    ]);
    r.restateAnswer("/v2/metrics/fees", again);
    expect(again.data.map((row) => row.value)).toEqual([1250, 900, 50]);
    // The project's own form (wide rows) and a product's: the same figure, restated alike.
    const wide = {
      data: [
        { timestamp: "2026-11-20T00:00:00.000Z", project_id: "aave", fees: "1000", revenue: 300 },
      ],
    };
    r.restateAnswer("/v2/projects/aave/metrics", wide);
    expect(wide.data[0]).toMatchObject({ fees: "1250", revenue: 300 });
    const product = {
      data: [{ metric_id: "fees", date: "2026-11-20", value: 400, chain_id: "base" }],
    };
    r.restateAnswer("/v2/projects/aave/products/aave-v3/metrics", product);
    expect(product.data[0].value).toBe(500);
  });

  it("gives every copy of a day in one answer the same value: repeated rows never conflict", () => {
    const r = new Restatements("served", TODAY, { days });
    const answer = metricAnswer([
      ["aave", "2026-11-20", 1000],
      ["aave", "2026-11-20", 1000],
    ]);
    r.restateAnswer("/v2/metrics/fees", answer);
    expect(answer.data.map((row) => row.value)).toEqual([1000, 1000]);
    const next = metricAnswer([
      ["aave", "2026-11-20", 1000],
      ["aave", "2026-11-20", 1000],
    ]);
    r.restateAnswer("/v2/metrics/fees", next);
    expect(next.data.map((row) => row.value)).toEqual([1250, 1250]);
  });

  it("leaves other operations, nulls and answers it cannot read as they are", () => {
    const r = new Restatements("served", TODAY, { days });
    const statement = { data: [{ metric_id: "fees", timestamp: "2026-11-20", value: "1000" }] };
    r.restateAnswer("/v2/projects/aave/financial-statement", statement);
    r.restateAnswer("/v2/projects/aave/financial-statement", statement);
    expect(statement.data[0].value).toBe("1000");
    const blank = metricAnswer([["aave", "2026-11-20", null]]);
    r.restateAnswer("/v2/metrics/fees", blank);
    r.restateAnswer("/v2/metrics/fees", blank);
    expect(blank.data[0].value).toBeNull();
    for (const odd of [null, "text", { data: "x" }, { data: [null, 3, { timestamp: "nope" }] }])
      expect(() => r.restateAnswer("/v2/metrics/fees", odd)).not.toThrow();
  });

  it("draws its days, when none are given, among the recent days of flow metrics only", () => {
    const r = new Restatements("served", TODAY);
    const dayText = (d: number) => new Date(d * 86_400_000).toISOString().slice(0, 10);
    const rows = (metric: string) => ({
      data: Array.from({ length: 400 }, (_, i) => ({
        timestamp: dayText(TODAY - 1 - i),
        project_id: "uniswap",
        metric_id: metric,
        value: 1000,
      })),
    });
    const restatedDays = (metric: string): number[] => {
      r.restateAnswer(`/v2/metrics/${metric}`, rows(metric));
      const second = rows(metric);
      r.restateAnswer(`/v2/metrics/${metric}`, second);
      return second.data.flatMap((row, i) => (row.value === 1000 ? [] : [i + 1]));
    };
    const fees = restatedDays("fees");
    expect(fees.length).toBeGreaterThan(0);
    expect(fees.length).toBeLessThan(DRAWN_WINDOW_DAYS * DRAWN_SHARE * 4);
    expect(fees.every((d) => d <= DRAWN_WINDOW_DAYS)).toBe(true);
    // Levels (TVL) are not restated by the drawn choice.
    expect(restatedDays("tvl")).toEqual([]);
    // The same days on every run.
    const other = new Restatements("served", TODAY);
    other.restateAnswer("/v2/metrics/fees", rows("fees"));
    const again = rows("fees");
    other.restateAnswer("/v2/metrics/fees", again);
    expect(again.data.flatMap((row, i) => (row.value === 1000 ? [] : [i + 1]))).toEqual(fees);
  });

  it("rounds a count it restates, and refuses a choice it cannot use", () => {
    const r = new Restatements("served", TODAY, {
      days: [{ projectId: "aave", metricId: "transaction_count", day: "2026-11-20", factor: 1.1 }],
    });
    const rows = () => ({
      data: [
        {
          timestamp: "2026-11-20",
          project_id: "aave",
          metric_id: "transaction_count",
          value: 1001,
        },
      ],
    });
    r.restateAnswer("/v2/metrics/transaction_count", rows());
    const second = rows();
    r.restateAnswer("/v2/metrics/transaction_count", second);
    expect(second.data[0].value).toBe(1101);
    expect(
      () => new Restatements("served", TODAY, { days: [{ ...days[0], day: "20 Nov" }] })
    ).toThrow(/not YYYY-MM-DD/);
    expect(() => new Restatements("served", TODAY, { days: [{ ...days[0], factor: 0 }] })).toThrow(
      /positive/
    );
  });

  it("remembers a bounded number of days, and a day past the bound keeps its first value for good", () => {
    expect(MAX_SERVED_MARKS).toBe(100_000);
    const bound = 50;
    const many = Array.from({ length: bound + 1 }, (_, i) => ({
      projectId: `p${i}`,
      metricId: "fees",
      day: "2026-11-20",
      factor: 2,
    }));
    const r = new Restatements("served", TODAY, { days: many }, bound);
    const answer = () => metricAnswer(many.map((d) => [d.projectId, d.day, 1]));
    r.restateAnswer("/v2/metrics/fees", answer());
    expect(r.marks).toBe(bound);
    const second = answer();
    r.restateAnswer("/v2/metrics/fees", second);
    expect(second.data[0].value).toBe(2);
    expect(second.data[bound].value).toBe(1);
  });
});

describe("a service that refills a block of days", () => {
  it("first serves the block counted twice, then refilled, whichever of its days an answer holds", () => {
    const block = defaultRefill(TODAY);
    expect(block).toEqual({
      projectId: "aave",
      metricIds: ["fees", "revenue"],
      from: "2026-06-27",
      to: "2026-11-09",
    });
    expect(parseDate(block.to)! - parseDate(block.from)! + 1).toBe(136);
    const r = new Restatements("refill", TODAY);
    const first = metricAnswer([
      ["aave", "2026-07-01", 100],
      ["aave", "2026-11-10", 100],
      ["gmx", "2026-07-01", 100],
    ]);
    r.restateAnswer("/v2/metrics/fees", first);
    expect(first.data.map((row) => row.value)).toEqual([200, 100, 100]);
    // Another day of the block, never served before: refilled too, since the block was.
    const later = metricAnswer([
      ["aave", "2026-07-01", 100],
      ["aave", "2026-08-15", 100],
    ]);
    r.restateAnswer("/v2/metrics/fees", later);
    expect(later.data.map((row) => row.value)).toEqual([100, 100]);
    // Revenue's block is its own: still counted twice the first time it is served.
    const revenue = { data: [{ timestamp: "2026-07-01", project_id: "aave", revenue: 40 }] };
    r.restateAnswer("/v2/projects/aave/metrics", revenue);
    expect(revenue.data[0].revenue).toBe(80);
  });
});

describe("the restatements knob of a running simulator", () => {
  const path = "/v2/metrics/fees?project_ids=aave&start=2025-06-10&end=2025-06-12";
  const valueOn = async (s: RunningSimulator, day: string) =>
    num((await getList(s, path)).data.find((r) => String(r.timestamp).startsWith(day))?.value);
  let s: RunningSimulator | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  it("restates a chosen day after it was first served, over HTTP, and starts afresh when set again", async () => {
    const restatements = {
      mode: "served" as const,
      days: [{ projectId: "aave", metricId: "fees", day: "2025-06-11", factor: 1.5 }],
    };
    s = await start({ restatements, duplicateRows: 0 });
    const first = (await valueOn(s, "2025-06-11"))!;
    const neighbour = await valueOn(s, "2025-06-10");
    expect(await valueOn(s, "2025-06-11")).toBeCloseTo(first * 1.5, 6);
    // Restated once, not again at every answer; the days around it are left alone.
    expect(await valueOn(s, "2025-06-11")).toBeCloseTo(first * 1.5, 6);
    expect(await valueOn(s, "2025-06-10")).toBe(neighbour);
    s.setKnobs({ restatements });
    expect(await valueOn(s, "2025-06-11")).toBe(first);
    s.setKnobs({ restatements: "none" });
    expect(await valueOn(s, "2025-06-11")).toBe(first);
    expect(await valueOn(s, "2025-06-11")).toBe(first);
  });

  it("refuses a mode it does not know", async () => {
    s = await start();
    expect(() => s!.setKnobs({ restatements: "sometimes" as "none" })).toThrow(
      "restatements must be one of none, served, refill"
    );
  });
});
