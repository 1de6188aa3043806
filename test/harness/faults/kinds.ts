/**
 * Which error kind a cell's message stands for. Excel only shows #N/A or #VALUE! and a message; the kind is
 * found by matching the message against the client's own error events of the same run (a cell's message
 * quotes the client's message, possibly clipped), and against the engine's two messages of its own (its
 * deadline and Excel's cancellation), which no client event announces.
 */
import type { ClientEvent, ErrorKind } from "../../../src/client";
import { userMessage } from "../../../src/functions/messages";

export type CellErrorKind = ErrorKind | "function";

/** Shortest stretch of a client message that still identifies it inside a clipped cell message. */
const MIN_QUOTE = 40;

export function kindOfMessage(message: string, events: readonly ClientEvent[]): CellErrorKind {
  let best: { kind: ErrorKind; length: number } | undefined;
  for (const event of events) {
    if (event.type !== "error") continue;
    // A cell says the client's message in words (functions/messages.ts): its call label made plain, or
    // dropped where the call does not matter (a missing or refused key).
    for (const said of [userMessage(event.message), userMessage(event.message, false)]) {
      const quoted = longestQuotedPrefix(said, message);
      if (quoted >= Math.min(MIN_QUOTE, said.length) && quoted > (best?.length ?? 0))
        best = { kind: event.kind, length: quoted };
    }
  }
  if (best) return best.kind;
  if (/: no answer within \d+ s\b/.test(message)) return "timeout";
  if (/^Cancelled\.$/.test(message)) return "cancelled";
  // Everything else comes from the functions themselves: a bad argument, no data, an unknown id.
  return "function";
}

/** Length of the longest prefix of `quote` found in `text` (0 when not even its start is there). */
function longestQuotedPrefix(quote: string, text: string): number {
  if (text.includes(quote)) return quote.length;
  let lo = 0;
  let hi = quote.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (text.includes(quote.slice(0, mid))) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
