/**
 * Freeze to values: the CRYPTO formulas of the selection (or of the active sheet's used range) are replaced
 * by what they show, so the workbook can go to someone without a key. Other formulas stay. A CRYPTO formula
 * is frozen with its whole spill (freezing half a spill would leave the rest to vanish), and a cell inside a
 * spill stands for the formula that spilled there. Dates keep showing as dates: where a value carried its
 * own number format (a formatted-number result), that format is written to the cell.
 *
 * The "as of" mark is a cell note on the first frozen cell, not text in a cell beside the range: a note
 * cannot overwrite a neighbour's data or shift anyone's references, it moves with the cell, and it shows on
 * hover to whoever opens the file. Excel without notes (ExcelApi 1.18) gets a comment (1.10) instead.
 *
 * Then each frozen range's lineage (its formula, the vintage its values were known at, the service, the
 * metrics' definitions and sources: src/functions/lineage.ts) is added to the workbook's lineage sheet
 * (lineage-sheet.ts), after the values are frozen: a lineage that cannot be read or written is reported and
 * never holds the freeze back.
 */
import { inertText } from "../sheet/safe-text";
import {
  isCryptoFormula,
  WorkbookError,
  type FreezeResult,
  type FreezeScope,
  type FrozenRange,
} from "./port";
import type { ExcelRun, Supports } from "./office-host";
import { messageOf } from "../client";
import type { Lineage } from "../functions/lineage";
import { writeLineage } from "./lineage-sheet";

export interface FreezeDeps {
  run: ExcelRun;
  supports: Supports;
  /** The lineage of the frozen ranges (freeze-lineage.ts); without it, none is written. */
  lineage?: (frozen: readonly FrozenRange[]) => Promise<Lineage[]>;
  /** The clock of the lineage sheet's "Frozen" column. */
  now?: () => number;
}

function keepText(value: unknown): unknown {
  // A text result that reads as a formula once written back as a value: keep it text.
  return typeof value === "string" ? inertText(value) : value;
}

function formatsOf(range: Excel.Range, withJson: boolean): string[][] {
  // office.js types the formats as any[][]: they are format strings.
  const formats = range.numberFormat as string[][];
  if (!withJson) return formats;
  return formats.map((row, r) =>
    row.map((format, c) => {
      const json = range.valuesAsJson[r]?.[c];
      return json && json.type === "Double" && "numberFormat" in json && json.numberFormat
        ? json.numberFormat
        : format;
    })
  );
}

async function addNote(
  context: Excel.RequestContext,
  deps: FreezeDeps,
  cell: Excel.Range,
  address: string,
  note: string
): Promise<Pick<FreezeResult, "noteAddress" | "noteProblem">> {
  try {
    if (deps.supports("ExcelApi", "1.18")) context.workbook.notes.add(cell, note);
    else if (deps.supports("ExcelApi", "1.10")) context.workbook.comments.add(cell, note);
    else return { noteProblem: "this version of Excel cannot add notes" };
    await context.sync();
    return { noteAddress: address };
  } catch (error) {
    return {
      noteProblem: `no note could be added at ${address} (${messageOf(error)}); it may already have one`,
    };
  }
}

async function addLineage(
  context: Excel.RequestContext,
  deps: FreezeDeps,
  frozen: readonly FrozenRange[]
): Promise<Pick<FreezeResult, "lineageSheet" | "lineageProblem">> {
  try {
    const lineage = await deps.lineage!(frozen);
    const frozenAt = new Date((deps.now ?? Date.now)()).toISOString().replace(/\.\d{3}Z$/, "Z");
    return { lineageSheet: await writeLineage(context, lineage, frozenAt) };
  } catch (error) {
    return { lineageProblem: `no lineage could be written (${messageOf(error)})` };
  }
}

export function freezeToValues(
  deps: FreezeDeps,
  scope: FreezeScope,
  note: string
): Promise<FreezeResult> {
  // Spill parents and spill ranges came with dynamic arrays; without them a spill cannot be frozen whole.
  if (!deps.supports("ExcelApi", "1.12")) {
    return Promise.reject(
      new WorkbookError(
        "Freeze to values needs a version of Excel with dynamic arrays (ExcelApi 1.12). Copy the cells and paste them as values instead."
      )
    );
  }
  return deps.run(async (context) => {
    const area =
      scope === "selection"
        ? context.workbook.getSelectedRange()
        : context.workbook.worksheets.getActiveWorksheet().getUsedRangeOrNullObject();
    area.load(["address", "formulas"]);
    await context.sync();
    if (area.isNullObject) return { ranges: [], formulas: 0 };

    const candidates: { cell: Excel.Range; parent: Excel.Range }[] = [];
    area.formulas.forEach((row, r) =>
      row.forEach((formula, c) => {
        if (!isCryptoFormula(formula)) return;
        const cell = area.getCell(r, c);
        const parent = cell.getSpillParentOrNullObject();
        cell.load("address");
        parent.load("address");
        candidates.push({ cell, parent });
      })
    );
    if (candidates.length === 0) return { ranges: [], formulas: 0 };
    await context.sync();

    const anchors = new Map<string, Excel.Range>();
    for (const { cell, parent } of candidates) {
      const anchor = parent.isNullObject ? cell : parent;
      if (!anchors.has(anchor.address)) anchors.set(anchor.address, anchor);
    }
    const withJson = deps.supports("ExcelApi", "1.16");
    const targets = [...anchors.values()].map((anchor) => {
      const spill = anchor.getSpillingToRangeOrNullObject();
      for (const range of [spill, anchor]) {
        range.load(["address", "values", "numberFormat"]);
        if (withJson) range.load("valuesAsJson");
      }
      // The formula before it is replaced, for its lineage.
      if (deps.lineage) anchor.load("formulas");
      return { anchor, spill };
    });
    await context.sync();

    const ranges: string[] = [];
    const frozen: FrozenRange[] = [];
    for (const { anchor, spill } of targets) {
      const range = spill.isNullObject ? anchor : spill;
      // office.js types formulas as any[][]: a spill's parent holds its formula's text.
      const written: unknown = deps.lineage ? (anchor.formulas as unknown[][])[0]?.[0] : undefined;
      const formula = typeof written === "string" ? written : "";
      const formats = formatsOf(range, withJson);
      range.values = range.values.map((row) => row.map(keepText));
      range.numberFormat = formats;
      ranges.push(range.address);
      frozen.push({ range: range.address, anchor: anchor.address, formula });
    }
    await context.sync();

    const first = targets[0].anchor;
    const noted = await addNote(context, deps, first, first.address, note);
    const lineage = deps.lineage ? await addLineage(context, deps, frozen) : {};
    return { ranges, formulas: targets.length, ...noted, ...lineage };
  });
}
