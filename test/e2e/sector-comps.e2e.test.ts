/**
 * A sector's comps for a large universe, in a real browser against the production build: the simulator's
 * synthetic universe of 3,000 projects (deterministic) puts 485 projects in "lending", whose COMPS formula
 * with the ids written in it would pass Excel's 8,192 characters, and 648 in "exchanges", more than COMPS
 * reads (500). The first gets its ids in a column with the formula beside them reading that range; the
 * second is refused in plain words, and nothing is inserted. The demo universe of the other browser
 * tests never reaches either path.
 */
import type { Page } from "playwright-core";
import type { GridPlan } from "../../src/excel/port";
import { SECTOR_COMPS_COLUMNS, sectorComps } from "../../src/taskpane/model/sector-comps";
import type { Problems } from "./support/browser";
import { createDataset } from "../../src/simulator";
import { openPaneLab, type PaneLab } from "./support/pane-lab";
import { expectAccessible, recordAxeStates } from "./support/axe";
import { connect, recordedCalls, statusOf } from "./support/taskpane";

const UNIVERSE = 3_000;

let lab: PaneLab;
let page: Page;
let problems: Problems;

beforeAll(async () => {
  lab = await openPaneLab({ simulator: { projects: UNIVERSE } });
  ({ page, problems } = lab);
  await connect(page, lab.simulator.url);
  await page.click("#page-back");
}, 300_000);

afterAll(async () => {
  recordAxeStates(__filename);
  await lab?.close();
});

afterEach(() => expect(problems.errors).toEqual([]));

/** Opens a sector's detail from Browse › Sectors; returns the project ids it lists, in its order. */
async function openSector(id: string): Promise<string[]> {
  if (await page.isVisible("#detail-back")) await page.click("#detail-back");
  await page.click("#ctab-sectors");
  await page.fill("#catalogue-search input", id);
  await page.click(`#list-sectors [role='option'][data-id='${id}']`);
  await page.waitForSelector("#sector-comps-note");
  return page.$$eval("#sector-projects [role='option']", (items) =>
    items.map((item) => (item as HTMLElement).dataset.id ?? "")
  );
}

test("a sector too long for one formula gets its ids in a column, the COMPS formula beside them", async () => {
  const ids = await openSector("lending");
  expect(ids).toHaveLength(485);
  const expected = sectorComps(ids, SECTOR_COMPS_COLUMNS);
  expect(expected.kind).toBe("grid");
  await expectAccessible(page, "large sector: comps in a column");
  await page.evaluate(() => window.__recordingWorkbook?.select("Sheet1!B2"));
  await page.click("#insert-sector-comps");
  // 486 rows (a heading and the ids) by 2 columns (the ids, the panel's first column).
  expect(await statusOf(page, "#detail-status")).toEqual({
    kind: "success",
    text: "Inserted the comps table of Lending in Sheet1!B2:C487: the ids of its 485 projects in a column, the COMPS formula beside them (too many for one formula).",
  });
  const call = (await recordedCalls(page)).at(-1);
  expect(call).toMatchObject({ op: "insertGrid" });
  const plan = (call as { plan: GridPlan }).plan;
  expect(plan).toEqual(expected.kind === "grid" ? expected.plan : undefined);
  // The heading, then one id per row in the sector's order; the formula reads exactly those 485 cells.
  expect(plan.cells).toHaveLength(486);
  expect(plan.cells.slice(1).map((row) => row[0])).toEqual(ids);
  expect(plan.cells[0][1]).toEqual({
    formula: `=CRYPTO.COMPS(R[1]C[-1]:R[485]C[-1],"${SECTOR_COMPS_COLUMNS.map((c) => c.column).join(",")}")`,
  });
  await expectAccessible(page, "large sector: comps inserted");
});

test("a sector of more projects than COMPS reads is refused in plain words, and nothing is inserted", async () => {
  const before = (await recordedCalls(page)).length;
  const ids = await openSector("exchanges");
  // The sector's size as the simulator's universe has it (more than 500, whatever the demo projects add).
  const size = createDataset("2026-01-01", { projects: UNIVERSE }).projects.filter((p) =>
    p.sectors.includes("exchanges")
  ).length;
  expect(size).toBeGreaterThan(500);
  expect(ids).toHaveLength(size);
  expect(await page.innerText("#sector-comps-note")).toBe(
    `This sector has ${size} projects; a comps table takes at most 500. Build one for fewer projects in the formula builder.`
  );
  expect(await page.isVisible("#insert-sector-comps")).toBe(false);
  expect((await recordedCalls(page)).length).toBe(before);
  await expectAccessible(page, "large sector: comps refused");
});
