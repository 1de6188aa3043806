/**
 * A sign-in of the tests' own, as a verifier (the kind Microsoft 365 sign-in is): the credential
 * "signed-in:NAME" proves NAME, anything else is left to the next verifier. For tests through app.inject that
 * need signed-in users (their own keys, their lanes) without an issuer.
 */
import type { Verifier } from "../../../src/gateway/auth/verifier";

export const signedIn: Verifier = {
  name: "test-sign-in",
  verify: (credential) =>
    Promise.resolve(
      credential.startsWith("signed-in:")
        ? { user: credential.slice("signed-in:".length), via: "test-sign-in" }
        : undefined
    ),
  describe: () => ({ users: "any" }),
  close: () => undefined,
};
