import {
  DEFAULT_OPTIONS,
  optionChoices,
  parseOptions,
  type OptionKey,
} from "../../src/functions/options";
import { FunctionError } from "../../src/functions/result";

const EVERY: readonly OptionKey[] = [
  "order",
  "headers",
  "chains",
  "products",
  "sectors",
  "breakdown",
  "bridged",
  "period",
  "agg",
  "fill",
  "layout",
  "values",
  "partial",
  "maxage",
  "rows",
  "window",
  "annualize",
  "dates",
  "dir",
  "dating",
];

/** The #VALUE! error parseOptions throws, or a failed expectation when it accepts the text. */
function refusal(value: unknown, fn = "METRIC", allowed: readonly OptionKey[] = EVERY): string {
  try {
    parseOptions(value, fn, allowed);
  } catch (error) {
    expect(error).toBeInstanceOf(FunctionError);
    expect((error as FunctionError).code).toBe("value");
    return (error as FunctionError).message;
  }
  throw new Error(`parseOptions accepted ${JSON.stringify(value)}`);
}

describe("the options argument", () => {
  // Every accepted value, written out (not derived from the table the parser reads), with what it sets.
  it.each([
    ["order=asc", { order: "asc" }],
    ["order=desc", { order: "desc" }],
    ["headers=0", { headers: 0 }],
    ["headers=1", { headers: 1 }],
    ["headers=2", { headers: 2 }],
    ["breakdown=chain", { breakdown: "chain" }],
    ["breakdown=product_id", { breakdown: "product_id" }],
    ["bridged=true", { bridged: true }],
    ["bridged=false", { bridged: false }],
    ["period=day", { period: "day" }],
    ["period=week", { period: "week" }],
    ["period=month", { period: "month" }],
    ["period=quarter", { period: "quarter" }],
    ["period=year", { period: "year" }],
    ["agg=sum", { agg: "sum" }],
    ["agg=avg", { agg: "avg" }],
    ["agg=last", { agg: "last" }],
    ["agg=first", { agg: "first" }],
    ["agg=min", { agg: "min" }],
    ["agg=max", { agg: "max" }],
    ["fill=none", { fill: "none" }],
    ["fill=previous", { fill: "previous" }],
    ["fill=zero", { fill: "zero" }],
    ["layout=wide", { layout: "wide" }],
    ["layout=long", { layout: "long" }],
    ["values=value", { values: "value" }],
    ["values=pop", { values: "pop" }],
    ["values=yoy", { values: "yoy" }],
    ["partial=exclude", { partial: "exclude" }],
    ["partial=include", { partial: "include" }],
    ["rows=standard", { rows: "standard" }],
    ["rows=service", { rows: "service" }],
    ["annualize=0", { annualize: false }],
    ["annualize=1", { annualize: true }],
    ["dates=0", { dates: false }],
    ["dates=1", { dates: true }],
    ["dir=v", { dir: "v" }],
    ["dir=h", { dir: "h" }],
    ["dating=start", { dating: "start" }],
    ["dating=end", { dating: "end" }],
    ["maxage=7d", { maxage: 7 }],
    ["window=ttm", { window: { kind: "months", n: 12, text: "ttm" } }],
  ] as const)("%s sets exactly that option, leaving the others at their defaults", (text, set) => {
    expect(parseOptions(text, "METRIC", EVERY)).toEqual({ ...DEFAULT_OPTIONS, ...set });
  });

  it("a series takes values=value|pop|yoy and refuses coverage by name; the statement takes all four", () => {
    for (const fn of ["VALUE", "ASOF", "METRIC", "PRODUCT_METRIC"]) {
      for (const v of ["value", "pop", "yoy"])
        expect(parseOptions(`values=${v}`, fn, ["values"]).values).toBe(v);
      expect(refusal("values=coverage", fn, ["values"])).toBe(
        `option "values=coverage" does not apply to ${fn}; it takes values=value|pop|yoy`
      );
    }
    for (const v of ["value", "pop", "yoy", "coverage"])
      expect(parseOptions(`values=${v}`, "STATEMENT", ["values"]).values).toBe(v);
    expect(refusal("values=median", "STATEMENT", ["values"])).toBe(
      'option values="median" is not allowed; use values=value|pop|yoy|coverage'
    );
  });

  it("a product's series breaks down by chain only; a project's by chain or product", () => {
    expect(parseOptions("breakdown=chain", "PRODUCT_METRIC", ["breakdown"]).breakdown).toBe(
      "chain"
    );
    expect(refusal("breakdown=product_id", "PRODUCT_METRIC", ["breakdown"])).toBe(
      'option "breakdown=product_id" does not apply to PRODUCT_METRIC; it takes breakdown=chain'
    );
    expect(parseOptions("breakdown=product_id", "METRIC", ["breakdown"]).breakdown).toBe(
      "product_id"
    );
  });

  it("every window preset the formula builder offers parses", () => {
    const presets = optionChoices("VALUE", "window");
    expect(presets).toEqual(["30d", "90d", "ttm", "ytd", "qtd", "mtd"]);
    for (const preset of presets ?? [])
      expect(parseOptions(`window=${preset}`, "VALUE", ["window"]).window?.text).toBe(preset);
  });

  it("values=coverage is read for the statement", () => {
    expect(parseOptions("values=coverage", "STATEMENT", ["values"])).toEqual({
      ...DEFAULT_OPTIONS,
      values: "coverage",
    });
  });

  it("the defaults: oldest first, one header row, bridged, daily, no fill, wide, values, whole periods", () => {
    // Written out, not read from the table the parser copies: a changed default changes every cell.
    expect({ ...DEFAULT_OPTIONS }).toEqual({
      order: "asc",
      headers: 1,
      chains: [],
      products: [],
      sectors: [],
      bridged: true,
      period: "day",
      fill: "none",
      layout: "wide",
      values: "value",
      partial: "exclude",
      rows: "standard",
      annualize: false,
      dates: true,
      dir: "v",
      dating: "end",
      fills: [],
      asof: false,
    });
  });

  it("says options are separated by ';' when a comma joins two, with the text as it should be", () => {
    expect(() => parseOptions("period=month, agg=max", "VALUE", EVERY)).toThrow(
      'options are separated by ";", not ","; write "period=month; agg=max"'
    );
    expect(() => parseOptions("chains=base,arbitrum, bridged=false", "METRIC", EVERY)).toThrow(
      'write "chains=base,arbitrum; bridged=false"'
    );
    // A comma list inside one option is no slip.
    expect(parseOptions("chains=base,arbitrum", "METRIC", EVERY).chains).toEqual([
      "base",
      "arbitrum",
    ]);
  });

  it("COMPS takes one fill per kind of metric as a comma list, each checked", () => {
    expect(parseOptions("fill=previous,zero", "COMPS", EVERY).fills).toEqual(["previous", "zero"]);
    expect(parseOptions("fill=previous", "COMPS", EVERY).fills).toEqual(["previous"]);
    expect(() => parseOptions("fill=previous,sideways", "COMPS", EVERY)).toThrow(
      'option fill="sideways" is not allowed'
    );
    // Elsewhere fill is one value.
    expect(() => parseOptions("fill=previous,zero", "VALUE", EVERY)).toThrow(/not allowed/);
  });

  it("annualize, dates: 1 is on and 0 is off, whatever the defaults", () => {
    expect(parseOptions("annualize=1; dates=0", "METRIC", EVERY)).toMatchObject({
      annualize: true,
      dates: false,
    });
    expect(parseOptions("annualize=0; dates=1", "METRIC", EVERY)).toMatchObject({
      annualize: false,
      dates: true,
    });
  });

  it("maxage takes a whole number of days written <N>d, spaces and case aside", () => {
    expect(parseOptions("maxage=0d", "METRIC", EVERY).maxage).toBe(0);
    expect(parseOptions("maxage = 30 D", "METRIC", EVERY).maxage).toBe(30);
    expect(parseOptions("maxage=99999d", "METRIC", EVERY).maxage).toBe(99_999);
    for (const bad of ["7", "d", "7days", "x7d", "7dd", "1.5d", "-7d", "123456d", ""])
      expect(refusal(`maxage=${bad}`)).toBe(
        `option maxage="${bad}" is not allowed; use maxage=<N>d, e.g. maxage=7d`
      );
  });

  it("window takes a trailing window, and refuses other text naming the forms", () => {
    expect(parseOptions("window=30D", "METRIC", EVERY).window).toEqual({
      kind: "days",
      n: 30,
      text: "30d",
    });
    expect(parseOptions("window=ytd", "METRIC", EVERY).window).toMatchObject({
      kind: "todate",
      period: "year",
    });
    expect(refusal("window=5y")).toBe(
      'option window="5y" is not allowed; use window=<N>d, <N>m, ttm, ytd, qtd or mtd (e.g. 30d, 3m)'
    );
  });

  it("refuses a value outside every newer option's set, listing the allowed values", () => {
    expect(refusal("partial=some")).toBe(
      'option partial="some" is not allowed; use partial=exclude|include'
    );
    expect(refusal("rows=mine")).toBe(
      'option rows="mine" is not allowed; use rows=standard|service'
    );
    expect(refusal("annualize=yes")).toBe(
      'option annualize="yes" is not allowed; use annualize=0|1'
    );
    expect(refusal("dates=2")).toBe('option dates="2" is not allowed; use dates=0|1');
    expect(refusal("dir=d")).toBe('option dir="d" is not allowed; use dir=v|h');
    expect(refusal("dating=middle")).toBe(
      'option dating="middle" is not allowed; use dating=start|end'
    );
  });

  it("bridged=true reads as true, bridged=false as false, in any case", () => {
    expect(parseOptions("bridged=false", "METRIC", EVERY).bridged).toBe(false);
    expect(parseOptions("bridged=true", "METRIC", EVERY).bridged).toBe(true);
    expect(parseOptions("BRIDGED=TRUE", "METRIC", EVERY).bridged).toBe(true);
  });

  it("headers are numbers, not text", () => {
    expect(parseOptions("headers=0", "METRIC", EVERY).headers).toBe(0);
    expect(parseOptions("headers=2", "METRIC", EVERY).headers).toBe(2);
  });

  it("takes spaces around the key, the '=' and the value", () => {
    expect(parseOptions("order= desc", "METRIC", EVERY).order).toBe("desc");
    expect(parseOptions("order =desc", "METRIC", EVERY).order).toBe("desc");
    expect(parseOptions("  period  =  month  ;  fill = zero ", "METRIC", EVERY)).toMatchObject({
      period: "month",
      fill: "zero",
    });
  });

  it("an options range with blank cells keeps the options of the other cells", () => {
    expect(parseOptions([["order=desc"], [""], [null], ["  "]], "METRIC", EVERY)).toEqual({
      ...DEFAULT_OPTIONS,
      order: "desc",
    });
    expect(parseOptions([["period=month", null, "fill=previous"]], "METRIC", EVERY)).toMatchObject({
      period: "month",
      fill: "previous",
    });
  });

  it("a blank cell, an empty text or an all-blank range means the defaults", () => {
    for (const blank of [null, undefined, "", "   ", [[null], [""]], [["", " "]]])
      expect(parseOptions(blank, "METRIC", EVERY)).toBe(DEFAULT_OPTIONS);
    // Only separators: no option given either.
    expect(parseOptions(" ; ;", "METRIC", EVERY)).toEqual(DEFAULT_OPTIONS);
  });

  it("reads list options as trimmed comma lists, dropping empty items", () => {
    expect(
      parseOptions("chains= base,, arbitrum ,; products=p1; sectors=defi,dex", "METRIC", EVERY)
    ).toMatchObject({
      chains: ["base", "arbitrum"],
      products: ["p1"],
      sectors: ["defi", "dex"],
    });
    expect(refusal("sectors= , ,")).toBe('option "sectors" needs a comma list of ids');
  });

  it("keeps list ids as written (ids are the service's), while keys and choices ignore case", () => {
    expect(parseOptions("Chains=Base", "METRIC", EVERY).chains).toEqual(["Base"]);
    expect(parseOptions("ORDER=DESC", "METRIC", EVERY).order).toBe("desc");
  });

  it("gives every call its own lists: one cell's chains never leak into the defaults", () => {
    const first = parseOptions("order=desc", "METRIC", EVERY);
    expect(first.chains).toEqual([]);
    expect(first.chains).not.toBe(DEFAULT_OPTIONS.chains);
    expect(Object.isFrozen(DEFAULT_OPTIONS)).toBe(true);
  });

  it("refuses text without a key, naming the pair and an example", () => {
    expect(refusal("=desc")).toBe(
      'option "=desc" is not key=value (e.g. "order=desc; period=month")'
    );
    expect(refusal("order=desc; monthly")).toMatch(/^option "monthly" is not key=value/);
  });

  it("refuses an unknown key as written, listing what the function takes", () => {
    expect(refusal("Colour=red", "STATEMENT", ["order", "headers"])).toBe(
      'unknown option "Colour"; STATEMENT takes order, headers'
    );
    expect(refusal("Colour =red", "STATEMENT", ["order"])).toBe(
      'unknown option "Colour"; STATEMENT takes order'
    );
    expect(refusal("colour=red", "PROJECTS", [])).toBe(
      'unknown option "colour"; PROJECTS takes no options'
    );
  });

  it("refuses an option that does not apply to the function", () => {
    expect(refusal("fill=zero", "STATEMENT", ["order"])).toBe(
      'option "fill" does not apply to STATEMENT; it takes order'
    );
    expect(refusal("fill=zero", "STATEMENT", ["order", "headers"])).toBe(
      'option "fill" does not apply to STATEMENT; it takes order, headers'
    );
    expect(refusal("fill=zero", "PROJECTS", [])).toBe(
      'option "fill" does not apply to PROJECTS; it takes no options'
    );
  });

  it("refuses a value outside the option's set, listing the allowed values", () => {
    expect(refusal("agg=median")).toBe(
      'option agg="median" is not allowed; use agg=sum|avg|last|first|min|max'
    );
    expect(refusal("headers=3")).toBe('option headers="3" is not allowed; use headers=0|1|2');
    expect(refusal("bridged=yes")).toBe(
      'option bridged="yes" is not allowed; use bridged=true|false'
    );
    expect(refusal("order=")).toBe('option order="" is not allowed; use order=asc|desc');
  });

  it("refuses an option given twice, in one text or across a range's cells", () => {
    expect(refusal("fill=zero; FILL=none")).toBe('option "fill" is given twice');
    expect(refusal([["fill=zero"], ["fill=none"]])).toBe('option "fill" is given twice');
  });

  it("names the options argument when a cell is not text", () => {
    expect(refusal(true)).toMatch(/^options /);
    expect(refusal([[true], ["order=desc"]])).toMatch(/^options /);
  });

  it("refuses a number cell in an options range: it is not key=value", () => {
    expect(refusal([["order=desc", 5]])).toBe(
      'option "5" is not key=value (e.g. "order=desc; period=month")'
    );
  });
});
