/**
 * "Latest" values and their dates: a latest value is shown with the date it is from (ASOF, diagnostics), can
 * be refused when older than the user allows (maxage=<N>d), and an archived project has none.
 *
 * - An archived project keeps its history but no new data is processed (§1.6): its last value is not
 *   "latest", and a sheet must not put it next to today's figures. VALUE without a date and AGGREGATION
 *   give a #N/A naming the archive; with a date its history reads as any other.
 * - The interface has no archive date: the last day with data stands for it ("archived since").
 */
import { formatDay } from "../../client";

interface ArchivedProject {
  projectId: string;
  archivedReason?: string;
}

/** `anchor-protocol is archived since 2022-05-13 (Protocol sunset); give a date to read its history`. */
export function archivedMessage(
  project: ArchivedProject,
  lastDay: number | undefined,
  advice = "give a date to read its history"
): string {
  const since = lastDay === undefined ? "" : ` since ${formatDay(lastDay)}`;
  const text = project.archivedReason?.trim() ?? "";
  // Cut so the advice survives Excel's message length (250 characters).
  const cut = text.length > MAX_REASON ? `${text.slice(0, MAX_REASON - 1)}…` : text;
  const reason = cut ? ` (${cut})` : "";
  return `${project.projectId} is archived${since}${reason}; ${advice}`;
}

/** Characters of the service's archive reason quoted in a message. */
const MAX_REASON = 80;

/** Days between a value's date and today. */
export function ageInDays(asOf: number, today: number): number {
  return today - asOf;
}

/** The #N/A of a latest value older than maxage allows, or undefined when it is recent enough. */
export function tooOldMessage(
  what: string,
  asOf: number,
  today: number,
  maxAgeDays: number
): string | undefined {
  const age = ageInDays(asOf, today);
  if (age <= maxAgeDays) return undefined;
  return `the latest ${what} is from ${formatDay(asOf)}, ${age} day${age === 1 ? "" : "s"} before today (maxage=${maxAgeDays}d)`;
}
