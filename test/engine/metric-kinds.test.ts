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
} from "../../src/engine/metric-kinds";
import { METRICS } from "../../src/simulator/data/metrics-catalog";

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
