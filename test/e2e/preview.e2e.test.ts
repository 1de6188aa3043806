/**
 * The preview page in a real browser: the same functions bundle as Excel's shared runtime, formulas typed
 * into a small sheet and evaluated against the simulator (started in-process, over loopback HTTP).
 */
import type { Page } from "playwright-core";
import { DEMO_API_KEY, type RunningSimulator } from "../../src/simulator";
import { cspViolations, screenshot, type Problems } from "./support/browser";
import { openPaneLab, type PaneLab } from "./support/pane-lab";
import { expectAccessible, recordAxeStates } from "./support/axe";

let lab: PaneLab;
let simulator: RunningSimulator;
let page: Page;
let problems: Problems;

/** Types a formula into a cell as a user would (select, type, Enter) and waits for its result. */
async function enter(address: string, formula: string): Promise<string> {
  await page.click(`#cell-${address}`);
  await page.fill("#formula-input", formula);
  await page.press("#formula-input", "Enter");
  const cell = page.locator(`#cell-${address}`);
  await page.waitForFunction((id) => {
    const text = document.getElementById(id)?.textContent ?? "";
    return text !== "" && text !== "#BUSY!";
  }, `cell-${address}`);
  return cell.innerText();
}

beforeAll(async () => {
  lab = await openPaneLab({
    page: { path: "/preview.html", viewport: { width: 1000, height: 800 } },
  });
  ({ simulator, page, problems } = lab);
}, 300_000);

afterAll(async () => {
  recordAxeStates(__filename);
  await lab?.close();
});

/**
 * The Connection form's fold (a Fluent accordion item) is `open`: the item's attribute and its heading
 * button's aria-expanded, which the element updates on its next render.
 */
function connectionFolded(open: boolean): Promise<unknown> {
  return page.waitForFunction(
    (open) => {
      const item = document.getElementById("connection-item");
      const button = item?.shadowRoot?.querySelector("[part='button']");
      return (
        item?.hasAttribute("expanded") === open &&
        button?.getAttribute("aria-expanded") === String(open)
      );
    },
    open,
    { timeout: 5000 }
  );
}

/** Where keyboard focus is, through the shadow root of the focused element ("body" when dropped). */
function focusedDeep(): Promise<string> {
  return page.evaluate(() => {
    let active = document.activeElement;
    if (!active || active === document.body) return "body";
    const path = [active.id ? `${active.tagName.toLowerCase()}#${active.id}` : active.tagName];
    while (active?.shadowRoot?.activeElement) {
      active = active.shadowRoot.activeElement;
      path.push(active.getAttribute("part") ?? active.tagName.toLowerCase());
    }
    return path.join(" > ");
  });
}

test("the page asks for a connection, then shows the demo banner once the simulator answers", async () => {
  // The form is a Fluent 2 accordion item, no native <details> beside the Fluent controls; open until set up.
  expect(await page.locator("details, summary").count()).toBe(0);
  await connectionFolded(true);
  expect(await page.isHidden("#demo-banner")).toBe(true);
  await expectAccessible(page, "preview: not connected");
  await page.fill("#preview-base-url input", simulator.url);
  await page.fill("#preview-api-key input", DEMO_API_KEY);
  await page.click("#preview-save");
  await page.waitForSelector("#preview-connection-status[data-kind='success']");
  expect(await page.innerText("#preview-connection-status")).toMatch(/^Valid key/);
  await page.waitForSelector("#demo-banner:not([hidden])");
  await connectionFolded(false);
  expect(await page.innerText("#connection-label")).toContain(`••••••••${DEMO_API_KEY.slice(-4)}`);
  // Folded away, with focus on its heading's button (not dropped to the page body).
  expect(await focusedDeep()).toBe("fluent-accordion-item#connection-item > button");
  await expectAccessible(page, "preview: connected");
  expect(await page.evaluate(() => document.body.innerText)).not.toContain(DEMO_API_KEY);
});

test("the Connection heading folds and unfolds from the keyboard (Enter, Space) and by pointer, keeping focus", async () => {
  await page.keyboard.press("Enter");
  await connectionFolded(true);
  expect(await page.isVisible("#preview-base-url")).toBe(true);
  expect(await focusedDeep()).toBe("fluent-accordion-item#connection-item > button");
  await expectAccessible(page, "preview: connection unfolded");
  // Typing in the form does not fold it (the accordion toggles on its heading only).
  await page.click("#preview-base-url input");
  await connectionFolded(true);
  await page.keyboard.press("Shift+Tab");
  expect(await focusedDeep()).toBe("fluent-accordion-item#connection-item > button");
  await page.keyboard.press("Space");
  await connectionFolded(false);
  expect(await page.isVisible("#preview-base-url")).toBe(false);
  expect(await focusedDeep()).toBe("fluent-accordion-item#connection-item > button");
  await page.locator("#connection-item [part='button']").click();
  await connectionFolded(true);
  await page.locator("#connection-item [part='button']").click();
  await connectionFolded(false);
});

test("VALUE: Enter gives one number with thousands separators", async () => {
  const text = await enter("A1", '=CRYPTO.VALUE("aave","fees","2024-01-01")');
  expect(text).toMatch(/^\d{1,3}(,\d{3})*(\.\d+)?$/);
  expect(await page.innerText("#cell-message")).toContain(
    'A1: =CRYPTO.VALUE("aave","fees","2024-01-01")'
  );
});

test("METRIC spills a table: a Date column with real dates, then the values", async () => {
  expect(await enter("A3", '=CRYPTO.METRIC("aave","fees","2024-01-01","2024-01-05")')).toBe("Date");
  expect(await page.innerText("#cell-B3")).toBe("fees");
  expect(await page.innerText("#cell-A4")).toBe("2024-01-01");
  expect(await page.innerText("#cell-A8")).toBe("2024-01-05");
  expect(await page.innerText("#cell-B8")).toMatch(/^[\d,.]+$/);
  expect(await page.getAttribute("#cell-B8", "class")).toContain("spilled");
  await page.click("#cell-B8");
  expect(await page.innerText("#cell-message")).toContain("A3: =CRYPTO.METRIC");
  await expectAccessible(page, "preview: a spilled series");
});

test("an unknown project shows #N/A and its message", async () => {
  expect(await enter("D1", '=CRYPTO.VALUE("no-such-project","fees")')).toBe("#N/A");
  expect(await page.innerText("#cell-error")).toMatch(/#N\/A .*no-such-project/);
  await expectAccessible(page, "preview: an error cell");
});

test("a formula Excel would refuse is refused with the reason; an unknown function is #NAME?", async () => {
  expect(await enter("D2", "=CRYPTO.VALUE(aave)")).toBe("#ERROR");
  expect(await page.innerText("#cell-error")).toContain("text needs double quotes");
  expect(await enter("D3", '=CRYPTO.VALU("aave","fees")')).toBe("#NAME?");
  expect(await page.innerText("#cell-error")).toContain("did you mean CRYPTO.VALUE?");
});

test("an HTML-breaking project name comes back as text", async () => {
  expect(await enter("F1", '=CRYPTO.PROJECT("tick-and-tock","name")')).toBe(
    `Tick & Tock "Perps" <beta> 'v2'`
  );
  expect(await page.evaluate(() => document.querySelectorAll("beta").length)).toBe(0);
});

test("PROJECT gives a card: a card icon before the name; selecting the cell opens its fields", async () => {
  expect(await enter("F3", '=CRYPTO.PROJECT("aave")')).toBe("Aave");
  expect(await page.locator("#cell-F3 svg.card-icon").count()).toBe(1);
  await page.click("#cell-A1");
  expect(await page.isHidden("#card-panel")).toBe(true);
  await page.click("#cell-F3");
  await page.waitForSelector("#card");
  expect(await page.innerText("#card .card-title")).toBe("Aave");
  expect(await page.innerText("#card .card-subtitle")).toBe("AAVE");
  const fields = await page.$$eval("#card dt", (dts) => dts.map((dt) => dt.textContent));
  expect(fields).toEqual(
    expect.arrayContaining([
      "Id",
      "Symbol",
      "Sectors",
      "Chains",
      "Launch date",
      "Revenue TTM",
      "P/S",
    ])
  );
  const field = (name: string) =>
    page.$eval(
      "#card",
      (card, wanted) =>
        [...card.querySelectorAll("dt")].find((dt) => dt.textContent === wanted)?.nextElementSibling
          ?.textContent ?? "",
      name
    );
  expect(await field("Id")).toBe("aave");
  expect(await field("Launch date")).toMatch(/^\d{4}-\d{2}-\d{2}first day with/);
  // Sections are Fluent 2 accordion items, folded as the layout says: the first open, the collapsed ones
  // open on a click or from the keyboard (the heading is a button: Enter and Space), as in Excel's card.
  expect(await page.locator("#card details, #card summary").count()).toBe(0);
  const sections = page.locator("#card fluent-accordion-item.card-section");
  expect(await sections.first().getAttribute("expanded")).not.toBeNull();
  const latest = sections.filter({ hasText: "Latest values" });
  // The element reflects its state to the attribute and the button's aria-expanded on its next update.
  const folded = (open: boolean) =>
    page.waitForFunction(
      (open) => {
        const item = [
          ...document.querySelectorAll("#card fluent-accordion-item.card-section"),
        ].find((el) => el.textContent?.includes("Latest values"));
        const button = item?.shadowRoot?.querySelector("button");
        return item?.hasAttribute("expanded") === open && button?.ariaExpanded === String(open);
      },
      open,
      { timeout: 5000 }
    );
  await folded(false);
  await latest.locator("button").click();
  await folded(true);
  expect(await latest.locator("dt").first().isVisible()).toBe(true);
  await latest.locator("button").press("Enter");
  await folded(false);
  expect(await latest.locator("dt").first().isVisible()).toBe(false);
  await latest.locator("button").press(" ");
  await folded(true);
  await expectAccessible(page, "preview: card open");
  // Forced colours: the heading keeps a system text colour and a visible focus ring.
  await page.emulateMedia({ forcedColors: "active" });
  await latest.locator("button").focus();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
  const ring = await latest.locator("button").evaluate((b) => {
    const style = getComputedStyle(b);
    return {
      outline: style.outlineStyle,
      width: style.outlineWidth,
      visible: b.getBoundingClientRect().height > 0,
    };
  });
  expect(ring).toEqual({ outline: "solid", width: "2px", visible: true });
  await expectAccessible(page, "preview: card, forced colours");
  await page.emulateMedia({ forcedColors: "none" });
  expect(await page.innerText("#card .card-provider")).toMatch(/demo data/);
  await screenshot(page, "preview-card");
});

test("a card's fields read by dot access in the sheet, recomputed when the card changes", async () => {
  expect(await enter("B20", '=CRYPTO.PROJECT("aave")')).toBe("Aave");
  expect(await enter("C20", "=B20.Symbol")).toBe("AAVE");
  expect(await enter("D20", '=FIELDVALUE(B20,"Name")')).toBe("Aave");
  // The card's own figure, shown the same way in the card and in the cell.
  const ttm = await enter("E20", "=B20.[Revenue TTM]");
  await page.click("#cell-B20");
  await page.waitForSelector("#card");
  const inCard = await page.$eval(
    "#card",
    (card) =>
      [...card.querySelectorAll("dt")].find((dt) => dt.textContent === "Revenue TTM")
        ?.nextElementSibling?.textContent ?? ""
  );
  expect(ttm).not.toBe("#FIELD!");
  expect(inCard).toContain(ttm);
  // A card in a project argument stands for its project.
  const byCard = await enter("F20", '=CRYPTO.VALUE(B20,"fees","2024-03-01")');
  expect(byCard).toMatch(/^[\d,]+(\.\d+)?$/);
  expect(await enter("G20", '=CRYPTO.VALUE("aave","fees","2024-03-01")')).toBe(byCard);
  // A missing field is #FIELD! naming the fields there are.
  expect(await enter("C21", "=B20.Colour")).toBe("#FIELD!");
  expect(await page.innerText("#cell-error")).toMatch(/no field "Colour".*Symbol/);
  // Another project in B20: the cells reading it follow.
  await enter("B20", '=CRYPTO.PROJECT("uniswap")');
  await page.waitForFunction(() => document.getElementById("cell-C20")?.textContent === "UNI");
  expect(await page.innerText("#cell-D20")).toBe("Uniswap");
});

test("arguments compute dates and text with Excel's functions; any other function is refused by name", async () => {
  // DATE(2024,1,1)+30 is 31 Jan; EOMONTH(…,0)+2 is 2 Feb; "period="&"day" is the option text.
  const formula =
    '=CRYPTO.METRIC("aave","fees",DATE(2024,1,1)+30,EOMONTH(DATE(2024,1,1),0)+2,"period="&"day")';
  expect(await enter("A23", formula)).toBe("Date");
  expect(await page.innerText("#cell-A24")).toBe("2024-01-31");
  expect(await page.innerText("#cell-A26")).toBe("2024-02-02");
  expect(await page.innerText("#cell-B26")).toMatch(/^[\d,.]+$/);
  expect(await page.innerText("#cell-A27")).toBe("");
  // As Excel enters a function it does not know: #NAME?, naming it as written.
  expect(await enter("D23", '=CRYPTO.VALUE("aave","fees",LOG10(1))')).toBe("#NAME?");
  expect(await page.innerText("#cell-error")).toContain("unknown function LOG10");
});

test("a spill over another formula is blocked with #SPILL!, as in Excel", async () => {
  expect(await enter("C2", '=CRYPTO.SECTOR("lending")')).toBe("#SPILL!");
  expect(await page.innerText("#cell-error")).toMatch(/#SPILL! .*C2.*not empty/);
  await page.click("#cell-C2");
  await page.fill("#formula-input", "");
  await page.press("#formula-input", "Enter");
  expect(await page.innerText("#cell-C2")).toBe("");
});

test("the sheet works from the keyboard: arrows move, typing starts a formula, Enter evaluates", async () => {
  await page.click("#cell-H1");
  await page.keyboard.press("ArrowDown");
  expect(await page.evaluate(() => document.activeElement?.id)).toBe("cell-H2");
  await page.keyboard.press("=");
  expect(await page.evaluate(() => document.activeElement?.id)).toBe("formula-input");
  await page.keyboard.type("CRYPTO.SECTORS()");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.getElementById("cell-H2")?.textContent === "id");
  expect(await page.innerText("#cell-I2")).toBe("name");
  await page.click("#cell-D1");
  expect(await page.innerText("#cell-error")).toContain("#N/A");
  await expectAccessible(page, "preview: keyboard edit");
  await screenshot(page, "preview-production");
});

test("no script errors and no Content-Security-Policy violations", async () => {
  expect(problems.errors).toEqual([]);
  expect(problems.csp).toEqual([]);
  expect(await cspViolations(page)).toEqual([]);
});
