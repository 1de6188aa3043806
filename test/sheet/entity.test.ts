import { toCell, toGrid } from "../../src/sheet/cells";
import { entityField, validateEntity } from "../../src/sheet/entity";
import { fieldValue } from "../../src/sheet/fields";

/** A small valid card, rebuilt per test so each can break it its own way. */
function card(): Record<string, unknown> {
  return {
    type: "Entity",
    text: "Aave",
    properties: {
      Id: { type: "String", basicValue: "aave" },
      Symbol: { type: "String", basicValue: "AAVE" },
      Revenue: {
        type: "FormattedNumber",
        basicValue: 1250.5,
        numberFormat: "$#,##0",
        propertyMetadata: { sublabel: "as of 2026-11-19" },
      },
      "Launch date": { type: "FormattedNumber", basicValue: 43838, numberFormat: "yyyy-mm-dd" },
      "P/S": {
        type: "Error",
        errorType: "NotAvailable",
        basicValue: "#N/A",
        propertyMetadata: { sublabel: "no market cap" },
      },
      Quarters: {
        type: "Array",
        elements: [
          [
            { type: "String", basicValue: "Q2 2026" },
            { type: "String", basicValue: "Q3 2026" },
          ],
        ],
      },
      Hidden: {
        type: "String",
        basicValue: "x",
        propertyMetadata: { excludeFrom: { dotNotation: true } },
      },
      Financials: {
        type: "Entity",
        text: "Financials",
        properties: { Fees: { type: "Double", basicValue: 3 } },
        layouts: { card: { sections: [{ layout: "List", properties: ["Fees"] }] } },
      },
    },
    layouts: {
      compact: { icon: "ArrowTrendingLines" },
      card: {
        title: { property: "Id" },
        sections: [{ layout: "List", title: "Key figures", properties: ["Revenue", "P/S"] }],
      },
    },
    referencedValues: [],
    provider: { description: "Cryptometrics · demo data" },
  };
}

type Json = Record<string, unknown>;
const props = (c: Json) => c.properties as Record<string, Json>;

describe("the entity validator", () => {
  it("accepts a well-formed card, referencedValues on its root included", () => {
    expect(validateEntity(card())).toEqual([]);
  });

  it("refuses referencedValues on a nested entity (Excel shows #VALUE! without a word)", () => {
    const c = card();
    props(c).Financials.referencedValues = [];
    expect(validateEntity(c)).toEqual([
      expect.stringMatching(/^\$\.properties\.Financials: referencedValues is allowed on the root/),
    ]);
  });

  it("refuses a layout naming a property the entity lacks, at any depth", () => {
    const c = card();
    ((c.layouts as Json).card as Json).sections = [{ layout: "List", properties: ["Revenue TTM"] }];
    const financials = props(c).Financials;
    (financials.layouts as Json).card = { title: { property: "Name" }, sections: [] };
    expect(validateEntity(c)).toEqual([
      '$.properties.Financials.layouts.card.title.property: names "Name", which is not a property',
      '$.layouts.card.sections[0].properties[0]: names "Revenue TTM", which is not a property',
    ]);
  });

  it("refuses undefined anywhere, and numbers that are not finite", () => {
    const c = card();
    props(c).Symbol.basicValue = undefined;
    props(c).Revenue.basicValue = NaN;
    (props(c).Quarters.elements as Json[][])[0][1] = {
      type: "FormattedNumber",
      basicValue: Infinity,
      numberFormat: "0",
    };
    expect(validateEntity(c)).toEqual(
      expect.arrayContaining([
        "$.properties.Symbol.basicValue: undefined",
        "$.properties.Revenue.basicValue: NaN is not a finite number",
        "$.properties.Quarters.elements[0][1].basicValue: Infinity is not a finite number",
      ])
    );
  });

  it("refuses values of an unknown type, or whose basic value does not match their type", () => {
    const c = card();
    props(c).Symbol = { type: "Text", basicValue: "AAVE" };
    props(c).Revenue = { type: "FormattedNumber", basicValue: "1,250" };
    expect(validateEntity(c)).toEqual([
      '$.properties.Symbol.type: unknown cell value type "Text"',
      "$.properties.Revenue.basicValue: FormattedNumber needs a number",
      "$.properties.Revenue.numberFormat: FormattedNumber needs a number format",
    ]);
  });

  it("says what it got when the value is no entity at all", () => {
    expect(validateEntity({ type: "String", basicValue: "x" })).toEqual([
      '$: not an entity (type must be "Entity")',
    ]);
  });
});

describe("a card as a cell", () => {
  it("is an entity cell showing its text", () => {
    expect(toGrid([[card()]])).toEqual([[{ kind: "entity", text: "Aave", value: card() }]]);
  });

  it("is #VALUE! with the reason when Excel would refuse it", () => {
    const c = card();
    props(c).Financials.referencedValues = [];
    expect(toCell(c)).toEqual({
      kind: "error",
      code: "#VALUE!",
      message: expect.stringContaining("referencedValues is allowed on the root entity only"),
    });
  });
});

describe("reading fields (FIELDVALUE and dot access)", () => {
  const cell = toCell(card());

  it("finds a field whatever its case, as Excel's dot access does", () => {
    expect(fieldValue(cell, "symbol")).toEqual([[{ kind: "string", value: "AAVE" }]]);
    expect(fieldValue(cell, "Revenue")).toEqual([[{ kind: "number", value: 1250.5 }]]);
    const c = card();
    expect(entityField(c, "LAUNCH DATE")).toBe(props(c)["Launch date"]);
  });

  it("reads a formatted date as a date, an array as a spill, a nested card as a card", () => {
    expect(fieldValue(cell, "Launch date")).toEqual([
      [{ kind: "date", value: "2020-01-08", serial: 43838 }],
    ]);
    expect(fieldValue(cell, "Quarters")).toEqual([
      [
        { kind: "string", value: "Q2 2026" },
        { kind: "string", value: "Q3 2026" },
      ],
    ]);
    const financials = fieldValue(cell, "Financials")[0][0];
    expect(financials).toMatchObject({ kind: "entity", text: "Financials" });
    expect(fieldValue(financials, "Fees")).toEqual([[{ kind: "number", value: 3 }]]);
  });

  it("reads an error field as that error, with the card's note on it as the message", () => {
    expect(fieldValue(cell, "P/S")).toEqual([
      [{ kind: "error", code: "#N/A", message: "no market cap" }],
    ]);
  });

  it("is #FIELD! for a field the card lacks (or hides from dot notation), or a value that is no card", () => {
    const [[missing]] = fieldValue(cell, "Colour");
    expect(missing).toMatchObject({ kind: "error", code: "#FIELD!" });
    expect(missing.kind === "error" && missing.message).toMatch(
      /^"Aave" has no field "Colour"; fields: Id, Symbol, Revenue/
    );
    expect(fieldValue(cell, "Hidden")[0][0]).toMatchObject({ code: "#FIELD!" });
    expect(fieldValue({ kind: "number", value: 3 }, "Symbol")[0][0]).toMatchObject({
      code: "#FIELD!",
    });
  });

  it("passes an error through rather than hiding it behind #FIELD!", () => {
    const error = { kind: "error" as const, code: "#N/A", message: "unknown project" };
    expect(fieldValue(error, "Symbol")).toEqual([[error]]);
  });
});
