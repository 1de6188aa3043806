import { dayNumber } from "../../src/client/data/days";
import {
  dayToSerial,
  isDateFormat,
  isoDateToSerial,
  serialToDay,
  serialToIsoDate,
} from "../../src/sheet/excel-dates";

describe("serials into functions", () => {
  it("maps serials to days and back: 45292 is 2024-01-01, 61 is 1900-03-01", () => {
    expect(serialToDay(45292)).toBe(dayNumber("2024-01-01"));
    expect(serialToDay(61)).toBe(dayNumber("1900-03-01"));
    expect(serialToDay(45292.75)).toBe(dayNumber("2024-01-01")); // a date-time: the day
    expect(dayToSerial(dayNumber("2024-01-01"))).toBe(45292);
    // Excel's last date is still a date.
    expect(serialToDay(2958465)).toBe(dayNumber("9999-12-31"));
    expect(serialToDay(2958465.5)).toBe(dayNumber("9999-12-31"));
  });

  it("refuses serials before 1900-03-01 (and Excel's fictitious 1900-02-29) or past 9999-12-31", () => {
    for (const bad of [60, 0, -1, 2958466, NaN, Infinity]) expect(serialToDay(bad)).toBeUndefined();
  });

  it("reads YYYY-MM-DD text as its serial, within the same range", () => {
    expect(isoDateToSerial("2024-01-01")).toBe(45292);
    expect(isoDateToSerial("1900-03-01")).toBe(61);
    expect(isoDateToSerial("9999-12-31")).toBe(2958465);
    for (const bad of ["1900-02-28", "2024-02-30", "0099-01-01", "2024-1-1", "01/02/2024"])
      expect(isoDateToSerial(bad)).toBeUndefined();
  });
});

describe("serials shown as dates", () => {
  it.each([
    [1, "1900-01-01"],
    [59, "1900-02-28"],
    [60, "1900-02-29"],
    [61, "1900-03-01"],
    [45292, "2024-01-01"],
    [45292.75, "2024-01-01"],
    [45351, "2024-02-29"],
    [2958465, "9999-12-31"],
  ])("serial %d is %s", (serial, iso) => {
    expect(serialToIsoDate(serial)).toBe(iso);
  });

  it.each([0, -1, 2958466, NaN, Infinity])("serial %d has no date", (serial) => {
    expect(serialToIsoDate(serial)).toBeUndefined();
  });

  it.each(["yyyy-mm-dd", "d/m/yyyy", "mmm yy", "dddd", "[$-409]mmmm d, yyyy", "yyyy-mm-dd hh:mm"])(
    "%s is a date format",
    (format) => expect(isDateFormat(format)).toBe(true)
  );

  it.each(["0.00", "#,##0", "0.00%", "mm:ss", "[h]:mm", "General", '0 "days"', "0\\d", "[Red]0.0"])(
    "%s is not a date format",
    (format) => expect(isDateFormat(format)).toBe(false)
  );
});
