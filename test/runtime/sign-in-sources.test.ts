/**
 * The sign-in sources with MSAL and Office replaced at their boundary: NAA asks MSAL silently (with the
 * account it has, or the host's own), turns MSAL's "interaction required" into the provider's, signs in with a
 * popup only when asked to interactively, and forgets the account on sign-out; the dialog fallback holds the
 * dialog's token in memory until shortly before it expires, and refuses a dialog's answer it cannot use.
 */
import type { AccountInfo, AuthenticationResult } from "@azure/msal-browser";
import { InteractionRequired } from "../../src/client";
import {
  DialogSource,
  dialogUrlOf,
  NaaSource,
  type NestableApp,
} from "../../src/runtime/sign-in/sources";

const CONFIG = {
  clientId: "00000000-0000-4000-8000-00000000add1",
  authority: "https://login.microsoftonline.com/6f0c6a1e-1d7c-4bd2-9b53-0f4c2b8e7a11",
  scopes: ["api://cm-gateway-test/access_as_user"],
};
const ACCOUNT = { username: "alice@firm.example", name: "Alice Analyst" } as AccountInfo;
const NOW = Date.UTC(2026, 10, 26, 12);

function result(token: string): AuthenticationResult {
  return {
    accessToken: token,
    account: ACCOUNT,
    expiresOn: new Date(NOW + 3_600_000),
  } as AuthenticationResult;
}

class FakeMsal implements NestableApp {
  active: AccountInfo | null = null;
  silentRequests: unknown[] = [];
  popups = 0;
  cleared = 0;
  silentAnswer: () => Promise<AuthenticationResult> = () => Promise.resolve(result("silent"));
  getActiveAccount = (): AccountInfo | null => this.active;
  getAllAccounts = (): AccountInfo[] => (this.active ? [this.active] : []);
  setActiveAccount = (a: AccountInfo | null): void => {
    this.active = a;
  };
  acquireTokenSilent = (request: unknown): Promise<AuthenticationResult> => {
    this.silentRequests.push(request);
    return this.silentAnswer();
  };
  acquireTokenPopup = (): Promise<AuthenticationResult> => {
    this.popups++;
    return Promise.resolve(result("popup"));
  };
  clearCache = (): Promise<void> => {
    this.cleared++;
    return Promise.resolve();
  };
}

describe("nested app authentication", () => {
  it("asks silently for the gateway's scope, for the host's user first, then for the account it knows", async () => {
    const msal = new FakeMsal();
    const source = new NaaSource(msal, CONFIG, () => NOW);
    expect(await source.silent()).toEqual({
      token: "silent",
      expiresAt: NOW + 3_600_000,
      account: { username: "alice@firm.example", name: "Alice Analyst" },
    });
    expect(msal.silentRequests[0]).toEqual({ scopes: CONFIG.scopes });
    await source.silent();
    expect(msal.silentRequests[1]).toEqual({ scopes: CONFIG.scopes, account: ACCOUNT });
    expect(msal.popups).toBe(0);
  });

  it("turns MSAL's interaction-required into the provider's, and other failures pass as they are", async () => {
    const msal = new FakeMsal();
    const source = new NaaSource(msal, CONFIG, () => NOW);
    msal.silentAnswer = () =>
      Promise.reject(
        Object.assign(new Error("AADSTS50058"), {
          name: "InteractionRequiredAuthError",
          errorCode: "login_required",
        })
      );
    await expect(source.silent()).rejects.toBeInstanceOf(InteractionRequired);
    msal.silentAnswer = () => Promise.reject(new Error("network down"));
    await expect(source.silent()).rejects.toThrow("network down");
  });

  it("signs in with a popup only when asked interactively, and forgets the account on sign-out", async () => {
    const msal = new FakeMsal();
    const source = new NaaSource(msal, CONFIG, () => NOW);
    expect((await source.interactive()).token).toBe("popup");
    expect(msal.popups).toBe(1);
    expect(msal.active).toBe(ACCOUNT);
    await source.signOut();
    expect(msal.cleared).toBe(1);
    expect(msal.active).toBeNull();
  });
});

describe("the Office dialog fallback", () => {
  let now = NOW;
  const message = (over: Record<string, unknown> = {}): string =>
    JSON.stringify({
      status: "ok",
      token: "from-dialog",
      expiresAt: NOW + 3_600_000,
      account: { username: "alice@firm.example" },
      ...over,
    });

  it("holds the dialog's token in memory until a minute before it expires, then needs the user", async () => {
    const opened: string[] = [];
    const source = new DialogSource(
      { open: (url) => (opened.push(url), Promise.resolve(message())) },
      dialogUrlOf("https://addin.example.com/", CONFIG),
      () => now
    );
    await expect(source.silent()).rejects.toBeInstanceOf(InteractionRequired);
    expect((await source.interactive()).token).toBe("from-dialog");
    expect(new URL(opened[0]).pathname).toBe("/signin-dialog.html");
    expect(new URL(opened[0]).searchParams.get("scopes")).toBe(CONFIG.scopes[0]);
    expect((await source.silent()).token).toBe("from-dialog");
    now = NOW + 3_600_000 - 59_000;
    await expect(source.silent()).rejects.toBeInstanceOf(InteractionRequired);
  });

  it("refuses a dialog's error, an expired token or something that is not a sign-in, in words", async () => {
    const answers = [
      JSON.stringify({ status: "error", message: "AADSTS65001: consent needed" }),
      message({ expiresAt: NOW - 1 }),
      "<html>",
    ];
    const source = new DialogSource(
      { open: () => Promise.resolve(answers.shift() as string) },
      "https://addin.example.com/signin-dialog.html",
      () => NOW
    );
    await expect(source.interactive()).rejects.toThrow("AADSTS65001: consent needed");
    await expect(source.interactive()).rejects.toThrow("no usable token");
    await expect(source.interactive()).rejects.toThrow("not a sign-in");
  });
});
