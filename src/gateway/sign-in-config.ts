/** What the gateway tells the add-in about signing in, from its own sign-in settings. */
import type { SignInConfig } from "./plugins/account-routes";
import { ENTRA_DEFAULTS } from "./auth/entra";

export function signInConfigOf(entra: {
  tenants: readonly string[];
  audience: readonly string[];
  scope?: string;
  addinClientId?: string;
}): SignInConfig {
  // The scope is named under the app id URI (api://…), the audience a token carries.
  const uri = entra.audience.find((a) => a.includes("://")) ?? `api://${entra.audience[0]}`;
  return {
    clientId: entra.addinClientId ?? "",
    // One tenant: its own authority (no account picker across organisations); several: any work account,
    // the gateway then checks the tenant.
    authority:
      entra.tenants.length === 1
        ? `https://login.microsoftonline.com/${entra.tenants[0]}`
        : "https://login.microsoftonline.com/organizations",
    scopes: [`${uri.replace(/\/+$/, "")}/${entra.scope ?? ENTRA_DEFAULTS.scope}`],
  };
}
