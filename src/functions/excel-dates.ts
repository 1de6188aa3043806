/**
 * Excel's 1900 date system: serial 1 is 1900-01-01, and serial 60 is the fictitious 1900-02-29 that Excel
 * keeps for Lotus compatibility, so from 1900-03-01 (serial 61) on, serial = days since 1970 + 25569.
 * Earlier serials are refused: no crypto data predates 1900, and the fictitious day has no real date.
 */
const EPOCH_OFFSET = 25_569;
export const MIN_SERIAL = 61;
/** 9999-12-31, Excel's last date. */
export const MAX_SERIAL = 2_958_465;

export function serialToDay(serial: number): number | undefined {
  if (!Number.isFinite(serial)) return undefined;
  const whole = Math.floor(serial); // a date-time serial: the time of day is ignored
  if (whole < MIN_SERIAL || whole > MAX_SERIAL) return undefined;
  return whole - EPOCH_OFFSET;
}

export function dayToSerial(day: number): number {
  return day + EPOCH_OFFSET;
}
