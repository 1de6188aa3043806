/**
 * Refresh and sharing: Refresh all (the ribbon's Refresh does the same), Refresh selection, the time of the
 * last refresh (whoever ran it), and Freeze to values with an "as of" note.
 */
import { clockTime, refresh } from "../../excel/refresh-all";
import type { RefreshRecord } from "../../excel/refresh-log";
import type { AppContext } from "../app-context";
import { freezeNote } from "../model/freeze-note";
import { h, replaceChildren } from "../../ui/dom";
import { statusLine, withBusy } from "../../ui/status";

export function refreshView(ctx: AppContext): HTMLElement {
  const last = h(
    "p",
    { id: "last-refresh", class: "hint", "aria-live": "polite" },
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

  const deps = {
    runtime: () => ctx.runtime(),
    recalculate: (scope: "all" | "selection") => ctx.workbook.recalculate(scope),
    now: () => ctx.now(),
    log: ctx.refreshLog,
  };
  const button = (
    id: string,
    label: string,
    scope: "all" | "selection",
    accent = false
  ): HTMLElement => {
    const b = h("fluent-button", { id, appearance: accent ? "accent" : "neutral" }, label);
    b.addEventListener("click", () =>
      withBusy(b, status, "Refreshing…", async () => {
        const record = await refresh(deps, scope, "taskpane");
        status.show(record.ok ? "success" : "error", record.message);
      })
    );
    return b;
  };

  const scope = h(
    "fluent-radio-group",
    { id: "freeze-scope", value: "selection", orientation: "vertical" },
    h("label", { slot: "label" }, "Freeze"),
    h(
      "fluent-radio",
      { value: "selection", id: "freeze-selection", checked: true },
      "The selected cells"
    ),
    h("fluent-radio", { value: "sheet", id: "freeze-sheet" }, "The whole active sheet")
  );
  const freezeStatus = statusLine("freeze-status");
  const freeze = h("fluent-button", { id: "freeze", appearance: "accent" }, "Freeze to values");
  freeze.addEventListener("click", () =>
    withBusy(freeze, freezeStatus, "Freezing…", async () => {
      const where = ((scope as HTMLElement & { value: string }).value || "selection") as
        "selection" | "sheet";
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
    })
  );

  return h(
    "div",
    { class: "stack" },
    h("h2", {}, "Refresh"),
    h(
      "p",
      { class: "hint" },
      "Fetches fresh figures: the cache is cleared (kept only as a fallback if the service fails) and the formulas recalculate."
    ),
    h(
      "div",
      { class: "buttons" },
      button("refresh-all", "Refresh all", "all", true),
      button("refresh-selection", "Refresh selection", "selection")
    ),
    last,
    status.element,
    h("fluent-divider", {}),
    h("h2", {}, "Share without a key"),
    h(
      "p",
      { class: "hint" },
      "Replaces CRYPTO formulas by their current values (other formulas stay) and notes the time on the first cell."
    ),
    scope,
    h("div", { class: "buttons" }, freeze),
    freezeStatus.element
  );
}
