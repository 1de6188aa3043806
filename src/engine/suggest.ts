/**
 * "Did you mean": the ids of a catalogue closest to an unknown text, by edit distance over each candidate's
 * labels (fastest-levenshtein). Loaded with the first unknown text (resolver.ts's loadSuggest).
 */
import { distance } from "fastest-levenshtein";

/** What a typed text may have meant: an id, and the labels (id, name, ticker) it goes by. */
export interface Candidate {
  id: string;
  labels: readonly string[];
}

/** Folded as the resolver's look-ups fold a text: trimmed, lower case. */
function norm(text: string): string {
  return text.trim().toLowerCase();
}

/**
 * Suggestions are for typos in ids and names, which are short: a longer text, or a label longer than any
 * real name (a broken catalogue), is not compared, so a pasted paragraph or a huge catalogue entry cannot
 * turn one unknown id into seconds of edit distances.
 */
const MAX_SUGGEST_LENGTH = 100;

/** The ids closest to a typed text (typos), best first: what "did you mean" offers. */
export function closest(text: string, candidates: readonly Candidate[], n = 3): string[] {
  const t = norm(text);
  if (t.length > MAX_SUGGEST_LENGTH) return [];
  const scored = candidates
    .map((c) => ({
      id: c.id,
      d: c.labels.reduce(
        (best, l) => (l.length > MAX_SUGGEST_LENGTH ? best : Math.min(best, distance(t, norm(l)))),
        Infinity
      ),
    }))
    .sort((a, b) => a.d - b.d || a.id.localeCompare(b.id));
  // Close enough to be a typo, and no worse than one edit beyond the best match.
  const limit = Math.min(Math.max(2, Math.ceil(t.length / 2)), (scored[0]?.d ?? 0) + 1);
  return scored
    .filter((c) => c.d <= limit)
    .slice(0, n)
    .map((c) => c.id);
}
