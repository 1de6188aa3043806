/**
 * The team gateway's record as the add-in and the CLI read it (src/runtime/team-record.ts): untrusted, read
 * bounded and checked whole, kept to what was asked; not asked again of a source that is not a gateway.
 */
import type { FetchLike } from "../../src/client";
import { realTimers } from "../../src/client";
import { TEAM_RECORD_MAX_BYTES, TeamRecordSource } from "../../src/runtime/team-record";

const NOW = Date.parse("2026-11-21T12:00:00Z");
const CHANGE = {
  project_id: "aave",
  product_id: "",
  metric_id: "fees",
  filter: "",
  member: "",
  day: "2024-02-15",
  before: 100,
  after: 125,
  before_seen_at: "2026-11-19T10:00:00.000Z",
  seen_at: "2026-11-20T10:00:00.000Z",
  request: "GET /v2/metrics/fees for 1 project, 2024-02-14 → latest, through the team gateway",
};

function gateway(answer: (url: string) => { status: number; body: string }) {
  const asked: Array<{ url: string; auth: string | undefined }> = [];
  const fetch: FetchLike = async (url, init) => {
    asked.push({ url, auth: init.headers.Authorization });
    const { status, body } = answer(url);
    return new Response(body, { status });
  };
  const source = new TeamRecordSource({
    baseUrl: "https://gateway.example",
    apiKey: async () => "token-1",
    fetch,
    timers: realTimers,
    now: () => NOW,
  });
  return { source, asked };
}

const all = { projects: new Set(["aave"]), metrics: new Set(["fees"]) };
const ok = (changes: unknown[]) => ({
  status: 200,
  body: JSON.stringify({ data: { changes, truncated: false, kept_since: null } }),
});

describe("the team gateway's record, read by the add-in", () => {
  it("reads the changes asked, with the caller's token, and asks once a minute for one question", async () => {
    const other = { ...CHANGE, project_id: "curve" };
    const { source, asked } = gateway(() => ok([CHANGE, other]));
    const read = await source.changes(Date.parse("2026-11-01T00:00:00Z"), all);
    expect(read).toEqual({
      kind: "changes",
      changes: [
        {
          series: { projectId: "aave", productId: "", metricId: "fees", filter: "" },
          dim: "",
          day: 19_768,
          before: 100,
          after: 125,
          beforeSeenAt: Date.parse(CHANGE.before_seen_at),
          seenAt: Date.parse(CHANGE.seen_at),
          request: CHANGE.request,
        },
      ],
    });
    await source.changes(Date.parse("2026-11-01T00:00:00Z"), all);
    expect(asked).toEqual([
      {
        url: "https://gateway.example/gateway/v1/restatements?projects=aave&metrics=fees&since=2026-11-01",
        auth: "Bearer token-1",
      },
    ]);
  });

  it("refuses a whole answer holding one change that is not what the gateway sends", async () => {
    const hostile = [
      { ...CHANGE, before: "100" },
      { ...CHANGE, seen_at: "2099-01-01T00:00:00Z" },
      { ...CHANGE, before_seen_at: "2026-11-21T00:00:00Z" },
      { ...CHANGE, project_id: "../admin" },
      { ...CHANGE, member: "a\u0000b" },
      { ...CHANGE, day: "2024-02-30" },
    ];
    for (const bad of hostile) {
      const { source } = gateway(() => ok([CHANGE, bad]));
      const read = await source.changes(-Infinity, all);
      expect(read.kind).toBe("unavailable");
    }
    const { source } = gateway(() => ({
      status: 200,
      body: "x".repeat(TEAM_RECORD_MAX_BYTES + 1),
    }));
    expect((await source.changes(-Infinity, all)).kind).toBe("unavailable");
  });

  it("is not asked again of a source that is not a gateway", async () => {
    const { source, asked } = gateway(() => ({ status: 404, body: '{"message":"no such route"}' }));
    expect(await source.changes(-Infinity, all)).toEqual({ kind: "none" });
    expect(await source.changes(0, all)).toEqual({ kind: "none" });
    expect(asked).toHaveLength(1);
    // Told by an answer's header: the service itself.
    const told = gateway(() => ok([CHANGE]));
    told.source.servedBy(false);
    expect(await told.source.changes(-Infinity, all)).toEqual({ kind: "none" });
    expect(told.asked).toHaveLength(0);
  });
});
