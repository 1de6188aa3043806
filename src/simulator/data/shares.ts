/**
 * How a project's totals split across its chains and products, day by day. Splits are shares that add up
 * to 1 on every day, so a breakdown always sums back to the project's total.
 */
import { day } from "../util/days";
import { rangeHash } from "../util/prng";
import type { ProjectDef } from "./projects-catalog";
import { CHAINS } from "./sectors-chains";

/** Day-by-day shares: data[(d - start) * keys.length + k] is the share of keys[k] on day d. */
export interface ShareTable {
  keys: readonly string[];
  start: number;
  days: number;
  data: Float64Array;
}

const CHAIN_LAUNCH = new Map(CHAINS.map((c) => [c.id, day(c.launch)]));

interface Weighted {
  key: string;
  start: number;
  base: number;
  period: number;
  phase: number;
}

function table(keys: readonly Weighted[], start: number, end: number, ramp: number): ShareTable {
  const days = Math.max(0, end - start + 1);
  const n = keys.length;
  const data = new Float64Array(days * n);
  for (let i = 0; i < days; i++) {
    const d = start + i;
    let total = 0;
    for (let k = 0; k < n; k++) {
      const w = keys[k];
      if (d < w.start) continue;
      // Young chains and products ramp up instead of appearing at full size.
      const growth = 1 - 0.9 * Math.exp(-(d - w.start) / ramp);
      const weight =
        w.base * growth * (1 + 0.35 * Math.sin((2 * Math.PI * d) / w.period + w.phase));
      data[i * n + k] = weight;
      total += weight;
    }
    if (total > 0) for (let k = 0; k < n; k++) data[i * n + k] /= total;
  }
  return { keys: keys.map((k) => k.key), start, days, data };
}

export function chainShares(project: ProjectDef, end: number): ShareTable {
  const launch = day(project.launch);
  const weighted = project.chains.map((chain, index) => {
    const key = `${project.id}|chain|${chain}`;
    const delay = index === 0 ? 0 : Math.round(rangeHash(`${key}|delay`, 0, 240));
    return {
      key: chain,
      start: Math.max(launch, (CHAIN_LAUNCH.get(chain) ?? launch) + delay),
      base: index === 0 ? 1 : rangeHash(`${key}|base`, 0.05, 0.6),
      period: rangeHash(`${key}|period`, 400, 900),
      phase: rangeHash(`${key}|phase`, 0, 2 * Math.PI),
    };
  });
  return table(weighted, launch, end, 120);
}

export function productShares(project: ProjectDef, end: number): ShareTable {
  const products = project.products ?? [];
  const weighted = products.map((product) => {
    const key = `${project.id}|product|${product.id}`;
    return {
      key: product.id,
      start: day(product.launch),
      base: product.weight,
      period: rangeHash(`${key}|period`, 500, 1000),
      phase: rangeHash(`${key}|phase`, 0, 2 * Math.PI),
    };
  });
  return table(weighted, day(project.launch), end, 150);
}

/** Share of `key` on day d (0 outside the table or before the key starts). */
export function shareAt(t: ShareTable, key: string, d: number): number {
  const k = t.keys.indexOf(key);
  const i = d - t.start;
  if (k < 0 || i < 0 || i >= t.days) return 0;
  return t.data[i * t.keys.length + k];
}

/** Summed share of several keys on day d. */
export function sharesSum(t: ShareTable, keys: readonly string[], d: number): number {
  let sum = 0;
  for (const key of keys) sum += shareAt(t, key, d);
  return sum;
}
