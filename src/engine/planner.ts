/**
 * Plans the fewest requests for a set of (project, metric) series needed in one recalculation window.
 *
 * Two request forms can serve a pair: the metric-by-id operation (§4.11: one metric, many projects) and the
 * project metrics operation (§4.3: one project, many metrics). The plan chooses the set S of projects served
 * by their own request; every other pair goes to its metric's request. Its cost is the number of HTTP
 * requests once id lists are chunked.
 * - Up to EXHAUSTIVE_LIMIT projects, every S is tried: the plan is optimal.
 * - Beyond, S starts as a minimum-weight vertex cover of the bipartite graph projects × metrics (exact by
 *   max-flow/min-cut, König–Egerváry, for costs taken on full id lists). When every list fits one request
 *   (the usual case: 50 ids a request) those are the true costs and the cover is the optimum. Otherwise
 *   moves of one project, and of two at once up to PAIR_MOVES_LIMIT projects, are applied while they lower the
 *   true chunked cost (or keep it with fewer projects chosen), from the cover, from no project and from every
 *   project, the best kept. Single moves from the cover alone stop short when chunking makes a metric's list
 *   pay only once several projects leave it. On grids of 13–16 projects (where a test can afford the
 *   exhaustive search) this gives the exhaustive count and tie when lists fit one request, and at most one
 *   request more when they do not.
 * - Ties keep the metric form (fewer projects chosen): one metric across projects is the service's documented
 *   batching use, and its long rows carry one value each.
 * - Canonical: the plan depends on the set of needs only, never on the order the cells arrived in. Projects and
 *   metrics are indexed in sorted order (so ties break the same way every time), id lists are sorted and the
 *   requests come out in a fixed order. Two analysts running the same model send the same requests, which a
 *   shared cache in front of the service (the team gateway) then answers once.
 *
 * A metric whose request may ask for every project (§4.11 with `project_ids=all`, see series-grouping.ts)
 * costs one request whatever the number of projects: a 500-project column is one request, not ten chunks.
 */

/** Projects up to which the planner tries every choice (2^12 = 4,096 evaluations). */
const EXHAUSTIVE_LIMIT = 12;
/** Projects up to which a forced exhaustive search is allowed (2^20 evaluations: a test's budget). */
const EXHAUSTIVE_MAX = 20;
/** Projects up to which moves of two projects are tried (quadratic: 64 projects are 2,016 pairs a pass). */
const PAIR_MOVES_LIMIT = 64;

export interface PairNeed {
  projectId: string;
  metricId: string;
  /** Day numbers; -Infinity / +Infinity stand for the service's defaults (from launch / to the latest). */
  start: number;
  end: number;
}

export interface PlannedRequest {
  /** "metric": §4.11 for `id` = metric and `members` = projects; "project": §4.3 for `id` = project. */
  form: "metric" | "project";
  id: string;
  members: string[];
  /** The span of every range asked of the pairs it serves: one request for overlapping ranges. */
  start: number;
  end: number;
  pairs: PairNeed[];
  /** Metric form only: sent with `project_ids=all` (one request) instead of its chunked id list. */
  all?: boolean;
}

interface PlanOptions {
  /**
   * Metrics whose request may ask for every project at once (the answer stays small enough). Such a
   * request costs one, and is sent that way when its projects would take more than one chunk.
   */
  wholeUniverse?: (metricId: string) => boolean;
  /**
   * How S is chosen: "auto" (the default) tries every choice up to EXHAUSTIVE_LIMIT projects and takes the
   * min-cut path beyond; "exhaustive" and "min-cut" force one path, so tests compare them where both run.
   */
  search?: "auto" | "exhaustive" | "min-cut";
}

/** The planning problem on indices: each project's metrics, and what a request list costs. */
interface Grid {
  metricsOf: number[][];
  /** Requests for project p in the project form. */
  projectCost: number[];
  /** Requests for metric m when n projects stay in its metric form. */
  metricCost: (n: number, m: number) => number;
  nMetrics: number;
}

/** A choice of S with its cost and size, kept up to date one project flip at a time. */
class Choice {
  readonly chosen: boolean[];
  private readonly perMetric: number[];
  cost = 0;
  size = 0;

  constructor(
    private readonly grid: Grid,
    chosen: readonly boolean[]
  ) {
    this.chosen = [...chosen];
    this.perMetric = Array.from({ length: grid.nMetrics }, () => 0);
    this.chosen.forEach((c, p) => {
      if (c) {
        this.cost += grid.projectCost[p];
        this.size++;
      } else {
        for (const m of grid.metricsOf[p]) this.perMetric[m]++;
      }
    });
    this.perMetric.forEach((n, m) => (this.cost += grid.metricCost(n, m)));
  }

  flip(p: number): void {
    const { metricsOf, projectCost, metricCost } = this.grid;
    const leaving = this.chosen[p];
    this.chosen[p] = !leaving;
    this.size += leaving ? -1 : 1;
    this.cost += leaving ? -projectCost[p] : projectCost[p];
    for (const m of metricsOf[p]) {
      const n = this.perMetric[m];
      const next = leaving ? n + 1 : n - 1;
      this.cost += metricCost(next, m) - metricCost(n, m);
      this.perMetric[m] = next;
    }
  }

  /** Cheaper, or as cheap with fewer projects chosen (the tie rule). */
  betterThan(cost: number, size: number): boolean {
    return this.cost < cost || (this.cost === cost && this.size < size);
  }
}

/** Every S (in Gray-code order: one flip per step), the best kept. */
function exhaustiveChoice(grid: Grid, nProjects: number): boolean[] {
  const choice = new Choice(grid, noProject(nProjects));
  let best = choice.chosen.slice();
  let bestCost = choice.cost;
  let bestSize = choice.size;
  for (let step = 1; step < 1 << nProjects; step++) {
    // The project to flip is the lowest set bit of the step.
    choice.flip(31 - Math.clz32(step & -step));
    if (choice.betterThan(bestCost, bestSize)) {
      best = choice.chosen.slice();
      bestCost = choice.cost;
      bestSize = choice.size;
    }
  }
  return best;
}

/** No project chosen: every pair in its metric's request. */
function noProject(nProjects: number): boolean[] {
  return new Array<boolean>(nProjects).fill(false);
}

/** The best of several choices (the first among equals). */
function bestOf(choices: readonly boolean[][], grid: Grid): boolean[] {
  let best: Choice | undefined;
  for (const chosen of choices) {
    const choice = new Choice(grid, chosen);
    if (!best || choice.betterThan(best.cost, best.size)) best = choice;
  }
  return (best as Choice).chosen;
}

/** Moves of one project, then of two, applied while one improves the choice (see the module comment). */
function improve(grid: Grid, start: readonly boolean[]): boolean[] {
  const choice = new Choice(grid, start);
  const n = start.length;
  const tryMove = (moves: readonly number[]): boolean => {
    const [cost, size] = [choice.cost, choice.size];
    for (const p of moves) choice.flip(p);
    if (choice.betterThan(cost, size)) return true;
    for (const p of moves) choice.flip(p);
    return false;
  };
  for (let moved = true; moved;) {
    moved = false;
    for (let p = 0; p < n; p++) if (tryMove([p])) moved = true;
    if (moved || n > PAIR_MOVES_LIMIT) continue;
    // (`p <= n` would add a p that pairs with no q: no move.)
    // Stryker disable next-line EqualityOperator: see above
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) if (tryMove([p, q])) moved = true;
    }
  }
  return choice.chosen;
}

/** Requests an id list of length n costs when at most `chunk` ids fit in one request. */
function cost(n: number, chunk: number): number {
  return Math.max(1, Math.ceil(n / chunk));
}

class FlowGraph {
  private readonly adj: number[][] = [];
  private readonly to: number[] = [];
  private readonly cap: number[] = [];

  constructor(n: number) {
    // (A node more, or a bogus entry in a list, carries no capacity: no flow changes.)
    // Stryker disable next-line EqualityOperator,ArrayDeclaration: see above
    for (let i = 0; i < n; i++) this.adj.push([]);
  }

  addEdge(u: number, v: number, c: number): void {
    this.adj[u].push(this.to.length);
    this.to.push(v);
    this.cap.push(c);
    this.adj[v].push(this.to.length);
    this.to.push(u);
    this.cap.push(0);
  }

  /** Dinic's max flow; afterwards `reachable` gives the source side of a minimum cut. */
  maxFlow(s: number, t: number): void {
    for (;;) {
      const level = this.levels(s);
      if (level[t] === -1) return;
      const it = this.adj.map(() => 0);
      // (`<= 0` would push one path per level graph: more rounds, the same flow.)
      // Stryker disable next-line EqualityOperator: see above
      while (this.push(s, t, Infinity, level, it) > 0);
    }
  }

  reachable(s: number): boolean[] {
    return this.levels(s).map((l) => l !== -1);
  }

  private levels(s: number): number[] {
    const level = this.adj.map(() => -1);
    level[s] = 0;
    const queue = [s];
    for (let q = 0; q < queue.length; q++) {
      const u = queue[q];
      for (const e of this.adj[u]) {
        if (this.cap[e] > 0 && level[this.to[e]] < 0) {
          level[this.to[e]] = level[u] + 1;
          queue.push(this.to[e]);
        }
      }
    }
    return level;
  }

  private push(u: number, t: number, f: number, level: number[], it: number[]): number {
    if (u === t) return f;
    // (One step past the end reads no edge: `<=` changes nothing.)
    // Stryker disable next-line EqualityOperator: see above
    for (; it[u] < this.adj[u].length; it[u]++) {
      const e = this.adj[u][it[u]];
      const v = this.to[e];
      if (this.cap[e] > 0 && level[v] === level[u] + 1) {
        const pushed = this.push(v, t, Math.min(f, this.cap[e]), level, it);
        if (pushed > 0) {
          this.cap[e] -= pushed;
          this.cap[e ^ 1] += pushed;
          return pushed;
        }
      }
    }
    return 0;
  }
}

/** How many projects need each metric. */
function metricDegree(pairs: ReadonlyArray<{ m: number }>, nMetrics: number): number[] {
  const degree = Array.from({ length: nMetrics }, () => 0);
  for (const { m } of pairs) degree[m]++;
  return degree;
}

/** Projects in a minimum-weight vertex cover, costs taken on full id lists. */
function minimumCover(grid: Grid, pairs: ReadonlyArray<{ p: number; m: number }>): boolean[] {
  const nProjects = grid.projectCost.length;
  const nMetrics = grid.nMetrics;
  const mDegree = metricDegree(pairs, nMetrics);
  // Nodes: source, projects, metrics, sink. A pair edge is uncuttable, so a finite cut picks, for every pair,
  // its project (edge source->p cut) or its metric (edge m->sink cut). A tiny bias breaks ties towards metrics.
  const source = 0;
  const sink = 1 + nProjects + nMetrics;
  const graph = new FlowGraph(sink + 1);
  grid.projectCost.forEach((c, p) => graph.addEdge(source, 1 + p, c + 1e-6));
  mDegree.forEach((n, m) => graph.addEdge(1 + nProjects + m, sink, grid.metricCost(n, m)));
  for (const { p, m } of pairs) graph.addEdge(1 + p, 1 + nProjects + m, Infinity);
  graph.maxFlow(source, sink);
  const onSourceSide = graph.reachable(source);
  return Array.from({ length: nProjects }, (_, p) => !onSourceSide[1 + p]);
}

/**
 * Plans requests for the needs of one variant (same chains/products/bridged options). Identical pairs are
 * merged; every need appears in exactly one planned request.
 */
export function planRequests(
  needs: readonly PairNeed[],
  maxIdsPerRequest: number,
  options: PlanOptions = {}
): PlannedRequest[] {
  // Sorted: the same needs in any order give the same plan (see the module comment).
  const projects = [...new Set(needs.map((n) => n.projectId))].sort();
  const metrics = [...new Set(needs.map((n) => n.metricId))].sort();
  const pIndex = new Map(projects.map((p, i) => [p, i]));
  const mIndex = new Map(metrics.map((m, i) => [m, i]));
  const pairKey = (n: PairNeed): string => `${pIndex.get(n.projectId)}:${mIndex.get(n.metricId)}`;
  const pairs = new Map<string, { p: number; m: number }>();
  for (const n of needs)
    pairs.set(pairKey(n), { p: pIndex.get(n.projectId)!, m: mIndex.get(n.metricId)! });

  const pairList = [...pairs.values()];
  const whole = metrics.map((m) => options.wholeUniverse?.(m) ?? false);
  const metricCost = (n: number, m: number): number =>
    n === 0 ? 0 : whole[m] ? 1 : cost(n, maxIdsPerRequest);
  const metricsOf: number[][] = projects.map(() => []);
  for (const { p, m } of pairList) metricsOf[p].push(m);
  const pDegree = metricsOf.map((ms) => ms.length);
  const grid: Grid = {
    metricsOf,
    // Every project has a pair: no empty list.
    projectCost: pDegree.map((n) => cost(n, maxIdsPerRequest)),
    metricCost,
    nMetrics: metrics.length,
  };

  const search = options.search ?? "auto";
  const exhaustive =
    search === "exhaustive" || (search === "auto" && projects.length <= EXHAUSTIVE_LIMIT);
  if (exhaustive && projects.length > EXHAUSTIVE_MAX)
    throw new RangeError(`an exhaustive plan takes at most ${EXHAUSTIVE_MAX} projects`);
  const cover = (): boolean[] => minimumCover(grid, pairList);
  // Without a list longer than one request, costs are those the cover minimises: it is the optimum already,
  // and with the fewest projects among equals (its bias). The improvement pass would find nothing to change:
  // taking more plans as chunked (`true`, `>=`) costs time, never a request.
  const chunked = [...pDegree, ...metricDegree(pairList, metrics.length)].some(
    // Stryker disable next-line ConditionalExpression,EqualityOperator: see above
    (n) => n > maxIdsPerRequest
  );
  const projectChosen = exhaustive
    ? exhaustiveChoice(grid, projects.length)
    : !chunked
      ? cover()
      : bestOf(
          [cover(), noProject(projects.length), projects.map(() => true)].map((start) =>
            improve(grid, start)
          ),
          grid
        );

  const byRequest = new Map<string, PlannedRequest>();
  for (const need of needs) {
    const p = pIndex.get(need.projectId)!;
    const form = projectChosen[p] ? "project" : "metric";
    const id = form === "project" ? need.projectId : need.metricId;
    const key = `${form}:${id}`;
    let request = byRequest.get(key);
    if (!request) {
      request = { form, id, members: [], start: need.start, end: need.end, pairs: [] };
      byRequest.set(key, request);
    }
    const member = form === "project" ? need.metricId : need.projectId;
    if (!request.members.includes(member)) request.members.push(member);
    request.start = Math.min(request.start, need.start);
    request.end = Math.max(request.end, need.end);
    request.pairs.push(need);
  }
  const planned = [...byRequest.values()].sort(byFormAndId);
  for (const r of planned) {
    r.members.sort();
    if (r.form === "metric" && r.members.length > maxIdsPerRequest && whole[mIndex.get(r.id)!])
      r.all = true;
  }
  return planned;
}

/** Metric requests first, then project requests, each by id: a fixed order for a set of needs. */
function byFormAndId(a: PlannedRequest, b: PlannedRequest): number {
  if (a.form !== b.form) return a.form === "metric" ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** How many HTTP requests a plan sends once id lists are chunked. */
export function requestCount(plan: readonly PlannedRequest[], maxIdsPerRequest: number): number {
  return plan.reduce((sum, r) => sum + (r.all ? 1 : cost(r.members.length, maxIdsPerRequest)), 0);
}
