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
import { h, replaceChildren } from "../../ui/dom";
import { statusLine, withBusy } from "../../ui/status";

const USAGE_TICK_MS = 5_000;

async function storedKey(ctx: AppContext): Promise<string | undefined> {
  const source = ctx.settings.apiKey;
  return typeof source === "function" ? source() : source;
}

export function diagnosticsView(ctx: AppContext): HTMLElement {
  const cell = h("div", { id: "diag-cell", class: "stack", "aria-live": "polite" });
  const errors = h("ul", { id: "diag-errors", class: "plain errors-list" });
  const notes = h("div", { id: "diag-notes" });
  const meter = h("meter", {
    id: "usage-meter",
    min: 0,
    max: 60,
    low: 36,
    high: 54,
    optimum: 0,
    value: 0,
  });
  const usageText = h("p", { id: "usage-text" });
  const usageDetail = h("p", { id: "usage-detail", class: "hint" });
  const exportStatus = statusLine("export-status");
  const exportBox = h("textarea", {
    id: "diagnostics-json",
    class: "input mono",
    rows: 8,
    readonly: true,
    "aria-label": "Exported diagnostics (JSON)",
    hidden: true,
  });
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
      v.error ? h("p", { class: "badge archived" }, v.error) : null,
      v.stale ? h("p", { class: "badge maintenance" }, v.stale) : null,
      v.saved ? h("p", { class: "hint", id: "diag-saved" }, v.saved) : null,
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
        : [h("li", { class: "hint" }, "No errors.")])
    );
    const noteList = describeNotes(ctx.diagnostics.notes());
    replaceChildren(
      notes,
      ...(noteList.length
        ? [
            h("h2", {}, "Saved cache"),
            h(
              "ul",
              { class: "plain" },
              ...noteList.map((n) => h("li", {}, `${n.text} `, h("span", { class: "hint" }, n.at)))
            ),
          ]
        : [])
    );
    const usage = describeUsage(ctx.diagnostics.usage());
    meter.max = usage.limitPerMinute;
    meter.low = usage.limitPerMinute * 0.6;
    meter.high = usage.limitPerMinute * 0.9;
    meter.value = usage.requestsLastMinute;
    meter.dataset.level = usage.level;
    usageText.textContent = usage.summary;
    usageDetail.textContent = usage.detail;
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
  exportButton.addEventListener("click", () =>
    withBusy(exportButton, exportStatus, "Exporting…", async () => {
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
      const link = h(
        "a",
        { href: url, download: "cryptometrics-diagnostics.json", id: "diagnostics-download" },
        "Download cryptometrics-diagnostics.json"
      );
      replaceChildren(
        exportStatus.element,
        "Ready (no API key inside). ",
        link,
        " or copy the text below."
      );
      exportStatus.element.dataset.kind = "success";
    })
  );
  const refreshCell = h(
    "fluent-button",
    { id: "diag-follow", appearance: "outline" },
    "Show the active cell"
  );
  refreshCell.addEventListener("click", () => void follow());

  void follow();
  renderRest();
  return h(
    "div",
    { class: "stack" },
    h("h2", {}, "Active cell"),
    cell,
    h("div", { class: "buttons" }, refreshCell),
    h("h2", {}, "Usage"),
    h("label", { for: "usage-meter", class: "label" }, "Requests in the last minute"),
    meter,
    usageText,
    usageDetail,
    h("h2", {}, "Recent errors"),
    errors,
    notes,
    h("fluent-divider", {}),
    h("div", { class: "buttons" }, exportButton),
    exportStatus.element,
    exportBox
  );
}
