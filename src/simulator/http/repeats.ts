/**
 * Repeated rows: aggregating services sometimes send the same day twice (or three times) for a project. The
 * interface does not rule it out, so the simulator does it too, for a deterministic share of (project, day)
 * pairs (knob `duplicateRows`): the copies are identical, as such repeats are.
 */
import { hashString, unitAt } from "../util/prng";

export class Repeats {
  constructor(private readonly rate: number) {}

  /** The key of a project's (or a product's) rows: draws depend on it and the day only. */
  static keyOf(id: string): number {
    return hashString(`${id}|repeat`);
  }

  /** How many times the rows of `key` on `day` are sent: 1, or 2–3 for the pairs drawn. */
  copies(key: number, day: number): number {
    if (this.rate <= 0) return 1;
    const u = unitAt(key, day);
    return u >= this.rate ? 1 : u < this.rate / 3 ? 3 : 2;
  }
}
