/**
 * The team's record of restatements, read from the team gateway (GET /gateway/v1/restatements, the gateway's
 * README) when the data source is one: CHANGES lists the team's changes beside this computer's own, and
 * vintage= gives a figure as the team's gateway knew it. The gateway is an origin the user trusts with their
 * token, not with this computer's figures: its answer is read bounded (TEAM_RECORD_MAX_BYTES, a deadline),
 * checked whole (one change that is not what the README says refuses the answer, with a note), and kept only
 * for the projects, metrics and days asked.
 *
 * Whether the source is a gateway: the header a gateway puts on every answer of the interface (the client's
 * response events). Before any answer this session, the route is asked once: a 404 (the service itself) says
 * it is not one, and it is not asked again.
 */
import {
  CryptometricsError,
  messageOf,
  parseDay,
  readBody,
  redact,
  type ApiKeySource,
  type FetchLike,
  type Timers,
} from "../client";
import type { Change, ChangeFilter } from "../engine";

/** The route's path on the gateway. */
const TEAM_RECORD_PATH = "/gateway/v1/restatements";
/** What one answer may hold: the gateway sends at most 10,000 changes (about 2.5 MB of JSON). */
export const TEAM_RECORD_MAX_BYTES = 4 * 1024 * 1024;
const TEAM_RECORD_MAX_CHANGES = 10_000;
/** One read's deadline: the record is a list, not a fetch from the service. */
const TEAM_RECORD_TIMEOUT_MS = 10_000;
/**
 * How long one answer stands for the same question: a recalculation asks it once for every cell of a series,
 * and a change the team records meanwhile shows within a minute.
 */
const TEAM_RECORD_FRESH_MS = 60_000;
/** Questions remembered at once (each a project and metric list): the oldest go first. */
const MAX_QUESTIONS = 64;

const ID = /^[A-Za-z0-9._~:@+-]{1,200}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** Texts of the record (options, members, requests): bounded, without controls. */
const TEXT = {
  test: (v: string): boolean =>
    v.length <= 500 && ![...v].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f),
};

export type TeamRead =
  { kind: "none" } | { kind: "changes"; changes: Change[] } | { kind: "unavailable"; why: string };

export interface TeamRecordOptions {
  baseUrl: string;
  apiKey: ApiKeySource;
  fetch?: FetchLike;
  timers: Timers;
  now: () => number;
}

function unreadable(why: string): CryptometricsError {
  return new CryptometricsError(
    "malformed-response",
    `the team gateway's record of restatements could not be read (${why})`,
    { operation: "team-record" }
  );
}

function value(v: unknown, name: string): number | null {
  if (v === null) return null;
  if (typeof v === "number" && Number.isFinite(v)) return v;
  throw unreadable(`${name} is not a number`);
}

function instant(v: unknown, name: string, latest: number): number {
  const at = typeof v === "string" && v.length <= 40 ? Date.parse(v) : NaN;
  if (!Number.isFinite(at) || at < Date.UTC(2000, 0, 1) || at > latest)
    throw unreadable(`${name} is not an instant`);
  return at;
}

function text(v: unknown, name: string, pattern: { test(v: string): boolean }): string {
  if (typeof v !== "string" || !pattern.test(v)) throw unreadable(`${name} is not what it says`);
  return v;
}

/** One change of the wire shape, checked; throws on anything else. */
function changeOf(raw: unknown, latest: number): Change {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw unreadable("a change is not an object");
  const r = raw as Record<string, unknown>;
  const day = parseDay(text(r.day, "day", DAY));
  if (day === undefined) throw unreadable("day is not a date");
  const beforeSeenAt = instant(r.before_seen_at, "before_seen_at", latest);
  const seenAt = instant(r.seen_at, "seen_at", latest);
  if (beforeSeenAt > seenAt) throw unreadable("a value was seen before it was first seen");
  const productId = r.product_id === "" ? "" : text(r.product_id, "product_id", ID);
  return {
    series: {
      projectId: text(r.project_id, "project_id", ID),
      productId,
      metricId: text(r.metric_id, "metric_id", ID),
      filter: text(r.filter, "filter", TEXT),
    },
    dim: text(r.member, "member", TEXT),
    day,
    before: value(r.before, "before"),
    after: value(r.after, "after"),
    beforeSeenAt,
    seenAt,
    request: text(r.request, "request", TEXT),
  };
}

/** The route's answer, checked whole (see the module comment). */
function readTeamRecord(body: string, latest: number): Change[] {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw unreadable("not JSON");
  }
  const data = (json as { data?: unknown } | null)?.data as { changes?: unknown } | undefined;
  const list = data?.changes;
  if (!Array.isArray(list)) throw unreadable("no list of changes");
  if (list.length > TEAM_RECORD_MAX_CHANGES) throw unreadable("more changes than it sends");
  return list.map((c) => changeOf(c, latest));
}

export class TeamRecordSource {
  /** Whether the data source is a gateway: from the answers' header, or the route's 404. */
  private state: "unknown" | "gateway" | "service" = "unknown";
  private readonly answers = new Map<string, { at: number; read: Promise<TeamRead> }>();

  constructor(private readonly options: TeamRecordOptions) {}

  /** Told of each answer of the data source: whether a gateway sent it. */
  servedBy(gateway: boolean): void {
    const next = gateway ? "gateway" : "service";
    if (next !== this.state) this.answers.clear();
    this.state = next;
  }

  /**
   * The team's changes seen at or after `since` for the filter's projects and metrics (both needed), newest
   * first; "none" when the source is not a gateway.
   */
  async changes(since: number, filter: Required<ChangeFilter>): Promise<TeamRead> {
    if (this.state === "service") return { kind: "none" };
    const projects = [...filter.projects].sort();
    const metrics = [...filter.metrics].sort();
    const sinceDay = Number.isFinite(since) ? Math.floor(since / 86_400_000) : undefined;
    const question = JSON.stringify([projects, metrics, sinceDay]);
    const now = this.options.now();
    let held = this.answers.get(question);
    if (!held || now - held.at > TEAM_RECORD_FRESH_MS) {
      held = { at: now, read: this.ask(projects, metrics, sinceDay) };
      this.answers.delete(question);
      this.answers.set(question, held);
      while (this.answers.size > MAX_QUESTIONS)
        this.answers.delete(this.answers.keys().next().value as string);
      // A failure is not remembered: the next question asks again.
      void held.read.then((r) => {
        if (r.kind === "unavailable") this.answers.delete(question);
      });
    }
    const read = await held.read;
    if (read.kind !== "changes") return read;
    return {
      kind: "changes",
      changes: read.changes.filter(
        (c) =>
          c.seenAt >= since &&
          filter.projects.has(c.series.projectId) &&
          filter.metrics.has(c.series.metricId)
      ),
    };
  }

  private async ask(
    projects: readonly string[],
    metrics: readonly string[],
    sinceDay: number | undefined
  ): Promise<TeamRead> {
    const url = new URL(TEAM_RECORD_PATH, this.options.baseUrl);
    url.searchParams.set("projects", projects.join(","));
    url.searchParams.set("metrics", metrics.join(","));
    if (sinceDay !== undefined)
      url.searchParams.set("since", new Date(sinceDay * 86_400_000).toISOString().slice(0, 10));
    const controller = new AbortController();
    const timer = this.options.timers.setTimeout(() => controller.abort(), TEAM_RECORD_TIMEOUT_MS);
    let key: string | undefined;
    try {
      const source = this.options.apiKey;
      key = typeof source === "function" ? await source() : source;
      if (!key) return { kind: "unavailable", why: "no key or sign-in yet" };
      const doFetch: FetchLike = this.options.fetch ?? ((u, init) => fetch(u, init));
      const response = await doFetch(url.toString(), {
        method: "GET",
        headers: { Authorization: `Bearer ${key}`, Accept: "application/json" },
        redirect: "manual",
        signal: controller.signal,
      });
      if (response.status === 404) {
        response.body?.cancel().catch(() => undefined);
        if (this.state === "unknown") this.state = "service";
        return { kind: "none" };
      }
      const body = await readBody(response, TEAM_RECORD_MAX_BYTES, controller.signal);
      if (response.status !== 200)
        return { kind: "unavailable", why: `the team gateway answered ${response.status}` };
      this.state = "gateway";
      return {
        kind: "changes",
        changes: readTeamRecord(body, this.options.now() + 86_400_000),
      };
    } catch (error) {
      return {
        kind: "unavailable",
        why: controller.signal.aborted
          ? `the team gateway did not answer within ${TEAM_RECORD_TIMEOUT_MS / 1000} seconds`
          : redact(messageOf(error), key ? [key] : []),
      };
    } finally {
      this.options.timers.clearTimeout(timer);
    }
  }
}
