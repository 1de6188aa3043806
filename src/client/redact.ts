/**
 * Keeping the API key out of everything the client lets escape: messages, causes, events, logs.
 * The key only ever travels in the Authorization header handed to fetch; everything else that could
 * carry it (a server echoing headers in an error body, a fetch error quoting a request) goes through here.
 */

export const REDACTED = "[REDACTED]";

// Secrets shorter than this would redact ordinary words; real keys are far longer.
const MIN_SECRET_LENGTH = 4;

/** Replace every occurrence of each secret, and any `Bearer <token>`, with a fixed marker. */
export function redact(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= MIN_SECRET_LENGTH) out = out.split(secret).join(REDACTED);
  }
  // A bearer token is a secret even when we do not know it (a key that was replaced at runtime).
  return out.replace(/(Bearer)\s+[^\s"',;]+/gi, `$1 ${REDACTED}`);
}

/** True when any secret (or a bearer token) appears in the text. */
export function containsSecret(text: string, secrets: readonly (string | undefined)[]): boolean {
  return redact(text, secrets) !== text;
}

/**
 * A short, single-line, printable excerpt of an untrusted body for an error message: control characters
 * dropped, whitespace collapsed, secrets redacted, cut at `max` characters.
 */
export function snippet(text: string, secrets: readonly (string | undefined)[], max = 80): string {
  // eslint-disable-next-line no-control-regex
  const flat = redact(text, secrets).replace(/[\u0000-\u001f\u007f]+/g, " ");
  const collapsed = flat.replace(/\s+/g, " ").trim();
  return collapsed.length > max ? `${collapsed.slice(0, max)}…` : collapsed;
}

/**
 * The cause to attach to an error. The original is kept (its class and stack help debugging) unless
 * the key shows anywhere in it or its own causes; then a redacted copy stands in for it.
 */
export function sanitizeCause(cause: unknown, secrets: readonly (string | undefined)[]): unknown {
  if (!secrets.some((s) => s && s.length >= MIN_SECRET_LENGTH)) return cause;
  return sanitizeAt(cause, secrets, 0);
}

function sanitizeAt(
  cause: unknown,
  secrets: readonly (string | undefined)[],
  depth: number
): unknown {
  if (cause === undefined || cause === null) return cause;
  if (typeof cause === "string") return redact(cause, secrets);
  if (!(cause instanceof Error)) {
    const text = safeStringify(cause);
    return containsSecret(text, secrets) ? redact(text, secrets) : cause;
  }
  const inner = depth < 4 ? sanitizeAt(cause.cause, secrets, depth + 1) : undefined;
  const leaks =
    containsSecret(cause.message, secrets) ||
    containsSecret(cause.stack ?? "", secrets) ||
    inner !== cause.cause;
  if (!leaks) return cause;
  const copy = new Error(
    redact(cause.message, secrets),
    inner === undefined ? {} : { cause: inner }
  );
  copy.name = cause.name;
  copy.stack = redact(cause.stack ?? "", secrets);
  return copy;
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
