/**
 * The table of metric kinds, reviewed against the service's catalogue words (the simulator's catalogue is
 * the service's as the interface shows it: a name and a description per metric), and the rule for any other
 * id: asked, never guessed.
 */
import {
  KINDS,
  METRIC_TABLE,
  defaultAggregation,
  describeMetricKind,
  fillRefusal,
  metricInfo,
  metricKind,
  unknownKindMessage,
  type MetricKind,
} from "../../../src/engine/figures/metric-kinds";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { METRICS } from "../../../src/simulator/data/metrics-catalog";

/** How the catalogue's words roll a metric up (the simulator's own classification), and the kinds that agree. */
const AGREES: Record<string, readonly MetricKind[]> = {
  flow: ["flow"],
  level: ["level", "price", "count", "cumulative"],
  average: ["users", "average", "rate"],
};

describe("the table of metric kinds", () => {
  it("holds every metric of the service's catalogue but the two nobody has told it about", () => {
    const outside = METRICS.filter((m) => metricInfo(m.id) === undefined).map((m) => m.id);
    expect(outside).toEqual(["fees_cumulative", "revenue_annualized"]);
    // And nothing the catalogue does not list.
    for (const id of Object.keys(METRIC_TABLE))
      expect({ id, listed: METRICS.some((m) => m.id === id) }).toEqual({ id, listed: true });
  });

  it("gives each catalogue metric a kind its catalogue words agree with", () => {
    for (const m of METRICS) {
      const kind = metricKind(m.id);
      if (kind === undefined) continue;
      expect({ id: m.id, kind, agrees: AGREES[m.kind].includes(kind) }).toEqual({
        id: m.id,
        kind,
        agrees: true,
      });
    }
    // Words that name the kind: daily users, prices, holders, counts, amounts.
    expect(metricKind("user_dau")).toBe("users");
    expect(metricKind("price")).toBe("price");
    expect(metricKind("tokenholders")).toBe("count");
    expect(metricInfo("tokenholders")?.unit).toBe("count");
    expect(metricInfo("transaction_count")).toEqual({ kind: "flow", unit: "count" });
    expect(metricInfo("pf_fully_diluted")).toEqual({ kind: "level", unit: "multiple" });
    expect(metricInfo("revenue")).toEqual({ kind: "flow", unit: "USD" });
  });

  it("rolls each kind up as it is: amounts summed, levels last, users, averages and rates averaged", () => {
    expect(Object.fromEntries(Object.entries(KINDS).map(([k, v]) => [k, v.agg]))).toEqual({
      flow: "sum",
      level: "last",
      price: "last",
      count: "last",
      cumulative: "last",
      users: "avg",
      average: "avg",
      rate: "avg",
    });
  });

  it("knows no kind for an id outside the table, whatever its words, and says what to add", () => {
    for (const id of ["fees_cumulative", "revenue_annualized", "new_users", "token_buybacks"]) {
      expect(metricKind(id)).toBeUndefined();
      expect(defaultAggregation(id)).toBeUndefined();
    }
    expect(unknownKindMessage("fees_cumulative")).toMatch(
      /^the kind of fees_cumulative is not known: add agg=sum, avg or last/
    );
    // Not fooled by an object's own keys.
    expect(metricKind("constructor")).toBeUndefined();
    expect(metricKind("__proto__")).toBeUndefined();
  });

  it("admits the fill of an unlisted metric's agg= only, and none without one", () => {
    expect(fillRefusal("zero", "fees_cumulative")).toBe(unknownKindMessage("fees_cumulative"));
    expect(fillRefusal("zero", "new_users", "sum")).toBeUndefined();
    expect(fillRefusal("previous", "fees_cumulative", "last")).toBeUndefined();
    expect(fillRefusal("previous", "fees_cumulative", "first")).toBeUndefined();
    expect(fillRefusal("previous", "new_users", "sum")).toMatch(/agg=sum.*fill=none or fill=zero/);
    expect(fillRefusal("zero", "fees_cumulative", "last")).toMatch(
      /agg=last.*fill=none or fill=previous/
    );
    expect(fillRefusal("zero", "revenue_annualized", "avg")).toMatch(/use fill=none$/);
    expect(fillRefusal("none", "anything")).toBeUndefined();
  });

  it("admits the fill of each kind, and refuses the other with the reason", () => {
    expect(fillRefusal("zero", "revenue")).toBeUndefined();
    expect(fillRefusal("previous", "tvl")).toBeUndefined();
    expect(fillRefusal("previous", "price")).toBeUndefined();
    expect(fillRefusal("previous", "tokenholders")).toBeUndefined();
    expect(fillRefusal("previous", "revenue")).toMatch(/is a flow summed over days/);
    expect(fillRefusal("zero", "tvl")).toMatch(
      /tvl is a level, and a missing day is not a zero tvl/
    );
    expect(fillRefusal("zero", "price")).toMatch(/price is a price/);
    expect(fillRefusal("previous", "user_dau")).toMatch(/daily user count/);
    expect(fillRefusal("zero", "user_dau")).toMatch(/a missing day is not zero users/);
  });

  it("says each metric's kind and unit in the taskpane's words", () => {
    expect(describeMetricKind("revenue")).toBe(
      "Kind: flow (an amount per day, summed over a period); unit: US dollars."
    );
    expect(describeMetricKind("user_dau")).toBe(
      "Kind: users (daily active users, averaged over a period); unit: users."
    );
    expect(describeMetricKind("fees_cumulative")).toMatch(
      /^Kind: not known to the add-in\. .*needs agg=sum, avg or last\.$/
    );
  });
});

describe("the table as the reference lists it", () => {
  /** The reference's kinds table: kind -> its metrics with their units, default agg and fill. */
  function referenceTable(): Map<
    string,
    { metrics: [string, string][]; agg: string; fill: string }
  > {
    const text = readFileSync(join(__dirname, "../../../src/functions/REFERENCE.md"), "utf8");
    const start = text.indexOf("| kind ");
    const rows = text.slice(start).split("\n").slice(2);
    const out = new Map<string, { metrics: [string, string][]; agg: string; fill: string }>();
    for (const row of rows) {
      if (!row.startsWith("|")) break;
      const [name, metrics, agg, fill] = row
        .split("|")
        .slice(1, -1)
        .map((c) => c.trim());
      const kind = name.split(/[: ]/)[0];
      const listed: [string, string][] = [];
      if (metrics !== "—")
        for (const group of metrics.split(";")) {
          const m = /^(.*)\((\w+)\)$/.exec(group.trim());
          if (!m) throw new Error(`unread group ${group}`);
          for (const id of m[1].split(",")) listed.push([id.trim(), m[2]]);
        }
      out.set(kind, { metrics: listed, agg: agg.replace(/`/g, ""), fill: fill.replace(/`/g, "") });
    }
    return out;
  }

  it("lists every metric of the table with its kind and unit, and each kind's default agg and fill", () => {
    const reference = referenceTable();
    expect([...reference.keys()].sort()).toEqual(Object.keys(KINDS).sort());
    for (const [kind, row] of reference) {
      const inTable = Object.entries(METRIC_TABLE)
        .filter(([, info]) => info.kind === kind)
        .map(([id, info]) => [id, info.unit]);
      expect({ kind, metrics: [...row.metrics].sort() }).toEqual({ kind, metrics: inTable.sort() });
      const rule = KINDS[kind as MetricKind];
      expect({ kind, agg: row.agg, fill: row.fill }).toEqual({
        kind,
        agg: rule.agg,
        fill: rule.fill,
      });
    }
  });

  it("says each kind, and each unit, in the taskpane's words", () => {
    expect(Object.fromEntries(Object.entries(KINDS).map(([k, v]) => [k, v.words]))).toEqual({
      flow: "an amount per day, summed over a period",
      level: "a level, its last value in a period",
      price: "a price, its last value (the close) in a period",
      count: "a count at a point in time, its last value in a period",
      cumulative: "a running total since launch, its last value in a period",
      users: "daily active users, averaged over a period",
      average: "an average per unit, averaged over a period",
      rate: "a rate per year, averaged over a period",
    });
    expect(describeMetricKind("token_supply_circulating")).toBe(
      "Kind: level (a level, its last value in a period); unit: tokens."
    );
    expect(describeMetricKind("tokenholders")).toBe(
      "Kind: count (a count at a point in time, its last value in a period); unit: a count."
    );
    expect(describeMetricKind("ps_fully_diluted")).toBe(
      "Kind: level (a level, its last value in a period); unit: a multiple (×)."
    );
    expect(describeMetricKind("price")).toBe(
      "Kind: price (a price, its last value (the close) in a period); unit: US dollars."
    );
  });

  it("offers the other fill only where the agg= of an unlisted metric admits it", () => {
    expect(fillRefusal("previous", "new_users", "avg")).toBe(
      "fill=previous carries a level forward; new_users rolls up with agg=avg, so carrying it forward would invent new_users on days without data; use fill=none"
    );
    expect(fillRefusal("zero", "fees_cumulative", "first")).toBe(
      "fill=zero counts a missing day of an amount as 0; fees_cumulative rolls up with agg=first, and a missing day is not a zero fees_cumulative; use fill=none or fill=previous"
    );
    expect(fillRefusal("zero", "fees_cumulative", "max")).toMatch(/; use fill=none$/);
    expect(fillRefusal("previous", "new_users", "sum")).toBe(
      "fill=previous carries a level forward; new_users rolls up with agg=sum, so carrying it forward would invent new_users on days without data; use fill=none or fill=zero"
    );
  });

  it("refuses each kind's other fill in full words", () => {
    expect(fillRefusal("previous", "revenue")).toBe(
      "fill=previous carries a level forward (tvl, price, market cap); revenue is a flow summed over days, so carrying it forward would invent revenue on days without data; use fill=zero (a missing day counts 0) or fill=none"
    );
    expect(fillRefusal("previous", "user_mau")).toBe(
      "fill=previous carries a level forward (tvl, price, market cap); user_mau is a daily user count, so carrying it forward would invent users; use fill=none"
    );
    expect(fillRefusal("zero", "active_developers")).toBe(
      "fill=zero counts a missing day of a flow as 0; active_developers is a count, and a missing day is not a zero active_developers; use fill=previous (the last value known) or fill=none"
    );
    expect(fillRefusal("zero", "user_wau")).toBe(
      "fill=zero counts a missing day of a flow as 0; user_wau is a daily user count, and a missing day is not zero users; use fill=none"
    );
  });
});
