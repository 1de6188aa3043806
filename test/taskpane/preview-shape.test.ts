import { indexCatalogue } from "../../src/taskpane/model/catalogue-store";
import { previewShape } from "../../src/taskpane/model/preview-shape";
import type { Metric, Project } from "../../src/client";

const catalogue = indexCatalogue(
  [
    { projectId: "aave", name: "Aave" } as Project,
    { projectId: "uniswap", name: "Uniswap" } as Project,
  ],
  [
    { metricId: "revenue", metricName: "Revenue" } as Metric,
    { metricId: "tvl", metricName: "Total value locked" } as Metric,
  ],
  []
);

describe("how the builder's preview reads a result", () => {
  test("a series: its header row heads the columns by name, its newest days last, its Date names the rows", () => {
    const shape = previewShape("METRIC", {}, catalogue);
    expect(shape).toMatchObject({ headerRows: 1, rowHeadingColumn: 0, newest: "last" });
    expect(shape.heading("Date", 0)).toBeUndefined();
    expect(shape.heading("revenue", 1)).toEqual({ name: "Revenue", cell: "revenue" });
    expect(shape.heading("uniswap", 2)).toEqual({ name: "Uniswap", cell: "uniswap" });
    // An id the catalogue does not know is shown as the cell holds it.
    expect(shape.heading("unknown_metric", 1)).toBeUndefined();
  });

  test("growth is said in the headings; order=desc puts the newest first; headers=0 and 2 are followed", () => {
    const yoy = previewShape("METRIC", { values: "yoy", order: "desc", headers: "2" }, catalogue);
    expect(yoy).toMatchObject({ headerRows: 2, newest: "first" });
    expect(yoy.heading("tvl", 1)).toEqual({ name: "Total value locked, YoY", cell: "tvl" });
    expect(previewShape("PRODUCT_METRIC", { values: "pop" }, catalogue).heading("x", 1)).toEqual({
      name: "x, change on the previous period",
    });
    expect(previewShape("METRIC", { headers: "0" }, catalogue).headerRows).toBe(0);
  });

  test("a statement across periods opens on its newest, its Metric column naming the rows", () => {
    const wide = previewShape("STATEMENT", {}, catalogue);
    expect(wide).toMatchObject({ headerRows: 1, rowHeadingColumn: 1, newest: "across" });
    expect(wide.heading("Q3 '26", 5)).toBeUndefined();
    expect(previewShape("STATEMENT", { values: "yoy" }, catalogue).heading("Q3 '26", 5)).toEqual({
      name: "Q3 '26, YoY",
    });
    expect(previewShape("STATEMENT", { layout: "long" }, catalogue)).toMatchObject({
      rowHeadingColumn: 3,
      newest: "last",
    });
  });

  test("catalogue tables have one header row; single values none", () => {
    expect(previewShape("METRICS", {}, catalogue)).toMatchObject({ headerRows: 1, newest: "none" });
    expect(previewShape("AGGREGATIONS", {}, catalogue).headerRows).toBe(1);
    expect(previewShape("VALUE", {}, catalogue).headerRows).toBe(0);
    expect(previewShape("PROJECT", {}, catalogue).headerRows).toBe(0);
  });
});
