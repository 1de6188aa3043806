/**
 * Sign-in with Microsoft 365 in Chromium, against the production pages with a real team gateway at their
 * origin (as npm start and a team's deployment serve it) that checks real tokens from a local OIDC issuer.
 * Only Office is replaced, at its boundary: outside Excel there is no nested app authentication, so the add-in
 * takes the Office dialog fallback, and `Office.context.ui.displayDialogAsync` is the test's: it "signs in" by
 * answering with an access token the local issuer minted, as the dialog page would after Microsoft's sign-in.
 *
 * Walked, each state checked with axe: Team gateway chosen and signed out; signing in (the dialog open);
 * signed in (who, the team budget as the gateway counts it, formulas computed with no key on this computer);
 * signed out again (the account forgotten); renewal failed (a token that cannot be renewed silently).
 */
import type { Page } from "playwright-core";
import type { RunningSimulator } from "../../src/simulator";
import { EntraVerifier } from "../../src/gateway/auth/entra";
import { MemoryKeyRecords, UserKeys } from "../../src/gateway/auth/user-keys";
import { createGateway, type Gateway } from "../../src/gateway/server";
import { randomBytes } from "node:crypto";
import type { Problems } from "./support/browser";
import { openPaneLab, type PaneLab } from "./support/pane-lab";
import type { StaticServer } from "./support/static-server";
import { expectAccessible, recordAxeStates } from "./support/axe";
import { openSection, statusOf } from "./support/taskpane";
import { callAsExcel, declaredFunctions, installExcelRegistration } from "./support/registration";
import { startLocalIssuer, type LocalIssuer } from "../gateway/support/oidc-issuer";

const TEAM_KEY = "cm_team_key_SECRET_e2e_77c1";
const TENANT = "6f0c6a1e-1d7c-4bd2-9b53-0f4c2b8e7a11";
const AUDIENCE = "api://cm-gateway-test";
const ALICE = "11111111-1111-4111-8111-111111111111";

let lab: PaneLab;
let simulator: RunningSimulator;
let issuer: LocalIssuer;
let gateway: Gateway;
let server: StaticServer;
let page: Page;
let problems: Problems;
/** The next dialog's token lifetime (s); the dialog waits for `release` when `hold` is set. */
const dialog = { lifeSeconds: 3600, hold: false, opened: 0 };
let release: (() => void) | undefined;

beforeAll(async () => {
  lab = await openPaneLab({
    simulator: { apiKeys: [TEAM_KEY], readings: { preflight: "refuse" } },
    // A team gateway in front of the simulator, at the pages' origin, checking the local issuer's tokens.
    mount: async (simulator) => {
      issuer = await startLocalIssuer();
      gateway = await createGateway({
        serviceUrl: simulator.url,
        serviceKey: TEAM_KEY,
        verifiers: [
          new EntraVerifier({
            tenants: [TENANT],
            audience: [AUDIENCE],
            jwksUrl: issuer.jwksUrl,
            issuerTemplate: issuer.issuerTemplate,
          }),
        ],
        userKeys: new UserKeys(new MemoryKeyRecords(), randomBytes(32)),
        signIn: {
          clientId: "00000000-0000-4000-8000-00000000add1",
          authority: `https://login.microsoftonline.com/${TENANT}`,
          scopes: [`${AUDIENCE}/access_as_user`],
        },
        logLevel: "silent",
      });
      return (req, res) => {
        if (!gateway.owns(req.url ?? "/")) return false;
        gateway.handle(req, res);
        return true;
      };
    },
    page: {
      // The service address is the gateway at the pages' origin, as a team's build sets it.
      storage: ({ server }) => ({ "cryptometrics.baseUrl": server.url }),
      beforeLoad: async (page) => {
        await installExcelRegistration(page);
        // The Office dialog API, the only part replaced: it answers with a token the local issuer mints.
        await page.exposeFunction("__signInDialog", async (): Promise<string> => {
          dialog.opened++;
          if (dialog.hold) await new Promise<void>((done) => (release = done));
          const token = await issuer.mint({
            tenant: TENANT,
            oid: ALICE,
            name: "Alice Analyst",
            audience: AUDIENCE,
            expiresIn: dialog.lifeSeconds,
          });
          return JSON.stringify({
            status: "ok",
            token,
            expiresAt: Date.now() + dialog.lifeSeconds * 1000,
            account: { username: "alice@firm.example", name: "Alice Analyst" },
          });
        });
      },
    },
  });
  ({ simulator, server, page, problems } = lab);
  await page.evaluate(() => {
    type Handler = (arg: unknown) => void;
    const w = window as unknown as {
      Office: { context: Record<string, unknown>; EventType?: Record<string, string> };
      __signInDialog: () => Promise<string>;
    };
    const messageType = w.Office.EventType?.DialogMessageReceived ?? "dialogMessageReceived";
    w.Office.context.ui = {
      displayDialogAsync(_url: string, _options: unknown, callback: (result: unknown) => void) {
        const handlers = new Map<string, Handler>();
        callback({
          status: "succeeded",
          value: {
            addEventHandler: (type: string, handler: Handler) => handlers.set(type, handler),
            close: () => undefined,
          },
        });
        void w.__signInDialog().then((message) => handlers.get(messageType)?.({ message }));
      },
    };
  });
}, 300_000);

afterAll(async () => {
  recordAxeStates(__filename);
  await lab?.close();
  await Promise.all([gateway?.close(), issuer?.close()]);
});

async function signInState(): Promise<{ state: string; text: string }> {
  return page.evaluate(() => {
    const el = document.querySelector<HTMLElement>("#sign-in-state");
    return { state: el?.dataset.state ?? "", text: el?.textContent ?? "" };
  });
}

test("Team gateway, signed out: the key's form goes, nothing secret is kept, Sign in is offered", async () => {
  await openSection(page, "settings");
  await page.click("#mode-gateway");
  await page.waitForSelector("#sign-in-state[data-state='signed-out']");
  expect(await page.isVisible("#api-key")).toBe(false);
  expect(await page.isVisible("#sign-in")).toBe(true);
  expect(await page.isVisible("#sign-out")).toBe(false);
  expect(await page.innerText("#mode-state")).toMatch(/^Team gateway: you sign in/);
  expect(await page.isVisible("#mode-key")).toBe(true);
  expect(await page.evaluate(() => window.localStorage.getItem("cryptometrics.apiKey"))).toBeNull();
  await expectAccessible(page, "team gateway: signed out");
});

test("signing in: the button waits while the dialog is open, then the pane says who is signed in", async () => {
  dialog.hold = true;
  await page.click("#sign-in");
  await page.waitForSelector("#sign-in-status[data-kind='busy']");
  expect((await signInState()).state).toBe("signing-in");
  await expectAccessible(page, "team gateway: signing in");
  dialog.hold = false;
  release?.();
  await page.waitForSelector("#sign-in-state[data-state='signed-in']");
  expect((await signInState()).text).toBe("Signed in as Alice Analyst (alice@firm.example).");
  expect(await page.isVisible("#sign-out")).toBe(true);
  expect(await page.isVisible("#sign-in")).toBe(false);
  // The budget serving her, as the gateway counts it, and her own key's form (the gateway takes them).
  await page.waitForSelector("#team-budget-section:not([hidden])");
  expect(await page.innerText("#team-budget-label")).toMatch(
    /^Team budget: \d+ of 60 requests this minute, as the gateway counts them$/
  );
  await page.waitForSelector("#own-key-section:not([hidden])");
  expect(await page.innerText("#own-key-state")).toMatch(
    /Not registered: the team's key serves you/
  );
  await expectAccessible(page, "team gateway: signed in");
});

test("signed in, formulas calculate with no key on this computer; the usage meter shows the team budget", async () => {
  const metadata = await declaredFunctions(page, `${server.url}/taskpane.html`);
  const before = simulator.requestLog.length;
  const grid = await callAsExcel(
    page,
    metadata,
    '=CRYPTO.METRIC("aave","revenue","2024-01-01","2024-01-03")'
  );
  expect(grid.length).toBeGreaterThan(0);
  expect(JSON.stringify(grid)).not.toMatch(/#N\/A|#VALUE/);
  expect(simulator.requestLog.length).toBeGreaterThan(before);
  const stored = await page.evaluate(() => JSON.stringify({ ...window.localStorage }));
  expect(stored).not.toContain(TEAM_KEY);
  expect(stored).not.toMatch(/eyJ[\w-]+\.[\w-]+\./); // no access token either
  await openSection(page, "diagnostics");
  await page.waitForSelector("#usage-meter");
  await expect(page.innerText("#panel-diagnostics")).resolves.toMatch(
    /requests in the last minute \(the team's budget, as the team gateway counts it\)/
  );
  await openSection(page, "settings");
});

test("Sign out forgets the account; a later sign-in whose token cannot be renewed says so and offers Sign in again", async () => {
  await page.click("#sign-out");
  await page.waitForSelector("#sign-in-state[data-state='signed-out']");
  expect(await statusOf(page, "#sign-in-status")).toMatchObject({ kind: "success" });
  expect(
    await page.evaluate(() => window.localStorage.getItem("cryptometrics.signedIn"))
  ).toBeNull();
  await expectAccessible(page, "team gateway: signed out after sign out");

  // Half a minute of life: below what the dialog fallback can renew without the user.
  dialog.lifeSeconds = 30;
  await page.click("#sign-in");
  await page.waitForSelector("#sign-in-state[data-state='renewal-failed']");
  expect((await signInState()).text).toMatch(
    /^Your sign-in as alice@firm.example has ended: sign in again/
  );
  expect(await page.innerText("#sign-in")).toBe("Sign in again");
  expect(await page.isVisible("#sign-out")).toBe(true);
  await expectAccessible(page, "team gateway: renewal failed");

  dialog.lifeSeconds = 3600;
  await page.click("#sign-in");
  await page.waitForSelector("#sign-in-state[data-state='signed-in']");
  expect(dialog.opened).toBe(3);
  expect(problems.errors).toEqual([]);
});

test("a signed-in user registers their own key through the gateway: shown by its last four characters, kept nowhere here", async () => {
  const own = "cm_alice_plan_key_SECRET_9f3a";
  await page.fill("#own-key input", own);
  await page.click("#save-own-key");
  expect(await statusOf(page, "#own-key-status")).toMatchObject({ kind: "success" });
  await expect(page.innerText("#own-key-state")).resolves.toMatch(/^Registered \(ending 9f3a/);
  expect(await page.inputValue("#own-key input")).toBe("");
  expect(await page.evaluate(() => JSON.stringify({ ...window.localStorage }))).not.toContain(own);
  await page.waitForSelector("#team-budget-label:has-text('Your key')");
  await expectAccessible(page, "team gateway: own key registered");
  await page.click("#forget-own-key");
  expect(await statusOf(page, "#own-key-status")).toMatchObject({ kind: "success" });
  await expect(page.innerText("#own-key-state")).resolves.toMatch(/Not registered/);
});
