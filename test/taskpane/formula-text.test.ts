import { parseFormula, printFormula } from "../../src/sheet/formula";
import {
  callForPreview,
  formulaText,
  num,
  OMITTED,
  quote,
  text,
} from "../../src/taskpane/model/formula-text";
import { dayNumber } from "../../src/client/data/days";
import { dayToSerial } from "../../src/sheet/excel-dates";

test("text is quoted with inner double quotes doubled, as Excel reads it back", () => {
  expect(quote(`Tick & Tock "Perps" <beta> 'v2'`)).toBe(`"Tick & Tock ""Perps"" <beta> 'v2'"`);
  expect(quote("")).toBe('""');
});

test("calls read like the function reference: namespace, no spaces, empty middle arguments, no trailing ones", () => {
  expect(formulaText("VALUE", [text("aave"), text("fees")])).toBe('=CRYPTO.VALUE("aave","fees")');
  expect(formulaText("VALUE", [text("aave"), text("fees"), OMITTED, text("period=quarter")])).toBe(
    '=CRYPTO.VALUE("aave","fees",,"period=quarter")'
  );
  expect(formulaText("STATEMENT", [text("aave"), OMITTED, OMITTED, OMITTED])).toBe(
    '=CRYPTO.STATEMENT("aave")'
  );
  expect(formulaText("SECTORS", [])).toBe("=CRYPTO.SECTORS()");
  expect(
    formulaText("METRIC", [text("aave"), text("fees"), { kind: "today-minus", days: 365 }])
  ).toBe('=CRYPTO.METRIC("aave","fees",TODAY()-365)');
  expect(formulaText("VALUE", [text("aave"), text("fees"), { kind: "today-minus", days: 0 }])).toBe(
    '=CRYPTO.VALUE("aave","fees",TODAY())'
  );
});

test("constant formulas are exactly what the CLI's parser reads back and prints", () => {
  const samples = [
    formulaText("VALUE", [
      text(`a "quoted" id`),
      text("fees"),
      OMITTED,
      text("fill=previous; chains=base"),
    ]),
    formulaText("METRIC", [text("aave,uniswap"), text("fees"), text("2024-01-01"), num(45300)]),
    formulaText("PROJECT", [text("tick-and-tock"), text("description.what")]),
  ];
  for (const formula of samples) expect(printFormula(parseFormula(formula))).toBe(formula);
  expect(parseFormula(samples[0]).args[0]).toEqual({ kind: "string", value: `a "quoted" id` });
});

test("the preview call resolves TODAY()-N to today's serial minus N and drops trailing omissions", () => {
  const today = dayNumber("2025-06-15");
  const call = callForPreview(
    "METRIC",
    [text("aave"), text("fees"), { kind: "today-minus", days: 365 }, OMITTED],
    today
  );
  expect(call).toEqual({
    name: "METRIC",
    args: [
      { kind: "string", value: "aave" },
      { kind: "string", value: "fees" },
      { kind: "number", value: dayToSerial(dayNumber("2024-06-15")) },
    ],
  });
});
