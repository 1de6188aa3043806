import { isIsoDate, toIsoDate, toMetricValue } from "../../../src/client";

describe("metric values", () => {
  it("reads JSON numbers, numeric strings and null alike as number | null", () => {
    expect(toMetricValue(232787544.26598746)).toBe(232787544.26598746);
    expect(toMetricValue("1250.5")).toBe(1250.5);
    expect(toMetricValue(" -3e2 ")).toBe(-300);
    expect(toMetricValue(".5")).toBe(0.5);
    expect(toMetricValue(null)).toBeNull();
    expect(toMetricValue(undefined)).toBeNull();
  });

  it("turns text that is not a plain decimal number into null instead of a wrong number", () => {
    for (const junk of ["", "N/A", "0x1f", "Infinity", "1,234", "12abc", true, {}, [1]]) {
      expect(toMetricValue(junk)).toBeNull();
    }
    expect(toMetricValue(Number.NaN)).toBeNull();
    expect(toMetricValue(Number.POSITIVE_INFINITY)).toBeNull();
  });
});

describe("dates", () => {
  it("accepts only real calendar dates written YYYY-MM-DD", () => {
    expect(isIsoDate("2024-02-29")).toBe(true);
    expect(isIsoDate("2023-02-29")).toBe(false);
    expect(isIsoDate("2024-13-01")).toBe(false);
    expect(isIsoDate("2024-1-01")).toBe(false);
    expect(isIsoDate("01/02/2024")).toBe(false);
  });

  it("gives one representation for date and ISO date-time timestamps", () => {
    expect(toIsoDate("2024-01-01")).toBe("2024-01-01");
    expect(toIsoDate("2024-01-01T00:00:00.000Z")).toBe("2024-01-01");
    expect(toIsoDate("2024-01-01T00:00:00Z")).toBe("2024-01-01");
    expect(toIsoDate("2024-01-01T00:00:00")).toBe("2024-01-01");
  });

  it("takes a date-time's day as the date it writes, whatever its offset", () => {
    // Local midnight east of UTC is the previous UTC day; the data point is still the day written.
    expect(toIsoDate("2024-01-02T00:00:00+02:00")).toBe("2024-01-02");
    expect(toIsoDate("2024-01-01T23:00:00-05:00")).toBe("2024-01-01");
    expect(toIsoDate("2024-01-01T01:00:00+14:00")).toBe("2024-01-01");
    expect(toIsoDate("2024-12-31 00:00:00-1200")).toBe("2024-12-31");
  });

  it("refuses what is not a date", () => {
    for (const bad of ["yesterday", "2024-02-30", "2024-02-30T00:00:00Z", "", 45292, null]) {
      expect(toIsoDate(bad)).toBeUndefined();
    }
  });
});
