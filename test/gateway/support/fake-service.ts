/**
 * The service as a fetch of the test's own (no socket): what the gateway sends is recorded, and each answer is
 * the handler's (a status, a JSON body, headers), or held until the test lets it go. For tests through
 * `app.inject()`, where the gateway needs no port and its clock can be the test's.
 */
import type { FetchLike } from "../../../src/client";

export const FAKE_SERVICE_URL = "http://127.0.0.1:9";

interface FakeAnswer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface FakeService {
  fetch: FetchLike;
  /** Every request the gateway sent: its URL and the key it carried. */
  requests: Array<{ url: URL; key: string }>;
  /** Holds every answer until release() (or releaseAll) is called; returns how many are held. */
  hold(on: boolean): void;
  held(): number;
  releaseAll(): void;
}

export function fakeService(
  handler: (url: URL) => FakeAnswer | undefined = () => ({ body: { data: [] } })
): FakeService {
  const requests: Array<{ url: URL; key: string }> = [];
  let holding = false;
  const waiting: Array<() => void> = [];
  const fetch: FetchLike = async (raw, init) => {
    const url = new URL(raw);
    requests.push({ url, key: (init.headers.Authorization ?? "").replace(/^Bearer /, "") });
    if (holding) await new Promise<void>((go) => waiting.push(go));
    const answer = handler(url) ?? { status: 404, body: { message: "Not found" } };
    return new Response(JSON.stringify(answer.body ?? { data: [] }), {
      status: answer.status ?? 200,
      headers: { "content-type": "application/json", ...answer.headers },
    });
  };
  return {
    fetch,
    requests,
    hold: (on) => void (holding = on),
    held: () => waiting.length,
    releaseAll: () => {
      for (const go of waiting.splice(0)) go();
    },
  };
}

/** A row of §4.11 (metric by id) for a project and a day. */
function metricRow(
  project: string,
  metric: string,
  day: string,
  value: number
): Record<string, unknown> {
  return {
    timestamp: `${day}T00:00:00.000Z`,
    project_id: project,
    project_name: project,
    metric_id: metric,
    value,
  };
}

/** What the service answers for §4.11 and §4.3 of any day range: a value per project (metric) and day. */
export function seriesHandler(url: URL): FakeAnswer | undefined {
  const parts = url.pathname.split("/").filter(Boolean);
  const start = url.searchParams.get("start") ?? "2026-01-01";
  const end = url.searchParams.get("end") ?? start;
  const days: string[] = [];
  for (
    let t = Date.parse(`${start}T00:00:00Z`);
    t <= Date.parse(`${end}T00:00:00Z`) && days.length < 400;
    t += 86_400_000
  )
    days.push(new Date(t).toISOString().slice(0, 10));
  if (parts[0] === "v2" && parts[1] === "metrics" && parts.length === 3) {
    const metric = parts[2];
    const projects = (url.searchParams.get("project_ids") ?? "").split(",");
    return {
      body: {
        data: days.flatMap((d) =>
          projects.map((p) => metricRow(p, metric, d, d.length + p.length))
        ),
      },
    };
  }
  if (parts[0] === "v2" && parts[1] === "projects" && parts[3] === "metrics") {
    const project = parts[2];
    const metrics = (url.searchParams.get("metric_ids") ?? "").split(",");
    return {
      body: {
        data: days.map((d) => ({
          timestamp: `${d}T00:00:00.000Z`,
          project_id: project,
          project_name: project,
          ...Object.fromEntries(metrics.map((m) => [m, d.length + project.length])),
        })),
      },
    };
  }
  if (url.pathname === "/v2/metrics")
    return { body: { data: [{ metric_id: "fees", metric_name: "Fees" }] } };
  if (url.pathname === "/v2/projects")
    return { body: { data: [{ project_id: "aave", name: "Aave" }] } };
  return undefined;
}
