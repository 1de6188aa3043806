/**
 * A shared "crypto market" factor every project moves with: a long adoption trend, a four-year cycle
 * peaking like 2013/2017/2021/2025, and mean-reverting noise. Generated forward from a fixed origin and
 * extended on demand, so a day's value never depends on how far the series has been generated ("today").
 */
import { day } from "../util/days";
import { gaussian, mulberry32 } from "../util/prng";

const MARKET_ORIGIN = day("2009-01-03");
/** The day project scales refer to: `fees` is annual fees and token `price` the price around then. */
export const ANCHOR = day("2024-01-01");
const CYCLE_PEAK = day("2021-11-10");
const CYCLE_DAYS = 1461;

const logValues: number[] = [];
const random = mulberry32(0x5eed0001);
let noise = 0;

function extendTo(index: number): void {
  while (logValues.length <= index) {
    const t = logValues.length;
    noise = noise * 0.99 + 0.035 * gaussian(random);
    const trend = 9 * (1 - Math.exp(-t / 2200)) - 9;
    const cycle = 0.55 * Math.cos((2 * Math.PI * (MARKET_ORIGIN + t - CYCLE_PEAK)) / CYCLE_DAYS);
    logValues.push(trend + cycle + noise);
  }
}

/** Natural log of the market factor on a day (days before the origin take the origin's value). */
export function logMarket(dayNumber: number): number {
  const index = Math.max(0, dayNumber - MARKET_ORIGIN);
  extendTo(index);
  return logValues[index];
}
