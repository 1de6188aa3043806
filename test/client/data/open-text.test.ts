import { openText } from "../../../src/client";

function nested(depth: number): unknown {
  let value: unknown = "chain";
  for (let i = 0; i < depth; i++) value = { by: value };
  return value;
}

describe("open members as text", () => {
  it("renders shallow values as JSON", () => {
    expect(openText({ chain: ["ethereum", "base"], product_id: true, n: 2 })).toBe(
      '{"chain":["ethereum","base"],"product_id":true,"n":2}'
    );
    expect(openText(null)).toBe("");
    expect(openText("text")).toBe("text");
  });

  it("stops at the depth limit instead of overflowing the stack", () => {
    const text = openText(nested(100_000), { maxDepth: 3, maxLength: 1_000 });
    expect(text).toBe('{"by":{"by":{"by":{…}}}}');
    // JSON.stringify itself fails on such a value: what this module is for.
    expect(() => JSON.stringify(nested(100_000))).toThrow(RangeError);
  });

  it("stops at the length limit without rendering the rest", () => {
    const wide = Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`k${i}`, i]));
    const text = openText(wide, { maxDepth: 4, maxLength: 50 });
    expect(text).toHaveLength(51);
    expect(text.endsWith("…")).toBe(true);
  });
});
