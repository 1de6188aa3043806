import { rectangular, type Table } from "../../src/functions/result";

describe("tables for Excel", () => {
  it("pads rows to the widest one", () => {
    expect(rectangular([[1, 2, 3], [4], []])).toEqual([
      [1, 2, 3],
      [4, null, null],
      [null, null, null],
    ]);
  });

  it("squares a table of 200,000 rows without exhausting the stack", () => {
    const rows: Table = Array.from({ length: 200_000 }, (_, i) => (i === 7 ? [i, "x"] : [i]));
    const out = rectangular(rows);
    expect(out).toHaveLength(200_000);
    expect(out[199_999]).toEqual([199_999, null]);
  });
});
