/**
 * The Excel functions and arithmetic allowed inside CRYPTO arguments give what Excel gives (1900 date
 * system: 45292 is 2024-01-01), with the recalculation's clock injected.
 */
import { computeArguments } from "../../src/sheet/expressions";
import { textFrom } from "../../src/sheet/excel-functions";
import { parseFormula } from "../../src/sheet/formula";

/** Noon UTC on 2024-03-31 (serial 45382), in a time zone at UTC. */
const CLOCK = { now: Date.UTC(2024, 2, 31, 12), utcOffsetMinutes: 0 };

/** The value an argument computes to, or the error it gives. */
function value(argument: string, clock = CLOCK): unknown {
  const computed = computeArguments(parseFormula(`f(${argument})`).args, clock);
  if (!computed.ok) return { error: computed.error.code, message: computed.error.message };
  const [arg] = computed.args;
  return "value" in arg ? arg.value : arg;
}

describe("dates as Excel computes them", () => {
  it.each([
    ["DATE(2024,1,1)", 45292],
    ["DATE(2024,3,31)", 45382],
    ["DATE(2024,13,1)", 45658], // months roll into the next year
    ["DATE(2024,1,0)", 45291], // day 0 is the last day of the month before
    ["DATE(2024,3,-1)", 45350], // 2024-02-28
    ["DATE(2024.9,1.9,1.9)", 45292], // arguments truncated
    ["DATE(24,1,1)", 8767], // years 0..1899 count from 1900: 1924-01-01
    ["DATE(1900,3,1)", 61], // after Excel's fictitious 1900-02-29
    ["DATE(1900,1,1)", 1],
    ['DATE("2024","3","31")', 45382], // numeric text is a number
    ["EDATE(DATE(2024,1,31),1)", 45351], // 2024-02-29: the day clamped to the month's end
    ["EDATE(DATE(2024,3,31),-1)", 45351],
    ["EDATE(DATE(2024,1,15),12)", 45672], // 2025-01-15
    ['EDATE("2024-01-15",-13)', 44910], // 2022-12-15
    ["EOMONTH(DATE(2024,2,10),0)", 45351],
    ["EOMONTH(DATE(2024,1,15),-1)", 45291],
    ['EOMONTH("2024-03-31",1)', 45412], // 2024-04-30
    ['YEAR("2024-03-31")', 2024],
    ['MONTH("2024-03-31")', 3],
    ["DAY(45382)", 31],
    ["DAY(45382.75)", 31], // the time of day is ignored
    ["MONTH(60)", 2], // Excel's fictitious 1900-02-29
    ["DAY(60)", 29],
    ["YEAR(DATE(2024,3,31)+1)", 2024],
  ])("%s = %d", (text, expected) => {
    expect(value(text)).toBe(expected);
  });

  it.each([
    ["DATE(-1,1,1)", /^DATE: year -1 is outside 1900\.\.9999$/],
    ["DATE(10000,1,1)", /^DATE: year 10000/],
    ["DATE(1900,1,-5)", /^DATE: the date is outside Excel's dates$/],
    ["YEAR(-1)", /^YEAR: not a date Excel knows$/],
    ["EDATE(DATE(9999,12,1),1)", /^EDATE: the result is outside Excel's dates$/],
  ])("%s is #NUM!, saying why", (text, message) => {
    expect(value(text)).toEqual({ error: "#NUM!", message: expect.stringMatching(message) });
  });

  it("TODAY() is the local calendar day of the recalculation's clock, NOW() adds the time of day", () => {
    expect(value("TODAY()")).toBe(45382);
    expect(value("NOW()")).toBe(45382.5);
    const lateEvening = { now: Date.UTC(2024, 2, 31, 23, 30), utcOffsetMinutes: 0 };
    expect(value("TODAY()", lateEvening)).toBe(45382);
    // Half past midnight in a time zone one hour ahead: already 1 April there, as Excel would show.
    expect(value("TODAY()", { ...lateEvening, utcOffsetMinutes: 60 })).toBe(45383);
    expect(value("NOW()", { ...lateEvening, utcOffsetMinutes: 60 })).toBeCloseTo(
      45383 + 0.5 / 24,
      9
    );
    expect(value("TODAY()", { ...lateEvening, utcOffsetMinutes: -600 })).toBe(45382);
  });
});

describe("arithmetic and concatenation", () => {
  it.each([
    ["TODAY()-365", 45017],
    ["DATE(2024,1,1)+30", 45322],
    ['"2024-01-01"+30', 45322], // date text in arithmetic is its serial
    ["2+3*4", 14],
    ["(2+3)*4", 20],
    ["1-2-3", -4],
    ["10/4", 2.5],
    ["-(-2)", 2],
    ['-"2"', -2],
    ["TRUE+1", 2],
    ['"a"&"b"', "ab"],
    ['"period="&"month"', "period=month"],
    ['"x"&1+2', "x3"], // & binds loosest
    ['"v"&0.1+0.2', "v0.3"], // numbers as Excel's General format shows them
    ['"n"&1/3', "n0.333333333333333"],
    ['TRUE&""', "TRUE"],
    ['"y"&YEAR(TODAY())', "y2024"],
    ['DATE(2024,1,1)&""', "45292"], // a date is its serial in text, as in Excel
  ])("%s = %j", (text, expected) => {
    expect(value(text)).toBe(expected);
  });

  it.each([
    ["1/0", "#DIV/0!", /^division by zero$/],
    ['"abc"+1', "#VALUE!", /^'\+' needs a number or a date, got "abc"$/],
    ['DATE("x",1,1)', "#VALUE!", /^DATE's year needs a number or a date, got "x"$/],
    ['EDATE(TODAY(),"one")', "#VALUE!", /^EDATE's months needs a number or a date, got "one"$/],
    ["1E308*10", "#NUM!", /too large/],
  ])("%s is %s, saying why", (text, code, message) => {
    expect(value(text)).toEqual({ error: code, message: expect.stringMatching(message) });
  });

  it("passes an operand's error on: the leftmost operand's first, then the operator's own", () => {
    expect(value('1/0+"abc"')).toMatchObject({ error: "#DIV/0!" });
    expect(value('"abc"+1/0')).toMatchObject({ error: "#DIV/0!" });
    expect(value('DATE(1/0,"x",1)')).toMatchObject({ error: "#DIV/0!" });
    expect(value('DATE("x",1/0,1)')).toMatchObject({ error: "#VALUE!" });
  });

  it("writes numbers in & as Excel's General format does", () => {
    expect(textFrom(45292)).toBe("45292");
    expect(textFrom(-0.5)).toBe("-0.5");
    expect(textFrom(1e21)).toBe("1E+21");
    expect(textFrom(1.5e-7)).toBe("1.5E-7");
  });
});
