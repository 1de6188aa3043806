/**
 * Driving the taskpane as a user does: sections through the tabs or the More menu, choices through the
 * Fluent dropdowns and the pickers' list boxes, outcomes read from the status lines. Shared by the browser
 * tests of the taskpane and of its security.
 */
import type { Page } from "playwright-core";
import { DEMO_API_KEY } from "../../../src/simulator";
import type { RecordedCall } from "../../support/recording-workbook";

export type Section = "browse" | "build" | "tables" | "refresh" | "diagnostics" | "settings";
const PAGES: readonly Section[] = ["refresh", "diagnostics", "settings"];

/** Opens a section with the pointer: its tab, or the More menu's item for a page. */
export async function openSection(page: Page, id: Section): Promise<void> {
  if (PAGES.includes(id)) {
    if (await page.isVisible(`#panel-${id}`)) return;
    if (await page.isVisible("#page-back")) await page.click("#page-back");
    await page.click("#more-menu");
    await page.click(`#menu-${id}`);
  } else {
    if (await page.isVisible("#page-back")) await page.click("#page-back");
    await page.click(`#tab-${id}`);
  }
  await page.waitForSelector(`#panel-${id}:visible`);
}

/** Saves the service address and the demo key in Settings, as a user does, and waits for the key's "valid". */
export async function connect(page: Page, baseUrl: string): Promise<void> {
  await page.fill("#base-url input", baseUrl);
  await page.click("#save-connection");
  expect(await statusOf(page, "#service-status")).toMatchObject({ kind: "success" });
  await page.fill("#api-key input", DEMO_API_KEY);
  await page.click("#save-key");
  await page.waitForSelector("#connection-result[data-verdict='valid']");
}

/** The settled outcome of a status line: its kind and text (an error's text is its alert's). */
export async function statusOf(
  page: Page,
  selector: string
): Promise<{ kind: string; text: string }> {
  const element = page.locator(
    `${selector}:is([data-kind="success"], [data-kind="error"], [data-kind="info"])`
  );
  await element.waitFor();
  return { kind: (await element.getAttribute("data-kind")) ?? "", text: await element.innerText() };
}

/** Chooses options of a picker (search, then click each option). */
export async function pick(page: Page, pickerId: string, ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    await page.fill(`#${pickerId}-search input`, id);
    const option = page.locator(`#${pickerId} [role='option'][data-id='${id}']`);
    if ((await option.getAttribute("aria-selected")) !== "true") await option.click();
  }
  await page.fill(`#${pickerId}-search input`, "");
}

/**
 * Chooses a value of a Fluent dropdown with the pointer. Under load a choice made right after another edit of
 * the builder (a typed date) sometimes does not take: seen in CI, not understood yet (a redraw of the
 * parameters or a list still opening are the suspects). As a user would, the helper then opens the dropdown
 * and chooses again, at most three times, and fails if the value still does not take.
 */
export async function choose(page: Page, dropdownId: string, value: string): Promise<void> {
  const chosen = (timeout: number): Promise<boolean> =>
    page
      .waitForFunction(
        ([id, v]) => {
          // A Fluent dropdown carries its value as a property, which HTMLElement's type does not list.
          const dropdown = document.getElementById(id);
          return dropdown !== null && Reflect.get(dropdown, "value") === v;
        },
        [dropdownId, value] as const,
        { timeout }
      )
      .then(
        () => true,
        () => false
      );
  const option = page.locator(`#${dropdownId} fluent-option[value='${value}']`);
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    await page.click(`#${dropdownId}`);
    // A list that did not open (or a click that closed one already open, on a loaded machine) is another
    // attempt, not a failure: the dropdown is clicked again.
    const opened = await option.waitFor({ state: "visible", timeout: 3_000 }).then(
      () => true,
      () => false
    );
    if (!opened) continue;
    await option.click({ timeout: 3_000 }).catch(() => undefined);
    if (await chosen(attempt === 3 ? 10_000 : 3_000)) return;
  }
  throw new Error(`#${dropdownId}: the value ${value} did not take after three choices`);
}

export async function recordedCalls(page: Page): Promise<RecordedCall[]> {
  return page.evaluate(() => window.__recordingWorkbook?.calls ?? []);
}

/**
 * The element holding keyboard focus, as a short description ("body" when focus was dropped), looking
 * through shadow roots to the inner control.
 */
export function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const active = document.activeElement;
    if (!active || active === document.body) return "body";
    const id = active.id ? `#${active.id}` : "";
    return `${active.tagName.toLowerCase()}${id}`;
  });
}
