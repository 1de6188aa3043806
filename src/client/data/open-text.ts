/**
 * The members the interface leaves open (§2.12: `aggregate_by_options`, `description`, unrecognised
 * `errors` entries...) as text for a cell or a message: JSON-like, with a depth limit and a length limit.
 * Rendering stops as soon as either is reached, so a member nested thousands of levels deep or holding a
 * million entries costs a few microseconds and never overflows the stack (JSON.stringify does both).
 */
interface OpenTextLimits {
  /** Levels of objects and arrays shown; deeper ones read "…". */
  maxDepth: number;
  /** Characters of output; past it the text ends with "…". */
  maxLength: number;
}

/** Deep enough for every real shape (two or three levels), shallow enough to show at a glance. */
const DEFAULT_OPEN_TEXT_LIMITS: Readonly<OpenTextLimits> = Object.freeze({
  maxDepth: 16,
  // Excel holds 32,767 characters in a cell; a field's text is for reading, so far less.
  maxLength: 4_000,
});

const ELLIPSIS = "…";

class Full extends Error {}

/** JSON values as read from a body; anything else (a function, a symbol) shows as its type. */
export function openText(
  value: unknown,
  limits: OpenTextLimits = DEFAULT_OPEN_TEXT_LIMITS
): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return String(value);
  if (typeof value !== "object") return `(${typeof value})`;
  const parts: string[] = [];
  let length = 0;
  const put = (text: string): void => {
    if (length + text.length > limits.maxLength) {
      parts.push(text.slice(0, Math.max(0, limits.maxLength - length)), ELLIPSIS);
      throw new Full();
    }
    parts.push(text);
    length += text.length;
  };
  const write = (v: unknown, depth: number): void => {
    if (v === null || typeof v !== "object") {
      put(
        typeof v === "string" || typeof v === "number" || typeof v === "boolean"
          ? JSON.stringify(v)
          : "null"
      );
      return;
    }
    if (depth >= limits.maxDepth) {
      put(Array.isArray(v) ? `[${ELLIPSIS}]` : `{${ELLIPSIS}}`);
      return;
    }
    if (Array.isArray(v)) {
      put("[");
      v.forEach((item, i) => {
        if (i > 0) put(",");
        write(item, depth + 1);
      });
      put("]");
      return;
    }
    put("{");
    let first = true;
    const obj = v as Record<string, unknown>;
    for (const key of Object.keys(obj)) {
      if (!first) put(",");
      first = false;
      put(`${JSON.stringify(key)}:`);
      write(obj[key], depth + 1);
    }
    put("}");
  };
  try {
    write(value, 0);
  } catch (error) {
    if (!(error instanceof Full)) throw error;
  }
  return parts.join("");
}
