import type { Metric, Project } from "../../src/client";
import { resolveMetricIn, resolveProjectIn, withSuggestions } from "../../src/engine/resolver";
import { closest } from "../../src/engine/suggest";

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
      '"op" fits 2 projects: "optimism" (Optimism, OP), "op-stack-demo" (OP Stack Demo, OP); use the project id'
    );
  });

  it("refuses a name two projects share, and a ticker that is another project's id, naming both", () => {
    const clash = [
      ...projects,
      project("nova", "Nova", "NVX"),
      project("nova-network", "Nova", "NOVA"),
      project("comp", "Comp Labs"),
      project("compound", "Compound", "COMP"),
    ];
    expect(() => resolveProjectIn(clash, "Nova")).toThrow(
      '"Nova" fits 2 projects: "nova" (Nova, NVX), "nova-network" (Nova, NOVA); use the project id'
    );
    expect(() => resolveProjectIn(clash, "NOVA")).toThrow(
      /fits 2 projects: "nova" .*"nova-network"/
    );
    expect(() => resolveProjectIn(clash, "COMP")).toThrow(
      '"COMP" fits 2 projects: "comp" (Comp Labs), "compound" (Compound, COMP); use the project id'
    );
    // The id as the service spells it is always that project: the way out the message offers.
    expect(resolveProjectIn(clash, "nova").projectId).toBe("nova");
    expect(resolveProjectIn(clash, "comp").projectId).toBe("comp");
    expect(resolveProjectIn(clash, "nova-network").projectId).toBe("nova-network");
    // A project's own id, symbol and name fitting it alone are no clash.
    expect(resolveProjectIn(clash, "Compound").projectId).toBe("compound");
    expect(resolveProjectIn(clash, "nvx").projectId).toBe("nova");
  });

  it("suggests the closest ids for an unknown project", () => {
    expect(() => resolveProjectIn(projects, "aavee", closest)).toThrow(
      'unknown project "aavee"; did you mean "aave"?'
    );
    expect(() => resolveProjectIn(projects, "zzzzzzzzzz", closest)).toThrow(
      /^unknown project "zzzzzzzzzz"$/
    );
  });

  it("says an unknown project without suggestions where none are loaded, and with them once they are", async () => {
    expect(() => resolveProjectIn(projects, "aavee")).toThrow(/^unknown project "aavee"$/);
    await expect(
      withSuggestions((suggest) => resolveProjectIn(projects, "aavee", suggest))
    ).rejects.toThrow('unknown project "aavee"; did you mean "aave"?');
    await expect(
      withSuggestions((suggest) => resolveProjectIn(projects, "AAVE", suggest))
    ).resolves.toMatchObject({ projectId: "aave" });
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
    expect(() => resolveMetricIn(metrics, "revenu", closest)).toThrow(
      'unknown metric "revenu"; did you mean "revenue"?'
    );
  });
});
