/**
 * Who is calling: the gateway asks its verifiers in turn about the caller's bearer credential; the first that
 * knows it says who the caller is. Personal access tokens from the tokens file (tokens-file.ts) are one
 * verifier; sign-in tokens of an identity provider are another kind (checked against the issuer's keys), and a
 * verifier may name the service key that serves its caller (per-user keys) or leave the gateway's own.
 *
 * The credential never leaves this layer: it is not logged, not put in metrics or errors, and never sent on to
 * the service (the gateway calls the service with its service key only).
 *
 * A verifier for development only (a local demo issuer for `npm start`, say) lives in a file of its own,
 * implements this interface with `development: true`, and is passed to createGateway by the development start
 * path with `development: true` in its config: the production command (main.ts) never sets that, and
 * createGateway refuses a development verifier without it.
 */

export interface Caller {
  /** Who: a token's name, or an identity's stable id. It labels logs and metrics, so it is never a secret. */
  readonly user: string;
  /** How the caller proved it: "token", or the sign-in verifier's name. */
  readonly via: string;
  /** The service key serving this caller, by id; undefined: the gateway's own key. */
  readonly serviceKeyId?: string;
  /** May read everyone's usage (an admin app role, or a token name listed as an administrator). */
  readonly admin?: boolean;
  /** A display name from the sign-in token: shown to that caller only, never logged. */
  readonly name?: string;
  /**
   * The person, for turns and bounds (fair-queue.ts): one person is one user whether they come with a token or a
   * sign-in. A sign-in's user name (its UPN, lower case) or a token's name (lower case): an administrator who names
   * a person's token by their sign-in name (alice@firm.com) makes them one. Undefined: `user`.
   */
  readonly person?: string;
}

/** Whose turn a caller takes. */
export function personOf(caller: Caller): string {
  return caller.person ?? caller.user;
}

export interface Verifier {
  readonly name: string;
  /** A verifier for development only (see the module comment): never in a production gateway. */
  readonly development?: boolean;
  /** The caller `credential` proves, or undefined when this verifier does not recognise it. */
  verify(credential: string): Promise<Caller | undefined>;
  /** What /readyz says about it (e.g. how many tokens are loaded). */
  describe(): Record<string, unknown>;
  close(): void;
}

/** Longest credential read: sign-in tokens are a few kilobytes; anything longer is refused unread. */
const MAX_CREDENTIAL_LENGTH = 8_192;

/** The token of an `Authorization: Bearer <token>` header, or undefined for anything else. */
export function bearerOf(header: string | undefined): string | undefined {
  if (header === undefined || header.length > MAX_CREDENTIAL_LENGTH + 7) return undefined;
  const match = /^Bearer +([\x21-\x7e]+) *$/i.exec(header);
  return match?.[1];
}

/** The first verifier's caller, or undefined when none knows the credential (a verifier that fails: none). */
export async function identify(
  verifiers: readonly Verifier[],
  credential: string
): Promise<Caller | undefined> {
  for (const verifier of verifiers) {
    try {
      const caller = await verifier.verify(credential);
      if (caller) return caller;
    } catch {
      // A verifier that cannot decide (its keys unreachable) lets nobody in; the next one may.
    }
  }
  return undefined;
}
