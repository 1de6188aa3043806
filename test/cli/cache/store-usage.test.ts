/** The cache directory's running total: the decisions, on records as the store keeps them. */
import {
  parseUsage,
  rebase,
  reserve,
  RESERVATION_MS,
  SCAN_EVERY_MS,
  type UsageRecord,
} from "../../../src/cli/cache/store-usage";

const T = Date.UTC(2026, 10, 20, 12);

describe("the cache directory's running total", () => {
  it("adds a batch before it is written and asks for no listing while under the bound", () => {
    const record: UsageRecord = { bytes: 4_000, scannedAt: T, recent: [] };
    const batch = { id: "run-2", at: T + 1_000, bytes: 3_000 };
    expect(reserve(record, batch, 10_000)).toEqual({
      record: { bytes: 7_000, scannedAt: T, recent: [batch] },
      scan: false,
    });
  });

  it("asks for a listing when the batch takes it past the bound, or when the last one is an hour old", () => {
    const record: UsageRecord = { bytes: 8_000, scannedAt: T, recent: [] };
    expect(reserve(record, { id: "a", at: T + 1, bytes: 2_001 }, 10_000).scan).toBe(true);
    expect(reserve(record, { id: "a", at: T + 1, bytes: 2_000 }, 10_000).scan).toBe(false);
    expect(reserve(record, { id: "a", at: T + SCAN_EVERY_MS, bytes: 1 }, 10_000).scan).toBe(true);
  });

  it("without a record, asks for a listing and records none made, so a listing that fails is tried again", () => {
    const { record, scan } = reserve(undefined, { id: "a", at: T, bytes: 10 }, 10_000);
    expect(scan).toBe(true);
    expect(reserve(record, { id: "b", at: T + 1, bytes: 10 }, 10_000).scan).toBe(true);
  });

  it("after a listing, still counts the batches other processes are writing, but not this one's", () => {
    // Another process reserved 5,000 bytes a moment ago and may have written none of them yet.
    const record: UsageRecord = {
      bytes: 20_000,
      scannedAt: T - 600_000,
      recent: [
        { id: "long ago", at: T - RESERVATION_MS - 1, bytes: 7_000 },
        { id: "other", at: T - 200, bytes: 5_000 },
        { id: "mine", at: T - 100, bytes: 3_000 },
      ],
    };
    expect(rebase(record, 9_000, T, new Set(["mine"]))).toEqual({
      bytes: 14_000,
      scannedAt: T,
      recent: [{ id: "other", at: T - 200, bytes: 5_000 }],
    });
  });

  it("forgets reservations older than a minute when adding one", () => {
    const record: UsageRecord = {
      bytes: 100,
      scannedAt: T,
      recent: [{ id: "old", at: T, bytes: 100 }],
    };
    const later = { id: "new", at: T + RESERVATION_MS, bytes: 1 };
    expect(reserve(record, later, 10_000).record.recent).toEqual([later]);
  });

  it.each([
    ["not JSON", "{"],
    ["another version", JSON.stringify({ version: 2, bytes: 1, scannedAt: T, recent: [] })],
    ["a negative total", JSON.stringify({ version: 1, bytes: -1, scannedAt: T, recent: [] })],
    [
      "a total that is not a number",
      JSON.stringify({ version: 1, bytes: "1", scannedAt: T, recent: [] }),
    ],
    [
      "a damaged reservation",
      JSON.stringify({ version: 1, bytes: 1, scannedAt: T, recent: [{ id: "a", at: T }] }),
    ],
  ])("reads a record with %s as no record", (_, text) => {
    expect(parseUsage(text)).toBeUndefined();
  });

  it("reads back a record it wrote", () => {
    const record: UsageRecord = {
      bytes: 12,
      scannedAt: T,
      recent: [{ id: "a", at: T, bytes: 12 }],
    };
    expect(parseUsage(JSON.stringify({ version: 1, ...record }))).toEqual(record);
  });
});
