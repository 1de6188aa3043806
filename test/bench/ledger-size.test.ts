/**
 * The bench's row for the restatement ledger's size: measured through the ledger's real code (a month of the
 * year's daily restatements, scaled to the year), printed beside the other figures, checked against its bound.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_LEDGER_BYTES } from "../../src/engine/ledger/ledger";
import { ledgerLines, measureLedgerSize } from "../../src/tools/bench/ledger-size";
import { formatMarkdown, formatReport } from "../../src/tools/bench/report";
import type { BenchResults } from "../../src/tools/bench/results";
import { evaluateTargets, ledgerCheck } from "../../src/tools/bench/targets";

const recorded = JSON.parse(
  readFileSync(join(__dirname, "..", "fixtures", "bench", "results.json"), "utf8")
) as BenchResults;

describe("the bench's restatement ledger row", () => {
  let measured: Awaited<ReturnType<typeof measureLedgerSize>>;
  beforeAll(async () => {
    measured = await measureLedgerSize({ days: 30 });
  });

  it("counts every change the model's daily refreshes restate, in bytes as the ledger writes them", () => {
    expect(measured.cells).toBe(1_000);
    expect(measured.year.changes).toBe(30 * 1_000);
    expect(measured.year.bytesPerChange).toBeCloseTo(
      measured.year.bytes / measured.year.changes,
      6
    );
    // A sealed line per answer, each change a handful of numbers at full precision: tens of bytes, not hundreds.
    expect(measured.year.bytesPerChange).toBeGreaterThan(40);
    expect(measured.year.bytesPerChange).toBeLessThan(120);
    expect(measured.yearBytes).toBe(Math.round((measured.year.bytes * 365) / 30));
    expect(measured.refill.changes).toBe(136);
    expect(measured.maxLedgerBytes).toBe(MAX_LEDGER_BYTES);
  });

  it("keeps a year of them within the bound, and says so beside the other targets", () => {
    const results = { ...recorded, ledger: measured };
    const check = evaluateTargets(results).find((t) => t.label.startsWith("ledger:"));
    expect(check).toMatchObject({
      label: "ledger: a year of daily restatements of a 1,000-cell model",
      met: true,
    });
    // The row names the figure per change, the year and the bound, in the report and the README's markdown.
    const [row] = ledgerLines(measured);
    expect(row).toMatch(
      /^Restatement ledger: \d+\.\d bytes per recorded change for a year of daily restatements/
    );
    expect(row).toContain("(30 days recorded, scaled to a year)");
    expect(row).toContain("the bound 36.00 MB");
    expect(formatReport({ ...results, targets: evaluateTargets(results) }, [])).toContain(
      "Restatement ledger:"
    );
    expect(formatMarkdown({ ...results, targets: evaluateTargets(results) })).toContain(row);
  });

  it("misses its target, with a note, when a year would no longer fit", () => {
    const check = ledgerCheck({ ...measured, yearBytes: MAX_LEDGER_BYTES });
    expect(check).toMatchObject({ met: false, note: expect.stringMatching(/MAX_LEDGER_BYTES/) });
  });
});
