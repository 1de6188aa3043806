/**
 * Series as the gateway keeps them: split from any request form, answered in any other, and what an entry may
 * answer (the form-dependent cases included).
 */
import { parseAsk } from "../../src/gateway/ask";
import { parseQuery } from "../../src/gateway/schema";
import { needsOf } from "../../src/gateway/answers";
import { OPERATIONS } from "../../src/gateway/operations";
import { composeAnswer } from "../../src/gateway/series/compose";
import {
  answers,
  freshFor,
  merge,
  staleFor,
  type SeriesEntry,
} from "../../src/gateway/series/entry";
import { splitAnswer, type SeriesRequest } from "../../src/gateway/series/split";
import { dayNumber } from "../../src/client/data/days";
import type { JsonValue } from "../../src/client";

const NOW = Date.UTC(2026, 10, 20, 12);
const day = (d: string) => dayNumber(d);
const spec = (op: string) => OPERATIONS.find((s) => s.op === op)!;
const ask = (op: string, ids: Record<string, string>, query: string) =>
  parseAsk(spec(op), ids, parseQuery(query)).series!;

function entryFrom(
  request: SeriesRequest,
  envelope: { data: JsonValue; errors?: JsonValue },
  key = "k"
): Map<string, SeriesEntry> {
  const out = new Map<string, SeriesEntry>();
  for (const [member, fetched] of splitAnswer(request, envelope, false))
    out.set(member, merge(undefined, key, fetched, NOW));
  return out;
}

const wideRequest: SeriesRequest = {
  form: "project",
  projectId: "aave",
  productId: "",
  metricId: "",
  members: ["fees", "tvl"],
  start: day("2025-01-01"),
  end: day("2025-01-02"),
};

describe("splitting an answer per series", () => {
  it("gives each metric of a wide row its own records, the row's other members kept as sent", () => {
    const split = splitAnswer(
      wideRequest,
      {
        data: [
          {
            timestamp: "2025-01-02T00:00:00.000Z",
            project_id: "aave",
            project_name: "Aave",
            fees: 2,
            tvl: "20",
          },
          {
            timestamp: "2025-01-01T00:00:00.000Z",
            project_id: "aave",
            project_name: "Aave",
            fees: null,
          },
        ],
      },
      true
    );
    expect(split.get("fees")?.records).toEqual([
      {
        d: day("2025-01-02"),
        row: { timestamp: "2025-01-02T00:00:00.000Z", project_id: "aave", project_name: "Aave" },
        v: 2,
      },
      {
        d: day("2025-01-01"),
        row: { timestamp: "2025-01-01T00:00:00.000Z", project_id: "aave", project_name: "Aave" },
        v: null,
      },
    ]);
    // tvl absent on the 1st: a record without a value (the row existed), never a made-up null.
    expect(split.get("tvl")?.records.map((r) => r.v)).toEqual(["20", undefined]);
    expect(split.get("fees")?.simulated).toBe(true);
  });

  it("sends errors to the series they name, and those about the options to every series", () => {
    const split = splitAnswer(
      {
        form: "metric",
        projectId: "",
        productId: "",
        metricId: "tvl",
        members: ["aave", "bitcoin", "nope"],
        start: 1,
        end: 2,
      },
      {
        data: [],
        errors: [
          { code: "METRIC_NOT_AVAILABLE", project_id: "bitcoin", metric_id: "tvl" },
          { code: "NOT_FOUND", field: "project_ids", value: "nope" },
          { code: "NOT_FOUND", field: "chain_ids", value: "moon" },
        ],
      },
      false
    );
    expect(
      split.get("bitcoin")?.issues.map((i) => [i.own, (i.entry as { code: string }).code])
    ).toEqual([
      [true, "METRIC_NOT_AVAILABLE"],
      [false, "NOT_FOUND"],
    ]);
    expect(split.get("nope")?.issues.filter((i) => i.own)).toHaveLength(1);
    expect(split.get("aave")?.issues.map((i) => i.own)).toEqual([false]);
  });

  it.each([
    ["data that is not a list", { data: { rows: [] } }],
    ["a row without its day", { data: [{ project_id: "aave", value: 1 }] }],
    ["a row without its project", { data: [{ timestamp: "2025-01-01", value: 1 }] }],
    ["a row that is not an object", { data: ["2025-01-01"] }],
  ])("refuses %s as a whole: no table with rows quietly missing", (_what, envelope) => {
    expect(() =>
      splitAnswer(
        {
          form: "metric",
          projectId: "",
          productId: "",
          metricId: "fees",
          members: ["aave"],
          start: 1,
          end: 1e9,
        },
        envelope as never,
        false
      )
    ).toThrow(expect.objectContaining({ kind: "malformed-response" }));
  });
});

describe("answering in another form", () => {
  it("joins metrics fetched separately into the wide rows of a project's metrics, newest first", () => {
    const fees = entryFrom(
      {
        form: "metric",
        projectId: "",
        productId: "",
        metricId: "fees",
        members: ["aave"],
        start: day("2025-01-01"),
        end: day("2025-01-02"),
      },
      {
        data: [
          {
            timestamp: "2025-01-01",
            project_id: "aave",
            project_name: "Aave",
            metric_id: "fees",
            value: 1,
          },
          {
            timestamp: "2025-01-02",
            project_id: "aave",
            project_name: "Aave",
            metric_id: "fees",
            value: 2,
          },
        ],
      }
    ).get("aave")!;
    const tvl = entryFrom(wideRequest, {
      data: [
        { timestamp: "2025-01-02", project_id: "aave", project_name: "Aave", fees: 2, tvl: 20 },
      ],
    }).get("tvl")!;
    const wide = composeAnswer(
      ask(
        "getProjectMetrics",
        { projectId: "aave" },
        "metric_ids=fees,tvl&start=2025-01-01&end=2025-01-02"
      ),
      new Map([
        ["fees", fees.cur],
        ["tvl", tvl.cur],
      ])
    );
    expect(wide).toEqual({
      data: [
        { timestamp: "2025-01-02", project_id: "aave", project_name: "Aave", fees: 2, tvl: 20 },
        { timestamp: "2025-01-01", project_id: "aave", project_name: "Aave", fees: 1 },
      ],
    });
  });

  it("keeps breakdown rows apart and a repeated row repeated", () => {
    const request = { ...wideRequest, members: ["fees"] };
    const entry = entryFrom(request, {
      data: [
        { timestamp: "2025-01-01", project_id: "aave", chain: "base", fees: 1 },
        { timestamp: "2025-01-01", project_id: "aave", chain: "ethereum", fees: 2 },
        { timestamp: "2025-01-01", project_id: "aave", chain: "ethereum", fees: 2 },
      ],
    }).get("fees")!;
    const out = composeAnswer(
      ask(
        "getProjectMetrics",
        { projectId: "aave" },
        "metric_ids=fees&aggregate_by=chain&start=2025-01-01&end=2025-01-02"
      ),
      new Map([["fees", entry.cur]])
    );
    expect((out.data as Array<{ chain: string }>).map((r) => r.chain)).toEqual([
      "base",
      "ethereum",
      "ethereum",
    ]);
  });
});

describe("what an entry answers", () => {
  const across = ask(
    "getMetric",
    { metricId: "tvl" },
    "project_ids=bitcoin&start=2025-01-01&end=2025-01-02"
  );
  const [acrossNeed] = needsOf(across);
  const [projectNeed] = needsOf(
    ask(
      "getProjectMetrics",
      { projectId: "bitcoin" },
      "metric_ids=tvl&start=2025-01-01&end=2025-01-02"
    )
  );

  it("answers a §4.11 need from a §4.3 fetch only when the metric has a value somewhere", () => {
    // bitcoin's tvl through §4.3: rows without tvl (the metric is not available: simply absent).
    const absent = entryFrom(
      { ...wideRequest, projectId: "bitcoin", members: ["fees", "tvl"] },
      {
        data: [{ timestamp: "2025-01-01", project_id: "bitcoin", fees: 1 }],
      }
    ).get("tvl")!;
    expect(answers(absent.cur, projectNeed)).toBe(true);
    expect(answers(absent.cur, acrossNeed)).toBe(false);
    const present = entryFrom(
      { ...wideRequest, projectId: "bitcoin", members: ["tvl"] },
      {
        data: [{ timestamp: "2025-01-01", project_id: "bitcoin", tvl: 5 }],
      }
    ).get("tvl")!;
    expect(answers(present.cur, acrossNeed)).toBe(true);
  });

  it("answers a §4.3 need from §4.11's METRIC_NOT_AVAILABLE (absent there), and not the other way round", () => {
    const notAvailable = entryFrom(
      {
        form: "metric",
        projectId: "",
        productId: "",
        metricId: "tvl",
        members: ["bitcoin"],
        start: 1,
        end: 2,
      },
      {
        data: [],
        errors: [{ code: "METRIC_NOT_AVAILABLE", project_id: "bitcoin", metric_id: "tvl" }],
      }
    ).get("bitcoin")!;
    expect(answers(notAvailable.cur, projectNeed)).toBe(true);
    expect(
      composeAnswer(
        ask("getProjectMetrics", { projectId: "bitcoin" }, "metric_ids=tvl"),
        new Map([["tvl", notAvailable.cur]])
      )
    ).toEqual({ data: [] });
    expect(composeAnswer(across, new Map([["bitcoin", notAvailable.cur]]))).toEqual({
      data: [],
      errors: [{ code: "METRIC_NOT_AVAILABLE", project_id: "bitcoin", metric_id: "tvl" }],
    });
  });

  it("is fresh until the next daily update, then the fallback for a week", () => {
    const entry = entryFrom(
      { ...wideRequest, members: ["fees"] },
      {
        data: [{ timestamp: "2025-01-01", project_id: "aave", fees: 1 }],
      }
    ).get("fees")!;
    const need = { ...projectNeed, start: day("2025-01-01"), end: day("2025-01-01") };
    const midnight = Date.UTC(2026, 10, 21);
    expect(freshFor(entry, need, midnight - 1)).toBe(entry.cur);
    expect(freshFor(entry, need, midnight)).toBeUndefined();
    expect(staleFor(entry, need, midnight + 6 * 86_400_000)).toBe(entry.cur);
    expect(staleFor(entry, need, NOW + 8 * 86_400_000)).toBeUndefined();
    // The next day's fetch starts a new snapshot and keeps this one as the fallback.
    const next = merge(
      entry,
      "k",
      { form: "project", start: 1, end: 1, records: [], issues: [], simulated: false },
      midnight + 1
    );
    expect(next.prev).toBe(entry.cur);
    expect(next.cur.records).toEqual([]);
  });
});
