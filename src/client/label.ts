/** How messages name a call: the operation, its ids, and a short summary of the id list it sent. */

/** "getMetric(fees; aave, uniswap, ethereum, bitcoin, solana +15 more)". */
export function callLabel(
  operation: string,
  ids: readonly string[],
  list?: readonly string[]
): string {
  const shown = list && list.length > 0 ? `; ${summarise(list)}` : "";
  return `${operation}(${ids.join(", ")}${shown})`;
}

function summarise(list: readonly string[]): string {
  return list.length <= 5
    ? list.join(", ")
    : `${list.slice(0, 5).join(", ")} +${list.length - 5} more`;
}

/** How messages about one request of a call start: "getMetric(fees; aave, uniswap)". */
export function requestLabel(
  call: { operation: string; ids: readonly string[] },
  spec: { list?: readonly string[] }
): string {
  return callLabel(call.operation, call.ids, spec.list);
}
