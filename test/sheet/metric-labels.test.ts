/**
 * The words COMPS and STATEMENT write where people read: the catalogue's metric names, windows as analysts
 * write them, and a comps ratio by its finance name. Pure; the functions' own tests check the tables.
 */
import { parseColumn } from "../../src/sheet/comps-columns";
import { compsColumnLabel, metricNamesFrom } from "../../src/sheet/metric-labels";

const catalogue = [
  ["fees", "Fees"],
  ["fees_supply_side", "Supply-side fees"],
  ["revenue", "Revenue"],
  ["earnings", "Earnings"],
  ["tvl", "Total value locked"],
  ["market_cap_fully_diluted", "Fully diluted market cap"],
  ["market_cap_circulating", "Circulating market cap"],
].map(([metricId, metricName]) => ({ metricId, metricName, description: "", url: "" }));

const names = metricNamesFrom(catalogue);
const label = (column: string): string => compsColumnLabel(parseColumn(column), names);

describe("labels in a finance user's words", () => {
  it("names a metric by its catalogue name, whether written as its id or its name, any case", () => {
    expect(names("fees_supply_side")).toBe("Supply-side fees");
    expect(names("Supply-side fees")).toBe("Supply-side fees");
    expect(names(" REVENUE ")).toBe("Revenue");
    // Not in the catalogue: as the service wrote it.
    expect(names("some_new_metric")).toBe("some_new_metric");
  });

  it.each([
    ["market_cap_fully_diluted", "Fully diluted market cap"],
    ["revenue:ttm", "Revenue (TTM)"],
    ["fees:30d", "Fees (30d)"],
    ["fees:3m", "Fees (3m)"],
    ["revenue:ytd", "Revenue (YTD)"],
    ["earnings:QTD", "Earnings (QTD)"],
    ["market_cap_fully_diluted/revenue:ttm", "P/S (TTM)"],
    // A multiple only over a year's figure: 30 days' fees is not annual fees.
    ["market_cap_fully_diluted/fees:30d", "Fully diluted market cap / Fees (30d)"],
    ["market_cap_fully_diluted/fees:365d", "P/F (365d)"],
    ["market_cap_fully_diluted/fees:12m", "P/F (12m)"],
    ["market_cap_fully_diluted/earnings:ttm", "P/E (TTM)"],
    ["market_cap_circulating/revenue:ttm", "P/S circulating (TTM)"],
    ["Fully diluted market cap/Revenue:ttm", "P/S (TTM)"],
    // One day's revenue: a market cap over it is no P/S.
    ["market_cap_fully_diluted/revenue", "Fully diluted market cap / Revenue"],
    ["tvl/fees:ttm", "Total value locked / Fees (TTM)"],
    // A windowed market cap is not a price multiple: said as it is.
    ["market_cap_fully_diluted:30d/revenue:ttm", "Fully diluted market cap (30d) / Revenue (TTM)"],
  ])("%s reads %s", (column, expected) => {
    expect(label(column)).toBe(expected);
  });

  it.each([
    ["market_cap_fully_diluted/revenue:30d", "P/S (30d annualised)"],
    ["market_cap_fully_diluted/fees:90d", "P/F (90d annualised)"],
    ["market_cap_fully_diluted/revenue:ttm", "P/S (TTM)"],
    ["revenue:30d", "Revenue (30d annualised)"],
    // One day's revenue is not annualised by annualize=1 (it scales windows): no P/S.
    ["market_cap_fully_diluted/revenue", "Fully diluted market cap / Revenue"],
    // Only the terms annualize=1 scales (the summed ones) say so: TVL over 30 days is no annual rate.
    ["tvl:30d", "Total value locked (30d)"],
    ["market_cap_fully_diluted/tvl:30d", "Fully diluted market cap / Total value locked (30d)"],
  ])("with annualize=1, %s reads %s", (column, expected) => {
    const summed = (t: { metric: string }) =>
      !["tvl", "market_cap_fully_diluted"].includes(t.metric);
    expect(compsColumnLabel(parseColumn(column), names, summed)).toBe(expected);
  });
});
