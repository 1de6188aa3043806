import { Diagnostics } from "../../src/runtime/diagnostics";
import {
  describeCell,
  describeErrors,
  describeNotes,
  describeUsage,
  exportDiagnostics,
  formatAge,
  formatArgument,
} from "../../src/taskpane/model/diagnostics-model";

const KEY = "cm_live_0123456789abcdef";
const T = Date.UTC(2025, 5, 15, 12, 0, 5);

function diagnostics(): Diagnostics {
  let now = T;
  const d = new Diagnostics(() => now, 60);
  d.recordCell({
    address: "Sheet1!B2",
    functionName: "METRIC",
    args: {
      project: [["aave"], ["uniswap"]],
      metric: "fees",
      start: 45292,
      end: null,
      options: 'order="desc"',
    },
    at: T,
    requests: ["GET /v2/metrics/fees?project_ids=aave,uniswap&start=2024-01-01"],
    warnings: ["uniswap fees: METRIC_NOT_AVAILABLE"],
    stale: { fetchedAt: T - 3_600_000, reason: "the service could not be reached" },
    definitions: { fees: "Total fees paid by users." },
    asOf: { "aave fees": "2025-06-14" },
  });
  now += 1000;
  d.recordCell({
    address: "Sheet1!C3",
    functionName: "VALUE",
    args: { project: "nope", metric: "fees" },
    at: now,
    requests: [],
    warnings: [],
    // A message that (wrongly) carries the key: the export must still not.
    error: { code: "#N/A", message: `unknown project "nope" (key ${KEY})` },
  });
  for (let i = 0; i < 50; i += 1)
    d.onClientEvent({
      type: "request",
      operation: "x",
      method: "GET",
      url: "/",
      attempt: 1,
      at: now,
    });
  d.onClientEvent({
    type: "retry",
    operation: "x",
    url: "/",
    attempt: 1,
    delayMs: 10,
    reason: "server",
  });
  return d;
}

test("a cell's record reads as its arguments, requests, partial results, staleness, definitions and dates", () => {
  const view = describeCell(diagnostics().cell("Sheet1!$B$2")!);
  expect(view).toEqual({
    address: "Sheet1!B2",
    functionName: "CRYPTO.METRIC",
    args: [
      { name: "project", value: '{"aave";"uniswap"} (2×1 range)' },
      { name: "metric", value: '"fees"' },
      { name: "start", value: "45292" },
      { name: "end", value: "(omitted)" },
      { name: "options", value: '"order=""desc"""' },
    ],
    requests: ["GET /v2/metrics/fees?project_ids=aave,uniswap&start=2024-01-01"],
    warnings: ["uniswap fees: METRIC_NOT_AVAILABLE"],
    stale:
      "Served from data fetched 2025-06-15 11:00:05 UTC, because the refresh failed: the service could not be reached",
    error: undefined,
    definitions: [{ metric: "fees", definition: "Total fees paid by users." }],
    asOf: ["aave fees: latest value from 2025-06-14"],
    computedAt: "2025-06-15 12:00:05 UTC",
  });
});

test("arguments: single-cell ranges as their value, big ranges shortened", () => {
  expect(formatArgument([["aave"]])).toBe('"aave"');
  expect(formatArgument([[""]])).toBe('""');
  const big = Array.from({ length: 10 }, (_, i) => [i, i + 1]);
  expect(formatArgument(big)).toBe("{0,1;1,2;2,3;3,4;4,5} (10×2 range)");
  expect(formatArgument(Array.from({ length: 30 }, () => [1]))).toMatch(/;…} \(30×1 range\)$/);
});

test("recent errors name their cells, newest first", () => {
  expect(describeErrors(diagnostics().recentErrors())).toEqual([
    {
      address: "Sheet1!C3",
      summary: `CRYPTO.VALUE: #N/A unknown project "nope" (key ${KEY})`,
      at: "2025-06-15 12:00:06 UTC",
    },
  ]);
});

test("the usage meter: requests in the last minute against the limit, and retries", () => {
  expect(describeUsage(diagnostics().usage())).toEqual({
    requestsLastMinute: 50,
    limitPerMinute: 60,
    share: 50 / 60,
    level: "medium",
    summary: "50 of 60 requests in the last minute",
    detail:
      "50 requests, 1 retries, 0 failed service calls (cells, catalogue and tests) since the add-in started",
  });
  const quiet = {
    requestsLastMinute: 1,
    limitPerMinute: 60,
    requestsTotal: 1,
    retriesTotal: 0,
    errorsTotal: 0,
    simulated: false,
  };
  expect(describeUsage(quiet).level).toBe("low");
  expect(describeUsage({ ...quiet, requestsLastMinute: 58 }).level).toBe("high");
});

test("the export is JSON with the key masked in settings and redacted everywhere else", () => {
  const json = exportDiagnostics({
    diagnostics: diagnostics(),
    settings: {
      baseUrl: "https://api.example.com",
      rateLimitPerMinute: 60,
      hasKey: true,
      maskedKey: "••••••••cdef",
      usingDefaultKey: false,
    },
    version: "0.1.0",
    mode: "production",
    now: T,
    secrets: [KEY],
  });
  expect(json).not.toContain(KEY);
  const parsed = JSON.parse(json) as {
    settings: unknown;
    cells: unknown[];
    recentErrors: { message: string }[];
    usage: { retriesTotal: number };
    exportedAt: string;
  };
  expect(parsed.settings).toEqual({
    baseUrl: "https://api.example.com",
    rateLimitPerMinute: 60,
    apiKey: "••••••••cdef",
    usingDefaultKey: false,
  });
  expect(parsed.cells).toHaveLength(2);
  expect(parsed.recentErrors[0].message).toBe('unknown project "nope" (key [REDACTED])');
  expect(parsed.usage.retriesTotal).toBe(1);
  expect(parsed.exportedAt).toBe("2025-06-15 12:00:05 UTC");
});

describe("the saved cache in diagnostics", () => {
  it("says a cell's values came from the cache on this computer, and how old they are", () => {
    const d = new Diagnostics(() => T, 60);
    d.recordCell({
      address: "Sheet1!D4",
      functionName: "VALUE",
      args: { project: "aave", metric: "fees" },
      at: T,
      requests: ["GET /v2/metrics/fees for 1 project, 2025-06-01 → 2025-06-01"],
      warnings: [],
      restored: { fetchedAt: T - 3 * 3_600_000 },
    });
    expect(describeCell(d.cell("Sheet1!D4")!).saved).toBe(
      "From the cache saved on this computer: fetched 2025-06-15 09:00:05 UTC, 3 h before this calculation."
    );
    expect(describeCell(diagnostics().cell("Sheet1!B2")!).saved).toBeUndefined();
  });

  it("ages read in minutes, hours, then days", () => {
    expect(formatAge(T - 20_000, T)).toBe("less than a minute");
    expect(formatAge(T - 45 * 60_000, T)).toBe("45 min");
    expect(formatAge(T - 30 * 3_600_000, T)).toBe("30 h");
    expect(formatAge(T - 3 * 86_400_000, T)).toBe("3 days");
  });

  it("lists notes about dropped entries, newest first, and exports them", () => {
    const d = diagnostics();
    d.recordNote("Dropped 1 corrupt entry from the saved cache; it is fetched afresh.");
    expect(describeNotes(d.notes())).toEqual([
      {
        text: "Dropped 1 corrupt entry from the saved cache; it is fetched afresh.",
        at: "2025-06-15 12:00:06 UTC",
      },
    ]);
    const json = exportDiagnostics({
      diagnostics: d,
      settings: {
        baseUrl: "https://metrics.example",
        rateLimitPerMinute: 60,
        hasKey: true,
        maskedKey: "••••cdef",
        usingDefaultKey: false,
      },
      version: "1.0.0",
      mode: "production",
      now: T,
      secrets: [KEY],
    });
    expect((JSON.parse(json) as { savedCacheNotes: unknown[] }).savedCacheNotes).toHaveLength(1);
  });
});
