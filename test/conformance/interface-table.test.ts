/**
 * The client, the gateway and the simulator speak one interface: the table of src/client/interface.ts. Each
 * derives what it can from the table (paths, parameter names, closed value sets); this test checks what is
 * still each one's own, request by request: which parameters the client's plans actually send, what the
 * gateway's schemas and checks let through (and what it forwards), and what the simulator's handlers take.
 *
 * Every call goes client → gateway (in process, through inject) → simulator (in process), under the readings
 * where the interface's date names are open either way and an unknown parameter is refused, so that a name
 * or value one side sends and another does not take fails a call. Then the requests the client sent must
 * cover the table: every parameter of every operation, every value of every closed set.
 */
import {
  createClient,
  OPERATION_NAMES,
  operationDef,
  pathParts,
  type FetchLike,
  type MetricsClient,
  type OperationName,
} from "../../src/client";
import { FixedTokens } from "../../src/gateway/auth/tokens-file";
import { matchPath } from "../../src/gateway/operations";
import { createGateway, type Gateway } from "../../src/gateway/server";
import { matchRoute } from "../../src/simulator/http/router";
import { inProcessSimulator, type InProcessSimulator } from "../../src/simulator/in-process";
import { DEFAULT_READINGS } from "../../src/simulator";

const SERVICE_KEY = "cm_service_key_interface_table_5e1";
const TOKEN = "tok_interface_table_reader_93a";
const RANGE = { start: "2026-09-01", end: "2026-09-10" };

type Call = (c: MetricsClient) => Promise<unknown>;

/**
 * Calls of every operation, together sending every parameter and every closed value the client can send
 * (the coverage test below says which the table has that these do not reach).
 */
const CALLS: Record<OperationName, Call[]> = {
  listProjects: [(c) => c.listProjects()],
  getProject: [(c) => c.getProject("aave")],
  getProjectMetrics: [
    (c) =>
      c.getProjectMetrics("aave", {
        metricIds: ["fees", "tvl"],
        chainIds: ["ethereum"],
        productIds: ["aave-v3"],
        marketSectorIds: ["lending"],
        orderDirection: "asc",
        assetsBridged: false,
        ...RANGE,
      }),
    (c) =>
      c.getProjectMetrics("aave", {
        metricIds: ["fees"],
        aggregateBy: "chain",
        orderDirection: "desc",
        dateNames: "start_date",
        ...RANGE,
      }),
    (c) =>
      c.getProjectMetrics("aave", { metricIds: ["fees"], aggregateBy: "product_id", ...RANGE }),
  ],
  getProjectMetricAggregations: [(c) => c.getProjectMetricAggregations("aave")],
  getFinancialStatement: [
    (c) => c.getFinancialStatement("aave", { timestampGranularity: "year", interval: "max" }),
    (c) => c.getFinancialStatement("aave", { timestampGranularity: "quarter", interval: "5y" }),
    (c) => c.getFinancialStatement("aave", { timestampGranularity: "month", interval: "3y" }),
    (c) => c.getFinancialStatement("aave", { timestampGranularity: "week", interval: "2y" }),
    (c) => c.getFinancialStatement("aave", { interval: "1y" }),
    (c) => c.getFinancialStatement("aave", { interval: "1m" }),
  ],
  getProduct: [(c) => c.getProduct("aave", "aave-v3")],
  getProductMetrics: [
    (c) =>
      c.getProductMetrics("aave", "aave-v3", {
        metricIds: ["fees", "tvl"],
        chainIds: ["ethereum"],
        orderDirection: "asc",
        assetsBridged: true,
        ...RANGE,
      }),
    (c) =>
      c.getProductMetrics("aave", "aave-v3", {
        metricIds: ["fees"],
        aggregateBy: "chain",
        orderDirection: "desc",
        dateNames: "start_date",
        ...RANGE,
      }),
    (c) =>
      c.getProductMetrics("aave", "aave-v3", {
        metricIds: ["fees"],
        aggregateBy: "product_id",
        ...RANGE,
      }),
  ],
  listMarketSectors: [(c) => c.listMarketSectors()],
  getMarketSector: [(c) => c.getMarketSector("lending")],
  listMetrics: [(c) => c.listMetrics()],
  getMetric: [
    (c) =>
      c.getMetric("fees", {
        projectIds: ["aave", "uniswap"],
        chainIds: ["ethereum"],
        productIds: ["aave-v3"],
        marketSectorIds: ["lending"],
        assetsBridged: false,
        ...RANGE,
      }),
    (c) => c.getMetric("fees", { projectIds: "all", dateNames: "start_date", ...RANGE }),
  ],
  getMetricAggregations: [
    (c) => c.getMetricAggregations({ projectIds: ["aave"], metricIds: ["fees"] }),
    (c) => c.getMetricAggregations({ metricIds: "all" }),
  ],
  getMetricsBreakdown: [
    (c) => c.getMetricsBreakdown("fees", { projectIds: ["aave", "uniswap"], ...RANGE }),
    (c) => c.getMetricsBreakdown("fees", { projectIds: "all", dateNames: "start", ...RANGE }),
  ],
  v1ListProjects: [(c) => c.v1ListProjects()],
  v1GetProjectMetrics: [
    (c) => c.v1GetProjectMetrics("aave", { interval: "max", dataGranularity: "daily" }),
  ],
};

/** The readings under which every name the table gives an operation is taken, and no other. */
const OPEN_READINGS = {
  dateNames: "both",
  breakdownDates: "both",
  breakdownProjects: "all",
  unknownParams: "refuse",
} as const;

let simulator: InProcessSimulator;
let gateway: Gateway;
/** What the client sent (to the gateway) and what the gateway forwarded (to the simulator). */
const sent: URL[] = [];
const forwarded: URL[] = [];

beforeAll(async () => {
  simulator = inProcessSimulator({
    apiKeys: [SERVICE_KEY],
    rateLimit: null,
    today: "2026-11-20",
    readings: OPEN_READINGS,
  });
  const upstream: FetchLike = (url, init) => {
    forwarded.push(new URL(url));
    return simulator.fetch(url, init);
  };
  gateway = await createGateway({
    serviceUrl: simulator.url,
    serviceKey: SERVICE_KEY,
    verifiers: [new FixedTokens([{ name: "reader", token: TOKEN }])],
    fetch: upstream,
    logLevel: "silent",
  });
});

afterAll(async () => {
  await gateway?.close();
  await simulator?.close();
});

/** The gateway through inject, as the client's fetch: every URL the client sends is recorded. */
const throughGateway: FetchLike = async (raw, init) => {
  const url = new URL(raw);
  sent.push(url);
  const answer = await gateway.app.inject({
    url: url.pathname + url.search,
    headers: { ...init.headers },
  });
  return new Response(answer.body, {
    status: answer.statusCode,
    headers: answer.headers as Record<string, string>,
  });
};

const segmentsOf = (url: URL): string[] =>
  url.pathname
    .split("/")
    .filter(Boolean)
    .map((s) => decodeURIComponent(s));

/** The operation of a URL as the table writes paths (ids in place of "{…}"). */
function operationOf(url: URL): OperationName | undefined {
  const segments = segmentsOf(url);
  return OPERATION_NAMES.find((op) => {
    const parts = pathParts(op);
    return (
      parts.length === segments.length &&
      parts.every((part, i) => part.startsWith("{") || part === segments[i])
    );
  });
}

describe("the client, the gateway and the simulator on the interface's table", () => {
  const client = (): MetricsClient =>
    createClient({
      baseUrl: "http://127.0.0.1:9",
      apiKey: TOKEN,
      fetch: throughGateway,
      retry: { maxAttempts: 1 },
    });

  it.each(OPERATION_NAMES)(
    "%s: every call the client makes is taken by the gateway and the simulator, as the same operation",
    async (op) => {
      const c = client();
      const failed: string[] = [];
      for (const call of CALLS[op]) {
        const before = sent.length;
        await call(c).catch((e: unknown) => failed.push(`${op}: ${(e as Error).message}`));
        for (const url of sent.slice(before)) {
          // The same operation on all three sides: the client's, the gateway's, the simulator's route.
          expect(operationOf(url)).toBe(op);
          expect(matchPath(segmentsOf(url))?.spec.op).toBe(op);
          const route = matchRoute(segmentsOf(url));
          expect(route).toBeDefined();
          const names = [...url.searchParams.keys()];
          const takes = route?.accepted({ ...DEFAULT_READINGS, ...OPEN_READINGS }) ?? new Set();
          expect(names.filter((name) => !takes.has(name))).toEqual([]);
        }
      }
      expect(failed).toEqual([]);
    }
  );

  it("sends every parameter of the table and every value of its closed sets", () => {
    const missing: string[] = [];
    for (const op of OPERATION_NAMES) {
      const urls = sent.filter((url) => operationOf(url) === op);
      for (const [name, parameter] of Object.entries(operationDef(op).query)) {
        const values = urls.flatMap((url) => url.searchParams.getAll(name));
        if (values.length === 0) missing.push(`${op} ${name}`);
        if (parameter.kind === "oneOf")
          for (const value of parameter.values)
            if (!values.includes(value)) missing.push(`${op} ${name}=${value}`);
        if (parameter.kind === "ids" && parameter.all && !values.includes("all"))
          missing.push(`${op} ${name}=all`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("forwards only requests of the table's operations, with the table's parameters", () => {
    expect(forwarded.length).toBeGreaterThan(0);
    const strays = forwarded.filter((url) => {
      const op = operationOf(url);
      if (!op) return true;
      const query = operationDef(op).query as Readonly<Record<string, unknown>>;
      return [...url.searchParams.keys()].some(
        (name) => !Object.prototype.hasOwnProperty.call(query, name)
      );
    });
    expect(strays.map(String)).toEqual([]);
  });
});
