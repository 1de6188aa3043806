/**
 * The fields' own checks, in plain words, shown inline under each field before anything is saved or sent:
 * the service address (https, or plain http on this computer for the simulator, as the client accepts),
 * the rate limit, the shape of a pasted key, typed dates and numbers of days.
 */
import { isLoopbackHost } from "../../client";

const RATE_LIMIT_RANGE = { min: 1, max: 6000 } as const;

export function serviceUrlProblem(text: string): string | undefined {
  const value = text.trim();
  if (value === "") return "Enter the service address, for example https://api.example.com.";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "This is not a web address. Enter the full address, starting with https://.";
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname))
    return "Use https://. Plain http:// is accepted only for a simulator on this computer.";
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return "Enter a web address starting with https://.";
  if (url.username || url.password) return "Leave the user name and password out of the address.";
  if (url.search || url.hash) return "Leave the ? and # parts out of the address.";
  return undefined;
}

export function rateLimitProblem(text: string): string | undefined {
  const value = Number(text.trim());
  return /^\d+$/.test(text.trim()) && value >= RATE_LIMIT_RANGE.min && value <= RATE_LIMIT_RANGE.max
    ? undefined
    : `Enter a whole number of requests per minute, from ${RATE_LIMIT_RANGE.min} to ${RATE_LIMIT_RANGE.max}.`;
}

/** The service's limit per key (service facts: 60 a minute on its plan). */
const SERVICE_RATE_LIMIT = 60;

/** Said when a rate above the service's is kept: allowed (a plan may give more), never silently. */
export function rateLimitNote(value: number): string | undefined {
  return value > SERVICE_RATE_LIMIT
    ? `${value.toLocaleString("en-US")} a minute is more than the ${SERVICE_RATE_LIMIT} the service allows a key: keep it only if your plan gives you that many (past its limit the service answers 429 and cells wait).`
    : undefined;
}

export function apiKeyProblem(text: string): string | undefined {
  const value = text.trim();
  if (value === "") return "Paste your API key first.";
  if (/\s/.test(value))
    return "The key contains spaces: paste it exactly as shown on your account page.";
  return undefined;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Why a typed date is not one, or undefined when it is (YYYY-MM-DD and a real calendar day). */
export function dateProblem(text: string): string | undefined {
  if (!ISO_DATE.test(text)) return "Enter the date as YYYY-MM-DD, for example 2024-01-31.";
  const [y, m, d] = text.split("-").map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCMonth() === m - 1 && date.getUTCDate() === d
    ? undefined
    : `${text} is not a day of the calendar.`;
}

/** Why a number of days is not usable, or undefined. */
export function daysProblem(text: string): string | undefined {
  return /^\d{1,5}$/.test(text.trim()) && Number(text) <= 36_500
    ? undefined
    : "Enter a whole number of days, from 0 to 36500.";
}
