/**
 * Query parameters as the service reads them: comma lists, closed value sets and strict dates, with a 400
 * and a message naming the parameter for anything invalid.
 */
import { dayToDate, parseDate } from "../util/days";

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {}
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export function badRequest(message: string): HttpError {
  return new HttpError(400, message);
}

export function notFound(message: string): HttpError {
  return new HttpError(404, message);
}

export interface DateRange {
  start?: number;
  end?: number;
}

export class Query {
  /**
   * `accepted`: the parameters the operation takes under the current readings; any other name reads as
   * absent (an ignored parameter changes nothing). Without it every name is read.
   */
  constructor(
    private readonly params: URLSearchParams,
    private readonly accepted?: ReadonlySet<string>
  ) {}

  /** Names sent that the operation does not take. */
  unknown(): string[] {
    const accepted = this.accepted;
    if (!accepted) return [];
    return [...new Set(this.params.keys())].filter((name) => !accepted.has(name));
  }

  /** A single-valued parameter; a repeated one is refused (lists travel as one comma-separated value). */
  string(name: string): string | undefined {
    if (this.accepted && !this.accepted.has(name)) return undefined;
    const values = this.params.getAll(name);
    if (values.length > 1) {
      throw badRequest(
        `Parameter ${name} was sent ${values.length} times; send list values once, comma-separated (${name}=a,b).`
      );
    }
    return values.length === 1 ? values[0] : undefined;
  }

  /** A comma list without blanks and duplicates; undefined when absent or empty. */
  list(name: string): string[] | undefined {
    const raw = this.string(name);
    if (raw === undefined) return undefined;
    const items = [
      ...new Set(
        raw
          .split(",")
          .map((s) => s.trim())
          .filter((s) => s.length > 0)
      ),
    ];
    return items.length > 0 ? items : undefined;
  }

  /** A comma list where omitting it or sending `all` means every entity. */
  listOrAll(name: string): string[] | "all" {
    const items = this.list(name);
    return items === undefined || items.includes("all") ? "all" : items;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const raw = this.string(name);
    if (raw === undefined || raw === "") return undefined;
    if (!(allowed as readonly string[]).includes(raw)) {
      throw badRequest(
        `Invalid value for ${name}: "${raw}". Allowed values: ${allowed.join(", ")}.`
      );
    }
    return raw as T;
  }

  boolean(name: string, fallback: boolean): boolean {
    const raw = this.string(name);
    if (raw === undefined || raw === "") return fallback;
    if (raw === "true") return true;
    if (raw === "false") return false;
    throw badRequest(`Invalid value for ${name}: "${raw}". Allowed values: true, false.`);
  }

  date(name: string): number | undefined {
    const raw = this.string(name);
    if (raw === undefined || raw === "") return undefined;
    const value = parseDate(raw);
    if (value === undefined)
      throw badRequest(`Invalid date for ${name}: "${raw}". Use YYYY-MM-DD.`);
    return value;
  }

  /**
   * start/end or start_date/end_date, whichever names the operation takes (the dateNames and breakdownDates
   * readings). Sending both names with different values is refused rather than guessed.
   */
  dateRange(): DateRange {
    const start = this.either("start", "start_date");
    const end = this.either("end", "end_date");
    if (start !== undefined && end !== undefined && start > end) {
      throw badRequest(`start (${dayToDate(start)}) is after end (${dayToDate(end)}).`);
    }
    return { start, end };
  }

  private either(canonical: string, alias: string): number | undefined {
    const a = this.date(canonical);
    const b = this.date(alias);
    if (a !== undefined && b !== undefined && a !== b) {
      throw badRequest(
        `${canonical} and ${alias} disagree (${dayToDate(a)} vs ${dayToDate(b)}); send one of them.`
      );
    }
    return a ?? b;
  }
}
