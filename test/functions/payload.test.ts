/**
 * A result past Excel's 5 MB payload limit is refused in words before Excel fails it: measured on the JSON the
 * runtime sends (UTF-8), with its size and how to split it; a result under the limit passes whatever its
 * cheap upper bound says.
 */
import {
  EXCEL_PAYLOAD_LIMIT_BYTES,
  largestMetricSpill,
  payloadBytes,
  payloadProblem,
} from "../../src/functions/payload";

const DATE = { type: "Double", basicValue: 45292, numberFormat: "yyyy-mm-dd" };

test("a METRIC of 500 projects over six years (about 1.1 million cells) is refused with its size", () => {
  const row = [DATE, ...Array.from({ length: 500 }, (_, i) => 232787544.26598746 + i)];
  const matrix = Array.from({ length: 2_192 }, () => row);
  const problem = payloadProblem(matrix);
  expect(problem).toMatch(
    /^this result is \d+\.\d MB \(1,098,192 cells\), over Excel's 5 MB limit for one function: split it, with fewer projects or a shorter date range per formula$/
  );
  const mb = Number(/is (\d+\.\d) MB/.exec(problem ?? "")?.[1]);
  expect(mb).toBeCloseTo(payloadBytes(matrix) / 1_000_000, 1);
});

test("the exact size decides where the cheap bound is not sure", () => {
  // 400,000 one-digit numbers: the bound says 10 MB, the JSON is 0.8 MB.
  const matrix = Array.from({ length: 400_000 }, () => [1]);
  expect(payloadBytes(matrix)).toBeLessThan(EXCEL_PAYLOAD_LIMIT_BYTES);
  expect(payloadProblem(matrix)).toBeUndefined();
  // Text counts in UTF-8 bytes: 1.7 million characters of "é" are 3.4 MB, with their quotes a little more.
  const accents = Array.from({ length: 1_000 }, () => ["é".repeat(1_700)]);
  expect(payloadProblem(accents)).toBeUndefined();
  const more = Array.from({ length: 1_500 }, () => ["é".repeat(1_700)]);
  expect(payloadProblem(more)).toMatch(/5\.1 MB/);
});

test("the largest spill that passes is just under the limit", () => {
  const sample = [DATE, 232787544.26598746];
  const rows = largestMetricSpill(20, sample);
  const row = [DATE, ...Array.from({ length: 20 }, () => sample[1])];
  expect(payloadProblem(Array.from({ length: rows }, () => row))).toBeUndefined();
  expect(payloadProblem(Array.from({ length: rows + 1 }, () => row))).toBeDefined();
});
