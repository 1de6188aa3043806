import {
  defaultMetric,
  metricLastYearFormula,
  projectFormula,
  sectorFormula,
  statementFormula,
  valueFormula,
} from "../../src/taskpane/model/insert-actions";
import { displayCell, formatNumber } from "../../src/sheet/cell-display";
import { freezeNote } from "../../src/taskpane/model/freeze-note";
import { extend, RecordingWorkbook } from "../support/recording-workbook";
import { formulasEntry, isCryptoFormula } from "../../src/excel/port";

test("the catalogue's insert buttons write the reference's formulas", () => {
  expect(valueFormula("aave", "revenue")).toBe('=CRYPTO.VALUE("aave","revenue")');
  expect(metricLastYearFormula("aave", "fees")).toBe('=CRYPTO.METRIC("aave","fees",TODAY()-365)');
  expect(statementFormula("aave")).toBe('=CRYPTO.STATEMENT("aave","quarter","1y")');
  expect(projectFormula("tick-and-tock")).toBe('=CRYPTO.PROJECT("tick-and-tock")');
  expect(sectorFormula("lending")).toBe('=CRYPTO.SECTOR("lending")');
  expect(defaultMetric(["tvl", "fees"])).toBe("fees");
  expect(defaultMetric(["code_commits"])).toBe("code_commits");
  expect(defaultMetric([])).toBeUndefined();
});

test("result cells read as text: separators, dates, errors with their message", () => {
  expect(formatNumber(1234567.891)).toBe("1,234,568");
  expect(formatNumber(12.345)).toBe("12.35");
  expect(formatNumber(0.000123456)).toBe("0.0001235");
  expect(formatNumber(0)).toBe("0");
  expect(displayCell({ kind: "date", value: "2024-01-01", serial: 45292 })).toEqual({
    text: "2024-01-01",
    kind: "date",
  });
  expect(displayCell({ kind: "error", code: "#N/A", message: "unknown project" })).toEqual({
    text: "#N/A",
    kind: "error",
    message: "unknown project",
  });
  expect(displayCell({ kind: "boolean", value: false }).text).toBe("FALSE");
  expect(displayCell({ kind: "empty" }).text).toBe("");
});

test("CRYPTO formulas are told from others whatever their case; text never becomes a formula", () => {
  expect(isCryptoFormula('=CRYPTO.VALUE("aave","fees")')).toBe(true);
  expect(isCryptoFormula('=1+crypto.value("aave","fees")')).toBe(true);
  expect(isCryptoFormula("=SUM(A1:A3)")).toBe(false);
  expect(isCryptoFormula("=MYCRYPTO.VALUE(1)")).toBe(false);
  expect(isCryptoFormula('CRYPTO.VALUE("a")')).toBe(false);
  expect(isCryptoFormula(42)).toBe(false);
  expect(formulasEntry('=HYPERLINK("x")')).toBe('\'=HYPERLINK("x")');
  expect(formulasEntry("-5%")).toBe("'-5%");
  expect(formulasEntry({ formula: "=CRYPTO.SECTORS()" })).toBe("=CRYPTO.SECTORS()");
  expect(formulasEntry(null)).toBe("");
  expect(formulasEntry(-5)).toBe(-5);
});

test("the freeze note says when, and that the figures were demo data when they were", () => {
  const at = Date.UTC(2025, 5, 15, 12);
  expect(freezeNote(at, false)).toBe(
    "Cryptometrics values as of 2025-06-15 12:00:00 UTC: the CRYPTO formulas here were replaced by their values (Freeze to values) and no longer update."
  );
  expect(freezeNote(at, true)).toMatch(/Demo data — not real figures\.$/);
});

test("the recording workbook answers like a small workbook and records each request", async () => {
  const wb = new RecordingWorkbook();
  expect(extend("Sheet1!B2", 3, 4)).toBe("Sheet1!B2:E4");
  expect(extend("Sheet1!Y9", 1, 3)).toBe("Sheet1!Y9:AA9");
  wb.select("Sheet1!C3");
  expect(await wb.insertFormula("=CRYPTO.SECTORS()")).toEqual({ address: "Sheet1!C3" });
  const sheet = {
    name: "Aave",
    blocks: [],
    formats: [],
    freeze: { rows: 0, columns: 0 },
    columnWidths: {},
  };
  expect(await wb.createSheet(sheet)).toEqual({ sheetName: "Aave" });
  expect(await wb.createSheet(sheet)).toEqual({ sheetName: "Aave (2)" });
  expect(wb.calls.map((c) => c.op)).toEqual(["insertFormula", "createSheet", "createSheet"]);
  let heard = 0;
  const stop = wb.onSelectionChanged(() => (heard += 1));
  wb.select("Sheet1!A1");
  stop();
  wb.select("Sheet1!A2");
  expect(heard).toBe(1);
});
