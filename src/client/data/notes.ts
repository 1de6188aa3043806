/**
 * What a call set aside while reading an answer, said once per call so that it reaches the diagnostics: an
 * entry of a catalogue that cannot be read (skipped, the rest kept), rows dated after any day the service
 * can have (ignored). Nothing here is an error: the call answers with the rest.
 */
import { dayOfInstant, formatDay } from "./days";
import type { ShapeError } from "./read";
import type { IsoDate } from "./types";

/** Examples named per kind of note: enough to find the entries, bounded however many there are. */
const MAX_EXAMPLES = 3;

export class Notes {
  private skipped = 0;
  private readonly skippedExamples: string[] = [];
  private future = 0;
  private readonly futureDates = new Set<IsoDate>();
  private futureAfter: IsoDate | undefined;

  /** An entry of a list that could not be read: left out, the others kept. */
  skip(error: ShapeError): void {
    this.skipped++;
    if (this.skippedExamples.length < MAX_EXAMPLES) this.skippedExamples.push(error.message);
  }

  /** A row dated after `latest`, the last day the service can have data for: ignored. */
  ignoreFuture(date: IsoDate, latest: IsoDate): void {
    this.future++;
    this.futureAfter = latest;
    if (this.futureDates.size < MAX_EXAMPLES) this.futureDates.add(date);
  }

  /** The notes, one sentence per kind; empty when nothing was set aside. */
  list(): string[] {
    const out: string[] = [];
    if (this.skipped > 0)
      out.push(
        `${this.skipped} entr${this.skipped === 1 ? "y" : "ies"} of the answer could not be read and ${this.skipped === 1 ? "was" : "were"} left out (${this.skippedExamples.join("; ")})`
      );
    if (this.future > 0)
      out.push(
        `${this.future} row${this.future === 1 ? "" : "s"} dated after ${this.futureAfter ?? "?"}, the latest day the service can have data for, ${this.future === 1 ? "was" : "were"} ignored (${[...this.futureDates].join(", ")})`
      );
    return out;
  }
}

/**
 * The latest calendar day the service can have data for at `now`: the date where the day begins first
 * (UTC+14). A day the service writes later than that has not happened anywhere yet.
 */
export function latestPossibleDay(now: number): IsoDate {
  return formatDay(dayOfInstant(now + 14 * 3_600_000));
}

/** Rows dated after `latest` left out, each noted. */
export function withoutFuture<R extends { date: IsoDate }>(
  rows: readonly R[],
  latest: IsoDate,
  notes: Notes
): R[] {
  const out: R[] = [];
  for (const row of rows) {
    if (row.date > latest) notes.ignoreFuture(row.date, latest);
    else out.push(row);
  }
  return out;
}
