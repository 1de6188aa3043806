/**
 * Diagnostics: why the active cell shows what it shows (arguments as parsed, requests that served it,
 * partial-success errors, staleness, metric definitions), the recent errors with their cells, the usage
 * meter (requests in the last minute against the limit, retries), and "Export diagnostics" (JSON, no key).
 */
import type { AppContext } from "../app-context";
import {
  describeCell,
  describeErrors,
  describeNotes,
  describeUsage,
  exportDiagnostics,
} from "../model/diagnostics-model";
import { h, replaceChildren, setText } from "../../ui/dom";
import { statusLine } from "../../ui/status";
import { onPress } from "./feedback";

const USAGE_TICK_MS = 5_000;

async function storedKey(ctx: AppContext): Promise<string | undefined> {
  const source = ctx.settings.apiKey;
  return typeof source === "function" ? source() : source;
}

export function diagnosticsView(ctx: AppContext): HTMLElement {
  const cell = h("div", { id: "diag-cell", class: "stack" });
  const errors = h("ul", { id: "diag-errors", class: "plain errors-list" });
  const notes = h("div", { id: "diag-notes" });
  // A Fluent bar; the ARIA values are written on the element too (not only in its ElementInternals).
  const meter = h("fluent-progress-bar", {
    id: "usage-meter",
    role: "progressbar",
    "aria-labelledby": "usage-meter-label",
    "aria-valuemin": 0,
    "aria-valuemax": 60,
    "aria-valuenow": 0,
    min: 0,
    max: 60,
    value: 0,
    thickness: "large",
  });
  const usageText = h("p", { id: "usage-text" });
  const usageDetail = h("p", { id: "usage-detail", class: "hint" });
  const exportStatus = statusLine("export-status");
  const exportBox = h(
    "fluent-textarea",
    { id: "diagnostics-json", class: "mono", readonly: true, resize: "vertical", hidden: true },
    h("span", { slot: "label" }, "Exported diagnostics (JSON)")
  ) as HTMLElement & { value: string };
  let address: string | undefined;
  let downloadUrl: string | undefined;

  const renderCell = (): void => {
    const record = address ? ctx.diagnostics.cell(address) : undefined;
    if (!address) {
      replaceChildren(cell, h("p", { class: "hint" }, "Select a cell to see how it was computed."));
      return;
    }
    if (!record) {
      replaceChildren(
        cell,
        h("p", {}, `${address}: no CRYPTO formula has run here since the add-in started.`)
      );
      return;
    }
    const v = describeCell(record);
    replaceChildren(
      cell,
      h("p", {}, h("strong", {}, v.address), ` — ${v.functionName}, computed ${v.computedAt}`),
      v.error ? h("p", { class: "badge error" }, v.error) : null,
      v.stale ? h("p", { class: "badge maintenance" }, v.stale) : null,
      v.saved ? h("p", { class: "hint", id: "diag-saved" }, v.saved) : null,
      v.asOf.length ? h("p", {}, `As of: ${v.asOf.join("; ")}`) : null,
      h("h4", {}, "Arguments"),
      h(
        "dl",
        { class: "args" },
        ...v.args.flatMap((a) => [h("dt", {}, a.name), h("dd", {}, a.value)])
      ),
      h("h4", {}, "Requests that served it"),
      v.requests.length
        ? h("ul", { class: "plain mono" }, ...v.requests.map((r) => h("li", {}, r)))
        : h("p", { class: "hint" }, "None (answered before any request)."),
      v.warnings.length
        ? h(
            "div",
            {},
            h("h4", {}, "Partial results"),
            h("ul", { class: "plain" }, ...v.warnings.map((w) => h("li", {}, w)))
          )
        : null,
      v.definitions.length
        ? h(
            "div",
            {},
            h("h4", {}, "Definitions"),
            h(
              "dl",
              {},
              ...v.definitions.flatMap((d) => [h("dt", {}, d.metric), h("dd", {}, d.definition)])
            )
          )
        : null
    );
  };

  const renderRest = (): void => {
    const list = describeErrors(ctx.diagnostics.recentErrors());
    replaceChildren(
      errors,
      ...(list.length
        ? list.map((e) =>
            h(
              "li",
              {},
              h("strong", {}, e.address),
              ` ${e.summary} `,
              h("span", { class: "hint" }, e.at)
            )
          )
        : [h("li", { class: "hint" }, "No cell has shown an error since the add-in started.")])
    );
    const noteList = describeNotes(ctx.diagnostics.notes());
    replaceChildren(
      notes,
      ...(noteList.length
        ? [
            h("h3", {}, "Saved cache"),
            h(
              "ul",
              { class: "plain" },
              ...noteList.map((n) => h("li", {}, `${n.text} `, h("span", { class: "hint" }, n.at)))
            ),
          ]
        : [])
    );
    const usage = describeUsage(ctx.diagnostics.usage());
    const bar = meter as HTMLElement & { max: number; value: number };
    bar.max = usage.limitPerMinute;
    bar.value = usage.requestsLastMinute;
    meter.setAttribute("aria-valuemax", String(usage.limitPerMinute));
    meter.setAttribute("aria-valuenow", String(usage.requestsLastMinute));
    meter.setAttribute("aria-valuetext", usage.summary);
    meter.setAttribute(
      "validation-state",
      usage.level === "high" ? "error" : usage.level === "medium" ? "warning" : "success"
    );
    meter.dataset.level = usage.level;
    setText(usageText, usage.summary);
    setText(usageDetail, usage.detail);
  };

  const follow = async (): Promise<void> => {
    try {
      address = await ctx.workbook.activeCellAddress();
    } catch {
      address = undefined;
    }
    renderCell();
  };

  let scheduled = false;
  ctx.diagnostics.subscribe(() => {
    // Many cells report within one recalculation: draw once per frame.
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => {
      scheduled = false;
      renderCell();
      renderRest();
    });
  });
  ctx.workbook.onSelectionChanged(() => void follow());
  setInterval(renderRest, USAGE_TICK_MS);

  const exportButton = h("fluent-button", { id: "export-diagnostics" }, "Export diagnostics");
  onPress(ctx, exportButton, exportStatus, "Exporting…", "export the diagnostics", async () => {
    const json = exportDiagnostics({
      diagnostics: ctx.diagnostics,
      settings: await ctx.settings.snapshot(),
      version: ctx.build.version,
      mode: ctx.build.mode,
      now: ctx.now(),
      secrets: [await storedKey(ctx)],
    });
    exportBox.value = json;
    exportBox.hidden = false;
    if (downloadUrl) URL.revokeObjectURL(downloadUrl);
    const url = URL.createObjectURL(new Blob([json], { type: "application/json" }));
    downloadUrl = url;
    download.setAttribute("href", url);
    download.hidden = false;
    exportStatus.show(
      "success",
      "Ready (no API key inside): download the file, or copy the text below."
    );
  });
  const download = h(
    "fluent-link",
    {
      href: "#",
      download: "cryptometrics-diagnostics.json",
      id: "diagnostics-download",
      hidden: true,
    },
    "Download cryptometrics-diagnostics.json"
  );
  const refreshCell = h(
    "fluent-button",
    { id: "diag-follow", appearance: "outline" },
    "Show the active cell"
  );
  // The button says what it did, also when the cell shown stays the same.
  const followStatus = statusLine("diag-follow-status");
  refreshCell.addEventListener("click", () => {
    void follow().then(() => {
      if (address) followStatus.show("info", `Showing ${address}, the active cell.`);
      else if (ctx.workbook.kind === "none")
        followStatus.show(
          "info",
          "Outside Excel there is no active cell: open Cryptometrics from Excel's Data tab."
        );
      else followStatus.show("info", "No cell is selected in Excel.");
    });
  });

  void follow();
  renderRest();
  return h(
    "div",
    { class: "stack" },
    h("h3", {}, "Active cell"),
    cell,
    h("div", { class: "buttons" }, refreshCell),
    followStatus.element,
    h("h3", {}, "Usage"),
    h("p", { class: "label", id: "usage-meter-label" }, "Requests in the last minute"),
    meter,
    usageText,
    usageDetail,
    h("h3", {}, "Errors in cells"),
    errors,
    notes,
    h("fluent-divider", { role: "separator" }),
    h("div", { class: "buttons" }, exportButton),
    exportStatus.element,
    download,
    exportBox
  );
}
