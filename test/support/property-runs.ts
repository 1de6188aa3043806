/**
 * Property-run counts, scaled down for the quick loops only: `npm run test:fast` sets PROPERTY_RUNS_SCALE to 0.1,
 * and `npm run mutation` sets it for the targets whose property tests would cost a minute per mutant
 * (stryker.config.mjs says which and why). Unset (every `npm test`), a test runs exactly the count it names.
 */
export function propertyRuns(count: number): number {
  const raw = process.env.PROPERTY_RUNS_SCALE;
  if (raw === undefined || raw === "") return count;
  const scale = Number(raw);
  if (!(scale > 0 && scale <= 1))
    throw new RangeError(`PROPERTY_RUNS_SCALE must be in (0, 1], got ${JSON.stringify(raw)}`);
  return Math.max(1, Math.round(count * scale));
}
