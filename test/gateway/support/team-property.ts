/**
 * N analysts cost what one costs, every time: many analysts (each a command-line evaluator of their own, the
 * add-in's functions and engine) refresh one model at once through the gateway, and the service sees each
 * distinct request the team asks at most once, so no more than one analyst alone running that model straight to
 * it when they plan alike; every cell is the same (see check()). Models are drawn
 * at random from the functions a finance model mixes (METRIC over a range, VALUE over several projects, on a day,
 * over a quarter or trailing twelve months, STATEMENT, COMPS, the latest VALUE), on the process memory store
 * (one process), on Redis and on a 3-primary Redis Cluster (two processes each); and the red team's own
 * five-formula model, twice on each.
 *
 * One test file per store (team.memory.property…, team.redis.property…, team.cluster.property…), each starting
 * only the servers its store needs, so that jest's two workers share the property. Where the time goes: every
 * analyst is a process (about 0.6 s of CPU each to start and evaluate; 21 teams of up to 12), every team has
 * fresh gateway processes (about 0.8 s each to start). Both are what is tested (separate runtimes, an empty
 * shared cache), so they stay; what is saved is waiting: the gateways start while the analyst alone runs.
 */
import fc from "fast-check";
import { join } from "node:path";
import { startSimulator, type RunningSimulator } from "../../../src/simulator";
import { propertyRuns } from "../../support/property-runs";
import { ensureNodeBuild } from "../../support/node-build";
import { runAnalyst } from "./cli-analyst";
import { shapeOf, startRecordingProxy } from "./recording-proxy";
import {
  gatewayFiles,
  startGatewayProcess,
  type GatewayFiles,
  type GatewayProcess,
} from "./gateway-process";
import { startRedis, type RedisServer } from "./redis";
import { startRedisCluster, type RedisCluster } from "./redis-cluster";

const SERVICE_KEY = "cm_service_key_property_9b3e27";
const ANALYSTS = Array.from({ length: 12 }, (_, i) => `analyst-${i + 1}`);
const tokenOf = (name: string): string => `tok_${name}_prop_71f`;

/** The red team's model: a METRIC, a VALUE over five projects, a STATEMENT, a COMPS, a VALUE. */
const FIVE_FORMULA_MODEL = [
  '=CRYPTO.METRIC("aave","fees",DATE(2026,9,1),DATE(2026,9,30))',
  '=CRYPTO.VALUE({"aave";"uniswap";"curve";"gmx";"lido-finance"},"revenue",DATE(2026,9,30))',
  '=CRYPTO.STATEMENT("aave","quarter")',
  '=CRYPTO.COMPS("aave,uniswap,gmx","revenue:ttm, fees:30d","2026-09-30")',
  '=CRYPTO.VALUE("aave","tvl")',
];

const PROJECTS = [
  "aave",
  "uniswap",
  "curve",
  "gmx",
  "lido-finance",
  "compound",
  "makerdao",
  "dydx",
];
const METRICS = ["fees", "revenue", "earnings", "tvl", "user_dau"];
const DAYS = ["2026-03-31", "2026-06-30", "2026-08-15", "2026-09-30"];

/** One formula of a finance model, drawn at random. */
const formula: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(...PROJECTS),
      fc.subarray(METRICS, { minLength: 1, maxLength: 3 }),
      fc.integer({ min: 1, max: 9 })
    )
    .map(
      ([p, ms, month]) =>
        `=CRYPTO.METRIC("${p}","${ms.join(",")}",DATE(2026,${month},1),DATE(2026,${month},28))`
    ),
  fc
    .tuple(
      fc.subarray(PROJECTS, { minLength: 2, maxLength: 5 }),
      fc.constantFrom(...METRICS),
      fc.constantFrom(...DAYS),
      fc.constantFrom("", ',"period=quarter"', ',"window=ttm"')
    )
    .map(
      ([ps, m, d, opt]) =>
        `=CRYPTO.VALUE({${ps.map((p) => `"${p}"`).join(";")}},"${m}","${d}"${opt})`
    ),
  fc
    .tuple(fc.constantFrom(...PROJECTS), fc.constantFrom("quarter", "month"))
    .map(([p, g]) => `=CRYPTO.STATEMENT("${p}","${g}")`),
  fc
    .tuple(fc.subarray(PROJECTS, { minLength: 2, maxLength: 3 }), fc.constantFrom(...DAYS))
    .map(([ps, d]) => `=CRYPTO.COMPS("${ps.join(",")}","revenue:ttm, fees:30d","${d}")`),
  fc
    .tuple(fc.constantFrom(...PROJECTS), fc.constantFrom(...METRICS))
    .map(([p, m]) => `=CRYPTO.VALUE("${p}","${m}")`)
);

/** A cell's outcome to compare: its value, or its error code (messages name the address they went to). */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (value && typeof value === "object") {
    const record = value as Record<string, unknown>;
    if (typeof record.error === "string") return { error: record.error };
    return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, comparable(v)]));
  }
  return value;
}

let cli: string;
/** The service the gateways ask. */
let simulator: RunningSimulator;
/**
 * The service the analyst alone asks: another simulator of the same dataset and day (the same answers), so
 * that the gateways can start while that analyst runs and nothing they might ask counts as the analyst's.
 */
let aloneSimulator: RunningSimulator;
let redis: RedisServer | undefined;
let cluster: RedisCluster | undefined;
let files: GatewayFiles;

const getsOf = (s: RunningSimulator): number =>
  s.requestLog.filter((r) => r.method === "GET").length;

type Store = "memory" | "redis" | "cluster";

/** Fresh gateways each time (nothing kept from a case before): one on memory, or two sharing Redis or a cluster. */
async function gateways(store: Store): Promise<GatewayProcess[]> {
  if (store === "memory") return [await startGatewayProcess({ serviceUrl: simulator.url, files })];
  if (store === "redis") {
    await redis!.stop();
    await redis!.start();
  } else await cluster!.flush();
  const shared =
    store === "redis"
      ? { redisUrl: redis!.url }
      : { args: ["--redis-cluster", cluster!.urls.join(",")] };
  return Promise.all(
    [0, 1].map(() => startGatewayProcess({ serviceUrl: simulator.url, files, ...shared }))
  );
}

interface TeamRun {
  /** Requests one analyst alone sent, straight to the service. */
  alone: number;
  /** Requests the service received from the gateways while the team ran. */
  upstream: number;
  /** Distinct requests (their shapes) the team's analysts sent to the gateways. */
  asked: number;
  /** Whether every analyst asked what the analyst alone asked (their clients planned alike). */
  samePlans: boolean;
  /** Analysts whose cells differ from the analyst alone's. */
  differing: number;
  /** The first of them: each cell that differs, and their run's stderr. */
  differences: string[];
}

/** A value in a failure's words: its JSON, cut at 300 characters. */
function brief(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/**
 * One analyst alone, straight to the service, then `n` at once through the gateways, each behind a recording
 * proxy (what the analysts asked, as request shapes).
 */
async function team(store: Store, model: readonly string[], n: number): Promise<TeamRun> {
  aloneSimulator.clearLog();
  const starting = gateways(store);
  const [direct, running] = await Promise.all([
    runAnalyst(cli, aloneSimulator.url, SERVICE_KEY, model),
    starting,
  ]).catch(async (error: unknown) => {
    await Promise.all((await starting.catch(() => [])).map((g) => g.stop()));
    throw error;
  });
  const aloneShapes = new Set(
    aloneSimulator.requestLog
      .filter((r) => r.method === "GET")
      .map((r) => shapeOf(`${r.path}?${new URLSearchParams(r.query).toString()}`))
  );
  const alone = getsOf(aloneSimulator);
  const proxies = await Promise.all(running.map((g) => startRecordingProxy(g.url)));
  try {
    expect(direct.code).toBe(0);
    simulator.clearLog();
    const runs = await Promise.all(
      ANALYSTS.slice(0, n).map((name, i) =>
        runAnalyst(cli, proxies[i % proxies.length].url, tokenOf(name), model)
      )
    );
    const upstream = getsOf(simulator);
    const shapes = new Set(proxies.flatMap((p) => p.shapes).filter((s) => /^\/v[12]\//.test(s)));
    const aloneCells = comparable(direct.results) as unknown[];
    const expected = JSON.stringify(aloneCells);
    const differ = runs.filter((r) => JSON.stringify(comparable(r.results)) !== expected);
    const differing = differ.length;
    // What the first analyst who differs shows beside the analyst alone, cell by cell, and what their run
    // said on stderr: a failure names the formula and the difference, not only a count.
    const differences = differ.slice(0, 1).flatMap((r) => {
      const theirs = comparable(r.results);
      const cells = Array.isArray(theirs) ? theirs : [theirs];
      return [
        ...model.flatMap((f, i) =>
          JSON.stringify(cells[i]) === JSON.stringify(aloneCells[i])
            ? []
            : [`${f}: alone ${brief(aloneCells[i])}, in the team ${brief(cells[i])}`]
        ),
        `stderr: ${brief(r.stderr)}`,
      ];
    });
    const samePlans =
      shapes.size === aloneShapes.size && [...shapes].every((s) => aloneShapes.has(s));
    return { alone, upstream, asked: shapes.size, samePlans, differing, differences };
  } finally {
    await Promise.all(proxies.map((p) => p.close()));
    await Promise.all(running.map((g) => g.stop()));
  }
}

/**
 * The claim, every time: the service is asked at most once per distinct request the team asked (never a request
 * twice across processes, never one split in two), every cell the same as alone; and when the analysts' clients
 * planned alike, no more than one analyst alone. (A client plans by what its batching window holds: run alone,
 * the same model is 6 requests one time and 7 another; analysts on different plans may ask a range one plan
 * did not, and the union costs what it asks.)
 */
function check(store: string, what: string, run: TeamRun): void {
  process.stdout.write(
    `${what} on ${store}: ${run.upstream} upstream requests for ${run.asked} distinct requests asked${run.samePlans ? " (every analyst planned as one alone)" : " (the clients planned differently)"}; one analyst alone: ${run.alone}\n`
  );
  expect({ differing: run.differing, differences: run.differences }).toEqual({
    differing: 0,
    differences: [],
  });
  expect(run.upstream).toBeLessThanOrEqual(run.asked);
  if (run.samePlans) expect(run.upstream).toBeLessThanOrEqual(run.alone);
}

const STORES: Record<Store, { name: string; analysts: number }> = {
  memory: { name: "the process memory store (one process)", analysts: 6 },
  redis: { name: "Redis (two processes)", analysts: 12 },
  cluster: { name: "a 3-primary Redis Cluster (two processes)", analysts: 12 },
};

/** The property on one store: its test file calls this, and starts only what that store needs. */
export function teamProperty(store: Store): void {
  const { name, analysts: n } = STORES[store];
  jest.setTimeout(600_000);

  beforeAll(async () => {
    const build = await ensureNodeBuild();
    cli = join(build, "cli", "main.js");
    const service = (): Promise<RunningSimulator> =>
      startSimulator({ port: 0, rateLimit: null, apiKeys: [SERVICE_KEY], today: "2026-11-20" });
    [simulator, aloneSimulator, redis, cluster] = await Promise.all([
      service(),
      service(),
      store === "redis" ? startRedis() : undefined,
      store === "cluster" ? startRedisCluster({ masters: 3 }) : undefined,
    ]);
    files = gatewayFiles(SERVICE_KEY, Object.fromEntries(ANALYSTS.map((a) => [a, tokenOf(a)])));
  }, 300_000);

  afterAll(async () => {
    await Promise.all([
      simulator?.close(),
      aloneSimulator?.close(),
      redis?.stop(),
      cluster?.stop(),
    ]);
  });

  describe(`analysts on ${name}`, () => {
    it(`cost the red team's five-formula model what one analyst costs: ${n} analysts, twice`, async () => {
      for (let run = 0; run < 2; run++)
        check(
          store,
          `${n} analysts, the five-formula model, run ${run + 1}`,
          await team(store, FIVE_FORMULA_MODEL, n)
        );
    });

    it("cost a random model what one analyst costs, whatever the model and the number of analysts", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(formula, { minLength: 2, maxLength: 6 }),
          fc.integer({ min: 2, max: n }),
          async (model, analysts) =>
            check(
              store,
              `${analysts} analysts, ${model.length} formulas`,
              await team(store, model, analysts)
            )
        ),
        { numRuns: propertyRuns(5), endOnFailure: true }
      );
    });
  });
}
