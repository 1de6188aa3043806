/**
 * Plans the fewest requests for a set of (project, metric) series needed in one recalculation window.
 *
 * Two request forms can serve a pair: the metric-by-id operation (§4.11: one metric, many projects) and the
 * project metrics operation (§4.3: one project, many metrics). The plan chooses the set S of projects served
 * by their own request; every other pair goes to its metric's request. Its cost is the number of HTTP
 * requests once id lists are chunked.
 * - Up to EXHAUSTIVE_LIMIT projects, every S is tried: the plan is optimal.
 * - Beyond, S starts as a minimum-weight vertex cover of the bipartite graph projects × metrics (exact by
 *   max-flow/min-cut, König–Egerváry, for costs taken on full id lists), then single-project moves that lower
 *   the true chunked cost are applied until none does. On the usual grids (many projects × a few metrics,
 *   or one project × many metrics) this reaches the optimum; for 1,000 cells it takes about a millisecond.
 *
 * A metric whose request may ask for every project (§4.11 with `project_ids=all`, see series-grouping.ts)
 * costs one request whatever the number of projects: a 500-project column is one request, not ten chunks.
 */

/** Projects up to which the planner tries every choice (2^12 = 4,096 evaluations). */
const EXHAUSTIVE_LIMIT = 12;

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

export interface PlanOptions {
  /**
   * Metrics whose request may ask for every project at once (the answer stays small enough). Such a
   * request costs one, and is sent that way when its projects would take more than one chunk.
   */
  wholeUniverse?: (metricId: string) => boolean;
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
      if (level[t] < 0) return;
      const it = this.adj.map(() => 0);
      while (this.push(s, t, Infinity, level, it) > 0);
    }
  }

  reachable(s: number): boolean[] {
    return this.levels(s).map((l) => l >= 0);
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

/** Projects in a minimum-weight vertex cover, costs taken on full id lists. */
function minimumCover(
  nProjects: number,
  nMetrics: number,
  pairs: ReadonlyArray<{ p: number; m: number }>,
  pDegree: readonly number[],
  /** Requests for n ids of a project (m undefined) or of metric m. */
  costOf: (n: number, m?: number) => number
): boolean[] {
  const mDegree = Array.from({ length: nMetrics }, () => 0);
  for (const { m } of pairs) mDegree[m]++;
  // Nodes: source, projects, metrics, sink. A pair edge is uncuttable, so a finite cut picks, for every pair,
  // its project (edge source->p cut) or its metric (edge m->sink cut). A tiny bias breaks ties towards metrics.
  const source = 0;
  const sink = 1 + nProjects + nMetrics;
  const graph = new FlowGraph(sink + 1);
  for (let p = 0; p < nProjects; p++) graph.addEdge(source, 1 + p, costOf(pDegree[p]) + 1e-6);
  for (let m = 0; m < nMetrics; m++) graph.addEdge(1 + nProjects + m, sink, costOf(mDegree[m], m));
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
  if (needs.length === 0) return [];
  const projects = [...new Set(needs.map((n) => n.projectId))];
  const metrics = [...new Set(needs.map((n) => n.metricId))];
  const pIndex = new Map(projects.map((p, i) => [p, i]));
  const mIndex = new Map(metrics.map((m, i) => [m, i]));
  const pairKey = (n: PairNeed): string => `${pIndex.get(n.projectId)}:${mIndex.get(n.metricId)}`;
  const pairs = new Map<string, { p: number; m: number }>();
  for (const n of needs)
    pairs.set(pairKey(n), { p: pIndex.get(n.projectId)!, m: mIndex.get(n.metricId)! });

  const pairList = [...pairs.values()];
  const chunkCost = (n: number): number => (n === 0 ? 0 : cost(n, maxIdsPerRequest));
  const whole = metrics.map((m) => options.wholeUniverse?.(m) ?? false);
  const metricCost = (n: number, m: number): number => (n === 0 ? 0 : whole[m] ? 1 : chunkCost(n));
  const pDegree = projects.map(() => 0);
  for (const { p } of pairList) pDegree[p]++;
  /** True request count when the projects flagged in `chosen` use the project form. */
  const total = (chosen: readonly boolean[]): number => {
    const perMetric = metrics.map(() => 0);
    let sum = 0;
    chosen.forEach((c, p) => (sum += c ? chunkCost(pDegree[p]) : 0));
    for (const { p, m } of pairList) if (!chosen[p]) perMetric[m]++;
    return perMetric.reduce((acc, n, m) => acc + metricCost(n, m), sum);
  };

  let projectChosen: boolean[];
  if (projects.length <= EXHAUSTIVE_LIMIT) {
    projectChosen = projects.map(() => false);
    let best = total(projectChosen);
    for (let mask = 1; mask < 1 << projects.length; mask++) {
      const chosen = projects.map((_, p) => (mask & (1 << p)) !== 0);
      const c = total(chosen);
      // Ties keep the metric form (fewer projects chosen): one metric across projects is the service's
      // documented batching use, and its long rows carry one value each.
      if (
        c < best ||
        (c === best && chosen.filter(Boolean).length < projectChosen.filter(Boolean).length)
      ) {
        best = c;
        projectChosen = chosen;
      }
    }
  } else {
    projectChosen = minimumCover(projects.length, metrics.length, pairList, pDegree, (n, m) =>
      m === undefined ? cost(n, maxIdsPerRequest) : metricCost(n, m)
    );
    let current = total(projectChosen);
    for (let improved = true; improved;) {
      improved = false;
      for (let p = 0; p < projects.length; p++) {
        projectChosen[p] = !projectChosen[p];
        const c = total(projectChosen);
        if (c < current) {
          current = c;
          improved = true;
        } else {
          projectChosen[p] = !projectChosen[p];
        }
      }
    }
  }

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
  const planned = [...byRequest.values()];
  for (const r of planned) {
    if (r.form === "metric" && r.members.length > maxIdsPerRequest && whole[mIndex.get(r.id)!])
      r.all = true;
  }
  return planned;
}

/** How many HTTP requests a plan sends once id lists are chunked. */
export function requestCount(plan: readonly PlannedRequest[], maxIdsPerRequest: number): number {
  return plan.reduce((sum, r) => sum + (r.all ? 1 : cost(r.members.length, maxIdsPerRequest)), 0);
}
