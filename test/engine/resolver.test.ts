import type { Metric, Project } from "../../src/client";
import { resolveMetricIn, resolveProjectIn } from "../../src/engine/resolver";

const project = (projectId: string, name: string, symbol?: string): Project => ({
  projectId,
  name,
  symbol,
  isArchived: false,
  products: [],
});

const projects = [
  project("aave", "Aave", "AAVE"),
  project("uniswap", "Uniswap", "UNI"),
  project("lido-finance", "Lido Finance", "LDO"),
  project("optimism", "Optimism", "OP"),
  project("op-stack-demo", "OP Stack Demo", "OP"),
];

describe("project resolution", () => {
  it.each([
    ["aave", "aave"],
    ["  AAVE ", "aave"],
    ["uni", "uniswap"],
    ["Lido Finance", "lido-finance"],
    ["lido finance", "lido-finance"],
  ])("resolves %j by id, symbol or name", (text, id) => {
    expect(resolveProjectIn(projects, text).projectId).toBe(id);
  });

  it("names the candidates of an ambiguous symbol", () => {
    expect(() => resolveProjectIn(projects, "op")).toThrow(
      'symbol "op" is ambiguous: it is the token of "optimism", "op-stack-demo"; use the project id'
    );
  });

  it("suggests the closest ids for an unknown project", () => {
    expect(() => resolveProjectIn(projects, "aavee")).toThrow(
      'unknown project "aavee"; did you mean "aave"?'
    );
    expect(() => resolveProjectIn(projects, "zzzzzzzzzz")).toThrow(
      /^unknown project "zzzzzzzzzz"$/
    );
  });

  it("refuses an empty project as invalid input", () => {
    expect(() => resolveProjectIn(projects, " ")).toThrow(
      expect.objectContaining({ kind: "invalid-input" })
    );
  });
});

describe("metric resolution", () => {
  const metrics: Metric[] = [
    { metricId: "revenue", metricName: "Revenue", description: "" },
    { metricId: "user_dau", metricName: "Daily active users", description: "" },
  ];

  it("resolves ids and names case-insensitively and suggests on a typo", () => {
    expect(resolveMetricIn(metrics, "REVENUE").metricId).toBe("revenue");
    expect(resolveMetricIn(metrics, "daily active users").metricId).toBe("user_dau");
    expect(() => resolveMetricIn(metrics, "revenu")).toThrow(
      'unknown metric "revenu"; did you mean "revenue"?'
    );
  });
});
