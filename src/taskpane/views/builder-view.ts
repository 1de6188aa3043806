/**
 * The formula builder: pick a function, fill its parameters with controls, see the formula as it will be
 * written and a live preview of its result computed by the same engine (and cache) as the cells, then
 * insert it at the active cell.
 *
 * The footer holds what is being inserted and nothing more: the formula (whole, never cut: a comps formula
 * of a sector wraps over as many lines as it takes), what is still to choose or what is wrong, Insert, and
 * the form's one status line (the preview computing or ready, or what the insert did). It stays at the
 * bottom of the pane while it leaves room (ui/pane-layout.ts: the sticky bars take at most a third of
 * the pane), else it scrolls with the parameters. The preview table sits after the parameters.
 *
 * Nothing is an error before the user has chosen: what is still to choose is a neutral hint; only a
 * choice that is wrong (a start after the end, a typed date that is none) is red. The preview is
 * announced once it is ready ("12 rows"), not redrawn into a live region.
 */
import { dayOfInstant } from "../../client";
import { evaluateCall } from "../../sheet/evaluate";
import type { AppContext } from "../app-context";
import type { Catalogue } from "../model/catalogue-store";
import { FUNCTION_SPECS, specFor } from "../model/function-specs";
import {
  build,
  startingState,
  SUM_OPTIONS,
  remember,
  SUMMABLE,
  switchFunction,
  withValue,
  type Remembered,
  type BuilderState,
  type OptionValues,
  type ParamValue,
} from "../model/formula-builder";
import { callForPreview } from "../model/formula-text";
import { previewShape } from "../model/preview-shape";
import { parseFormula, printFormula } from "../../sheet/formula";
import { h, replaceChildren, setText } from "../../ui/dom";
import { cardView } from "../../ui/card-view";
import { checkboxField, dropdownField } from "../../ui/controls";
import { updatePaneLayout } from "../../ui/pane-layout";
import { resultTable } from "../../ui/result-table";
import { setInactive, statusLine } from "../../ui/status";
import { paramControl, type Control } from "./builder-controls";
import { onPress, reportError } from "./feedback";

/** Typing pauses this long before the preview asks the engine. */
const PREVIEW_DELAY_MS = 350;
/** Rows of the preview: enough to see the shape, little enough to keep the parameters near. */
const PREVIEW_ROWS = 6;
const PREVIEW_ADDRESS = "Formula builder";

interface BuilderView {
  element: HTMLElement;
  open: (state: BuilderState) => void;
}

/** The options chosen, as the model keeps them. */
function optionsOf(state: BuilderState): OptionValues {
  const value = state.values.options;
  return value?.kind === "options" ? value.options : {};
}

/** "Still to choose: project, metric." from "Choose project.", "Choose metric." (and the rest as said). */
function guidance(missing: readonly string[]): string {
  const choose = /^Choose ([^.]*)\.$/;
  const names = missing.flatMap((m) => choose.exec(m)?.[1] ?? []);
  const rest = missing.filter((m) => !choose.test(m));
  return [...(names.length > 0 ? [`Still to choose: ${names.join(", ")}.`] : []), ...rest].join(
    " "
  );
}

export function builderView(ctx: AppContext): BuilderView {
  let state: BuilderState = startingState("VALUE");
  let catalogue: Catalogue | undefined;
  let controls: { name: string; control: Control }[] = [];
  let previewTimer: ReturnType<typeof setTimeout> | undefined;
  let previewRun = 0;
  /** The last insert's message stands until the formula changes; a preview finishing then stays quiet. */
  let insertShown = false;

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
  const formula = h("code", { id: "builder-formula", class: "formula" });
  const hint = h("p", { id: "builder-hint", class: "hint builder-hint" });
  const problems = h("ul", { id: "builder-problems", class: "problems" });
  const preview = h("div", { id: "builder-preview" });
  // Not a landmark of its own: the result's scroll box is the one region named "Preview".
  const previewSection = h(
    "div",
    { id: "builder-preview-section", hidden: true },
    h("h3", { id: "builder-preview-heading" }, "Preview"),
    preview
  );
  // Summing a series' values: offered where a plain SUM of the spill would add the dates too.
  const sumBox = checkboxField("b-sum", "Sum the values (one number)", false);
  const sumRow = h(
    "div",
    { class: "stack", id: "b-sum-row" },
    sumBox.element,
    h(
      "p",
      { class: "hint", id: "b-sum-hint" },
      `A SUM of the whole table would add its dates as serial numbers; this sums the values only (${SUM_OPTIONS}).`
    )
  );
  sumBox.checkbox.setAttribute("aria-describedby", "b-sum-hint");
  sumBox.onChange((checked) => {
    state = { ...state, sum: checked };
    update();
  });
  // The builder's one status line: the preview computing or ready, or what the insert did.
  const status = statusLine("builder-status");
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
    if (!insertShown) status.show("busy", "Computing the preview…");
    void (async () => {
      try {
        const [registry, runtime] = await Promise.all([ctx.registry(), ctx.runtime()]);
        const inner = callForPreview(result.name, result.args, dayOfInstant(runtime.now()));
        // A sum is computed as the cell will: Excel's SUM around the call.
        const call = result.sum ? parseFormula(`=SUM(${printFormula(inner).slice(1)})`) : inner;
        const evaluation = await evaluateCall(call, registry, PREVIEW_ADDRESS);
        if (run !== previewRun) return;
        if (evaluation.kind === "refused") {
          if (!insertShown) status.error(`The preview could not run: ${evaluation.message}`);
          replaceChildren(preview);
          previewSection.hidden = true;
          return;
        }
        const [[first]] = evaluation.grid;
        const single = evaluation.grid.length === 1 && evaluation.grid[0].length === 1;
        const card = single && first.kind === "entity" ? first : undefined;
        const shape = previewShape(result.name, optionsOf(state), catalogue);
        // Rows of figures: the header rows head the columns, they are not rows.
        const rows = Math.max(evaluation.grid.length - shape.headerRows, 0);
        if (!insertShown)
          status.show(
            "info",
            card
              ? "Preview ready: the card, below."
              : single
                ? "Preview ready, below."
                : `Preview: ${rows.toLocaleString("en-US")} row${rows === 1 ? "" : "s"}, below.`
          );
        // Focus on the old result (its scroll region) moves to the new one, never to <body>.
        const hadFocus = preview.contains(document.activeElement);
        // A card (PROJECT without a field) previews as the card Excel will open on click.
        replaceChildren(
          preview,
          card
            ? cardView(card.value, { id: "builder-result" })
            : resultTable(evaluation.grid, {
                id: "builder-result",
                maxRows: PREVIEW_ROWS,
                label: "Preview",
                headerRows: single ? 0 : shape.headerRows,
                rowHeadingColumn: single ? undefined : shape.rowHeadingColumn,
                show: shape.newest === "last" ? "last" : "first",
                heading: shape.heading,
              })
        );
        previewSection.hidden = false;
        // Periods across (a statement): the newest ones in view, the row names kept at the left.
        if (shape.newest === "across") {
          const scroller = preview.querySelector<HTMLElement>(".result-scroll");
          if (scroller) scroller.scrollLeft = scroller.scrollWidth;
        }
        if (hadFocus)
          preview.querySelector<HTMLElement>("[tabindex='0'], [role='region']")?.focus();
      } catch (error) {
        if (run !== previewRun || insertShown) return;
        reportError(ctx, status, error, "compute the preview", () => runPreview());
      }
    })();
  };

  /** The formula on screen, and the one the preview shows: a control reporting the same value is no change. */
  let shownFormula: string | undefined;
  const update = (): void => {
    const result = build(state);
    if (result.ok && result.formula === shownFormula) return;
    shownFormula = result.ok ? result.formula : undefined;
    // A changed formula is not the one inserted: that message goes.
    if (insertShown) status.clear();
    insertShown = false;
    if (result.ok) {
      setText(formula, result.formula);
      replaceChildren(problems);
      setText(hint, "");
      setInactive(insert, false);
    } else {
      setText(formula, "");
      replaceChildren(problems, ...result.problems.map((p) => h("li", {}, p)));
      setText(hint, guidance(result.missing));
      setInactive(insert, true);
      previewRun++;
      status.clear();
      replaceChildren(preview);
      previewSection.hidden = true;
    }
    if (previewTimer) clearTimeout(previewTimer);
    if (result.ok) previewTimer = setTimeout(runPreview, PREVIEW_DELAY_MS);
    // The footer's height follows the formula's: the pane decides again what stays in view.
    updatePaneLayout();
  };

  const projectOf = (): string | undefined => {
    const v = state.values.project;
    return v?.kind === "ids" && v.ids.length === 1 ? v.ids[0] : undefined;
  };

  const renderParams = (): void => {
    const spec = specFor(state.fn);
    setText(summary, spec?.summary ?? "");
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
    sumBox.setChecked(state.sum === true);
    replaceChildren(
      params,
      ...(controls.length === 0
        ? [h("p", { class: "hint" }, "This function takes no arguments.")]
        : []),
      ...controls.map((c) => c.control.element),
      SUMMABLE.includes(spec.name) ? sumRow : null
    );
    controls.forEach((c) => c.control.set(initial[c.name]));
    controls.forEach((c) => c.control.projectChanged?.(projectOf()));
    update();
  };

  // Another function keeps the project, metric and dates chosen, also by way of one that takes none of
  // them (arrowing through the list passes every function between): formula-builder.ts, switchFunction.
  let remembered: Remembered = {};
  fn.onChange((name) => {
    remembered = remember(remembered, state);
    state = switchFunction(remembered, name);
    renderParams();
  });

  onPress(ctx, insert, status, "Inserting…", "insert the formula", async () => {
    const result = build(state);
    if (!result.ok) {
      status.error(`Not ready to insert: ${[...result.problems, ...result.missing].join(" ")}`);
      return;
    }
    const { address } = await ctx.workbook.insertFormula(result.formula);
    // The formula is right above: the message says where it went.
    insertShown = true;
    status.show("success", `Inserted the formula above in ${address}.`);
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
    previewRun++;
    shownFormula = undefined;
    insertShown = false;
    status.clear();
    replaceChildren(preview);
    previewSection.hidden = true;
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
        params,
        previewSection
      ),
      h(
        "div",
        {
          class: "builder-footer",
          id: "builder-footer",
          // Focus on Insert brings the whole formula into view with it (ui/pane-layout.ts).
          "data-reveal-group": true,
          role: "region",
          "aria-labelledby": "builder-formula-label",
        },
        h("h2", { class: "footer-label", id: "builder-formula-label" }, "Formula"),
        formula,
        hint,
        problems,
        h("div", { class: "buttons footer-actions" }, insert, status.element)
      )
    ),
    open(next) {
      // Opened with a state of its own (from Browse, a sector): what was chosen before does not carry.
      remembered = {};
      state = next;
      fn.setValue(next.fn);
      renderParams();
    },
  };
}
