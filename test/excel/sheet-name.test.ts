import { MAX_SHEET_NAME, sanitiseSheetName, uniqueSheetName } from "../../src/excel/sheet-name";

test("characters Excel forbids become spaces; apostrophes cannot open or close the name", () => {
  expect(sanitiseSheetName("a/b\\c?d*e[f]g:h")).toBe("a b c d e f g h");
  expect(sanitiseSheetName(`Tick & Tock "Perps" <beta> 'v2'`)).toBe(
    `Tick & Tock "Perps" <beta> 'v2`
  );
  expect(sanitiseSheetName("'quoted'")).toBe("quoted");
});

test("names are cut to 31 characters; empty or reserved names fall back", () => {
  expect(sanitiseSheetName("x".repeat(40))).toHaveLength(MAX_SHEET_NAME);
  expect(sanitiseSheetName("  ::  ")).toBe("Statement");
  expect(sanitiseSheetName("History")).toBe("Statement");
});

test("a taken name (ignoring case) gets the first free (n), still within 31 characters", () => {
  expect(uniqueSheetName("Aave", ["Sheet1"])).toBe("Aave");
  expect(uniqueSheetName("Aave", ["aave", "Aave (2)"])).toBe("Aave (3)");
  const long = "L".repeat(31);
  const second = uniqueSheetName(long, [long]);
  expect(second).toBe(`${"L".repeat(27)} (2)`);
  expect(second).toHaveLength(MAX_SHEET_NAME);
});
