/** How a result cell reads on the pages (the builder's preview, the preview grid). */
import { toCell } from "../../src/sheet/cells";
import { displayCell } from "../../src/sheet/cell-display";

describe("cells on the pages", () => {
  it("shows a ratio the function formats as a percentage as one, as Excel would (0.0%)", () => {
    const change = toCell({ type: "Double", basicValue: -0.1581, numberFormat: "0.0%" });
    expect(change).toEqual({ kind: "number", value: -0.1581, percent: true });
    expect(displayCell(change)).toEqual({ text: "-15.8%", kind: "number" });
    expect(
      displayCell(toCell({ type: "Double", basicValue: 2.5, numberFormat: "0.0%" })).text
    ).toBe("250.0%");
  });

  it("shows other numbers with separators, and a date-formatted number as its date", () => {
    expect(displayCell(toCell(1234567.891)).text).toBe("1,234,568");
    expect(displayCell(toCell(-0.1581)).text).toBe("-0.1581");
    expect(
      displayCell(toCell({ type: "Double", basicValue: 45292, numberFormat: "yyyy-mm-dd" })).text
    ).toBe("2024-01-01");
  });
});
