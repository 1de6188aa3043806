/**
 * Refresh and sharing: Refresh all (the ribbon's Refresh does the same, and opens this view on what it found),
 * Refresh selection, the time of the last refresh (whoever ran it), and Freeze to values with an "as of" note.
 */
import { clockTime, refresh, type RefreshRecord } from "../../excel/refresh";
import type { AppContext } from "../app-context";
import { freezeNote } from "../model/freeze-note";
import { h, replaceChildren } from "../../ui/dom";
import { statusLine } from "../../ui/status";
import { onPress } from "./feedback";
import type { FoundChanges } from "../../excel/refresh-changes";
import { changesFormula, changesFound } from "../model/refresh-changes";

export function refreshView(ctx: AppContext): HTMLElement {
  const last = h(
    "p",
    { id: "last-refresh", class: "hint" },
    "Not refreshed since the add-in started."
  );
  const status = statusLine("refresh-status");
  const show = (record: RefreshRecord): void => {
    replaceChildren(
      last,
      `Last refresh: ${clockTime(record.at)} (${record.scope === "all" ? "all" : "selection"}, from the ${record.source})${record.ok ? "" : " — failed"}.`
    );
  };
  ctx.refreshLog.subscribe(show);
  if (ctx.refreshLog.last) show(ctx.refreshLog.last);

  // What the last Refresh all found (the ribbon's too): the restatements recorded while its formulas
  // recalculate, as they arrive.
  const found = h("div", { id: "refresh-changes", class: "hint", "aria-live": "polite" });
  const showChanges = (last: FoundChanges): void => {
    const { summary, lines } = changesFound(last);
    replaceChildren(
      found,
      h("p", {}, summary),
      ...(lines.length > 0 ? [h("ul", {}, ...lines.map((line) => h("li", {}, line)))] : [])
    );
  };
  ctx.refreshChanges.subscribe(showChanges);
  if (ctx.refreshChanges.last) showChanges(ctx.refreshChanges.last);
  const toChanges = h(
    "fluent-button",
    { id: "refresh-changes-formula", appearance: "outline" },
    "List them with CHANGES"
  );
  toChanges.addEventListener("click", () =>
    ctx.openInBuilder(changesFormula(ctx.refreshChanges.last))
  );

  const deps = {
    runtime: () => ctx.runtime(),
    recalculate: (scope: "all" | "selection") => ctx.workbook.recalculate(scope),
    now: () => ctx.now(),
    log: ctx.refreshLog,
    changes: ctx.refreshChanges,
  };
  const button = (
    id: string,
    label: string,
    scope: "all" | "selection",
    primary = false
  ): HTMLElement => {
    const b = h("fluent-button", { id, appearance: primary ? "primary" : null }, label);
    onPress(ctx, b, status, "Refreshing…", "refresh", async () => {
      // Not set up (no address, no key): said in plain words here, with Go to Settings.
      await ctx.runtime();
      const record = await refresh(deps, scope, "taskpane");
      if (!record.ok) status.error(record.message);
      // Outside Excel the cache is cleared, but no cell recalculates: said so, not "Refreshed".
      else if (ctx.workbook.kind === "none")
        status.show(
          "info",
          "The cache is cleared: the next formula asks the service again. Outside Excel there are no cells to recalculate: open Cryptometrics from Excel's Data tab to refresh a workbook."
        );
      else status.show("success", record.message);
    });
    return b;
  };

  const freezeStatus = statusLine("freeze-status");
  const freezeButton = (
    id: string,
    label: string,
    where: "selection" | "sheet",
    primary: boolean
  ): HTMLElement => {
    const b = h("fluent-button", { id, appearance: primary ? "primary" : null }, label);
    onPress(ctx, b, freezeStatus, "Freezing…", "freeze the formulas", async () => {
      const result = await ctx.workbook.freezeToValues(
        where,
        freezeNote(ctx.now(), ctx.source.current === "simulated")
      );
      if (result.formulas === 0) {
        freezeStatus.show(
          "info",
          `No CRYPTO formulas in the ${where === "sheet" ? "sheet" : "selection"}: nothing to freeze.`
        );
        return;
      }
      const note = result.noteAddress
        ? ` An "as of" note is on ${result.noteAddress}.`
        : ` No "as of" note: ${result.noteProblem ?? "unknown reason"}.`;
      freezeStatus.show(
        "success",
        `Replaced ${result.formulas} CRYPTO formula${result.formulas === 1 ? "" : "s"} by values (${result.ranges.join(", ")}).${note}`
      );
    });
    return b;
  };

  return h(
    "div",
    { class: "stack" },
    h(
      "p",
      { class: "hint" },
      "Fetches fresh figures: the cache is cleared (kept only as a fallback if the service fails) and the formulas recalculate. The ribbon's Refresh button does the same, and opens this view when it finds changed figures."
    ),
    h(
      "div",
      { class: "buttons" },
      button("refresh-all", "Refresh all", "all", true),
      button("refresh-selection", "Refresh selection", "selection")
    ),
    last,
    status.element,
    h("h3", {}, "What changed"),
    h(
      "p",
      { class: "hint" },
      "The service sometimes restates figures it sent before. Refresh all asks again for every figure the workbook uses and lists those that changed; CRYPTO.CHANGES lists every change recorded, and vintage= shows a figure as it was known on a past day."
    ),
    found,
    h("div", { class: "buttons" }, toChanges),
    h("fluent-divider", { role: "separator" }),
    h("h3", {}, "Share without a key"),
    h(
      "p",
      { class: "hint" },
      "Replaces CRYPTO formulas by their current values (other formulas stay) and notes the time on the first cell."
    ),
    h(
      "div",
      { class: "buttons" },
      // One primary action per view: Refresh all's.
      freezeButton("freeze", "Freeze the selection", "selection", false),
      freezeButton("freeze-sheet", "Freeze the whole sheet", "sheet", false)
    ),
    freezeStatus.element
  );
}
