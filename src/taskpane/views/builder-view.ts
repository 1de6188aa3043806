/**
 * The formula builder: pick a function, fill its parameters with controls, see the formula as it will be
 * written and a live preview of its result computed by the same engine (and cache) as the cells, then
 * insert it at the active cell. The formula, Insert and the preview stay in a footer stuck to the bottom
 * of the pane while the parameters scroll; options are folded until opened; a series starts a year back.
 * The preview is announced once it is ready ("12 rows"), not redrawn into a live region.
 */
import { dayOfInstant } from "../../client/data/days";
import { evaluateCall } from "../../sheet/evaluate";
import type { AppContext } from "../app-context";
import type { Catalogue } from "../model/catalogue-store";
import { FUNCTION_SPECS, specFor } from "../model/function-specs";
import {
  build,
  startingState,
  withValue,
  type BuilderState,
  type ParamValue,
} from "../model/formula-builder";
import { callForPreview } from "../model/formula-text";
import { h, replaceChildren } from "../../ui/dom";
import { cardView } from "../../ui/card-view";
import { dropdownField } from "../../ui/controls";
import { resultTable } from "../../ui/result-table";
import { setInactive, statusLine } from "../../ui/status";
import { paramControl, type Control } from "./builder-controls";
import { onPress, reportError } from "./feedback";

/** Typing pauses this long before the preview asks the engine. */
const PREVIEW_DELAY_MS = 350;
/** Rows of the preview in the footer: enough to see the shape, little enough to keep the footer short. */
const PREVIEW_ROWS = 6;
export const PREVIEW_ADDRESS = "Formula builder";

export interface BuilderView {
  element: HTMLElement;
  open: (state: BuilderState) => void;
}

export function builderView(ctx: AppContext): BuilderView {
  let state: BuilderState = startingState("VALUE");
  let catalogue: Catalogue | undefined;
  let controls: { name: string; control: Control }[] = [];
  let previewTimer: ReturnType<typeof setTimeout> | undefined;
  let previewRun = 0;

  const fn = dropdownField(
    "builder-function",
    "Function",
    FUNCTION_SPECS.map((s) => ({ value: s.name, label: `CRYPTO.${s.name}` })),
    state.fn
  );
  const summary = h("p", { class: "hint", id: "builder-summary" });
  const help = h(
    "fluent-link",
    {
      id: "help-link",
      href: ctx.build.helpUrl,
      target: "_blank",
      rel: "noopener noreferrer",
      class: "help-link",
    },
    "Function reference"
  );
  const params = h("div", { id: "builder-params", class: "stack" });
  const loadStatus = statusLine("builder-load-status");
  const formula = h("output", { id: "builder-formula", class: "formula", for: "builder-params" });
  const problems = h("ul", { id: "builder-problems", class: "problems" });
  const preview = h("div", { id: "builder-preview" });
  const previewStatus = statusLine("builder-preview-status");
  const insertStatus = statusLine("builder-insert-status");
  const insert = h(
    "fluent-button",
    { id: "builder-insert", appearance: "primary" },
    "Insert at the active cell"
  );
  setInactive(insert, true);

  const runPreview = (): void => {
    const result = build(state);
    if (!result.ok) return;
    const run = ++previewRun;
    previewStatus.show("busy", "Computing the preview…");
    void (async () => {
      try {
        const [registry, runtime] = await Promise.all([ctx.registry(), ctx.runtime()]);
        const call = callForPreview(result.name, result.args, dayOfInstant(runtime.now()));
        const evaluation = await evaluateCall(call, registry, PREVIEW_ADDRESS);
        if (run !== previewRun) return;
        if (evaluation.kind === "refused") {
          previewStatus.error(evaluation.message);
          replaceChildren(preview);
        } else {
          const rows = evaluation.grid.length;
          const [[first]] = evaluation.grid;
          const card =
            rows === 1 && evaluation.grid[0].length === 1 && first.kind === "entity"
              ? first
              : undefined;
          previewStatus.show(
            "info",
            card
              ? "Preview ready: the card."
              : rows === 1 && evaluation.grid[0].length === 1
                ? "Preview ready."
                : `Preview: ${rows.toLocaleString("en-US")} row${rows === 1 ? "" : "s"}.`
          );
          // A card (PROJECT without a field) previews as the card Excel will open on click.
          replaceChildren(
            preview,
            card
              ? cardView(card.value, { id: "builder-result" })
              : resultTable(evaluation.grid, { id: "builder-result", maxRows: PREVIEW_ROWS })
          );
        }
      } catch (error) {
        if (run === previewRun)
          reportError(ctx, previewStatus, error, "compute the preview", () => runPreview());
      }
    })();
  };

  const update = (): void => {
    const result = build(state);
    if (result.ok) {
      formula.textContent = result.formula;
      replaceChildren(problems);
      setInactive(insert, false);
    } else {
      formula.textContent = "";
      replaceChildren(problems, ...result.problems.map((p) => h("li", {}, p)));
      setInactive(insert, true);
      previewRun++;
      previewStatus.clear();
      replaceChildren(preview);
    }
    if (previewTimer) clearTimeout(previewTimer);
    if (result.ok) previewTimer = setTimeout(runPreview, PREVIEW_DELAY_MS);
  };

  const projectOf = (): string | undefined => {
    const v = state.values.project;
    return v?.kind === "ids" && v.ids.length === 1 ? v.ids[0] : undefined;
  };

  const renderParams = (): void => {
    const spec = specFor(state.fn);
    summary.textContent = spec?.summary ?? "";
    if (!spec || !catalogue) return;
    // Controls report their first value as they are made: the values to show are the ones from before.
    const initial = state.values;
    const env = {
      catalogue,
      fn: spec.name,
      chainsOf: async (projectId: string) =>
        (await ctx.catalogue.projectDetail(projectId)).value.chains,
    };
    controls = spec.params.map((param) => ({
      name: param.name,
      control: paramControl(param, env, (value: ParamValue) => {
        const before = projectOf();
        state = withValue(state, param.name, value);
        if (param.name === "project" && projectOf() !== before) {
          controls.forEach((c) => c.control.projectChanged?.(projectOf()));
        }
        update();
      }),
    }));
    replaceChildren(
      params,
      ...(controls.length === 0
        ? [h("p", { class: "hint" }, "This function takes no arguments.")]
        : []),
      ...controls.map((c) => c.control.element)
    );
    controls.forEach((c) => c.control.set(initial[c.name]));
    controls.forEach((c) => c.control.projectChanged?.(projectOf()));
    update();
  };

  fn.onChange((name) => {
    state = startingState(name);
    // "Inserted =CRYPTO.METRIC(…)" under another function's formula reads as if it were that one's.
    insertStatus.clear();
    renderParams();
  });

  onPress(ctx, insert, insertStatus, "Inserting…", "insert the formula", async () => {
    const result = build(state);
    if (!result.ok) {
      insertStatus.error(`Not ready to insert: ${result.problems.join(" ")}`);
      return;
    }
    const { address } = await ctx.workbook.insertFormula(result.formula);
    insertStatus.show("success", `Inserted ${result.formula} in ${address}.`);
  });

  const load = async (): Promise<void> => {
    loadStatus.show("busy", "Loading the catalogue…");
    try {
      catalogue = await ctx.catalogue.load();
      loadStatus.clear();
      renderParams();
    } catch (error) {
      catalogue = undefined;
      replaceChildren(params);
      reportError(ctx, loadStatus, error, "load the catalogue for the builder", () => void load());
    }
  };
  ctx.onConnectionChanged(() => {
    insertStatus.clear();
    previewStatus.clear();
    replaceChildren(preview);
    void load();
  });
  void load();

  return {
    element: h(
      "div",
      { class: "builder" },
      h(
        "div",
        { class: "stack builder-body" },
        h("h2", { class: "visually-hidden" }, "Build a formula"),
        fn.element,
        h("div", { class: "summary-row" }, summary, help),
        loadStatus.element,
        params
      ),
      h(
        "div",
        { class: "builder-footer", role: "region", "aria-label": "Formula and preview" },
        h("h2", { class: "footer-label", id: "builder-formula-label" }, "Formula"),
        formula,
        problems,
        h("div", { class: "buttons" }, insert),
        insertStatus.element,
        previewStatus.element,
        preview
      )
    ),
    open(next) {
      state = next;
      fn.setValue(next.fn);
      insertStatus.clear();
      renderParams();
    },
  };
}
