/**
 * The team gateway's record loaded when first asked (src/runtime/lazy-team-record.ts): the same answers as the
 * source itself, whatever the data source said before the reader was loaded.
 */
import type { FetchLike } from "../../src/client";
import { realTimers } from "../../src/client";
import { LazyTeamRecord } from "../../src/runtime/lazy-team-record";

const NOW = Date.parse("2026-11-21T12:00:00Z");
const all = { projects: new Set(["aave"]), metrics: new Set(["fees"]) };
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

function lazy() {
  const asked: string[] = [];
  const fetch: FetchLike = async (url) => {
    asked.push(url);
    const body = JSON.stringify({
      data: { changes: [CHANGE], truncated: false, kept_since: null },
    });
    return new Response(body, { status: 200 });
  };
  const record = new LazyTeamRecord({
    baseUrl: "https://gateway.example",
    apiKey: async () => "token-1",
    fetch,
    timers: realTimers,
    now: () => NOW,
  });
  return { record, asked };
}

describe("the team gateway's record, loaded when first asked", () => {
  it("reads the team's changes from a gateway, as the source does", async () => {
    const { record, asked } = lazy();
    record.servedBy(true);
    const read = await record.changes(-Infinity, all);
    expect(read.kind).toBe("changes");
    expect(read.kind === "changes" && read.changes.map((c) => c.after)).toEqual([125]);
    expect(asked).toHaveLength(1);
  });

  it("starts from what the data source said before it was loaded: the service itself is never asked", async () => {
    const { record, asked } = lazy();
    record.servedBy(true);
    record.servedBy(false);
    expect(await record.changes(-Infinity, all)).toEqual({ kind: "none" });
    expect(asked).toEqual([]);
  });

  it("hears the data source after it was loaded too", async () => {
    const { record, asked } = lazy();
    expect(await record.changes(-Infinity, all)).toMatchObject({ kind: "changes" });
    record.servedBy(false);
    // servedBy reaches the loaded source on its next turn.
    await Promise.resolve();
    expect(await record.changes(0, all)).toEqual({ kind: "none" });
    expect(asked).toHaveLength(1);
  });
});
