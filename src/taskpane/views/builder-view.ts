/**
 * The formula builder: pick a function, fill its parameters with controls, see the formula as it will be
 * written and a live preview of its result computed by the same engine (and cache) as the cells, then
 * insert it at the active cell.
 */
import { dayOfInstant } from "../../client/data/days";
import { evaluateCall } from "../../sheet/evaluate";
import type { AppContext } from "../app-context";
import type { Catalogue } from "../model/catalogue-store";
import { FUNCTION_SPECS, specFor } from "../model/function-specs";
import {
  build,
  emptyState,
  withValue,
  type BuilderState,
  type ParamValue,
} from "../model/formula-builder";
import { callForPreview } from "../model/formula-text";
import { h, replaceChildren } from "../../ui/dom";
import { choiceSelect } from "./picker";
import { cardView } from "../../ui/card-view";
import { resultTable } from "../../ui/result-table";
import { statusLine, withBusy } from "../../ui/status";
import { paramControl, type Control } from "./builder-controls";
import { messageOf } from "../../client/errors";

/** Typing pauses this long before the preview asks the engine. */
const PREVIEW_DELAY_MS = 350;
export const PREVIEW_ADDRESS = "Formula builder";

export interface BuilderView {
  element: HTMLElement;
  open: (state: BuilderState) => void;
}

export function builderView(ctx: AppContext): BuilderView {
  let state: BuilderState = emptyState("VALUE");
  let catalogue: Catalogue | undefined;
  let controls: { name: string; control: Control }[] = [];
  let previewTimer: ReturnType<typeof setTimeout> | undefined;
  let previewRun = 0;

  const fn = choiceSelect(
    "builder-function",
    "Function",
    FUNCTION_SPECS.map((s) => ({ value: s.name, label: `CRYPTO.${s.name}` })),
    state.fn
  );
  const summary = h("p", { class: "hint", id: "builder-summary" });
  const params = h("div", { id: "builder-params", class: "stack" });
  const formula = h("output", {
    id: "builder-formula",
    class: "formula",
    "aria-live": "polite",
    for: "builder-params",
  });
  const problems = h("ul", { id: "builder-problems", class: "problems" });
  const preview = h("div", { id: "builder-preview", "aria-live": "polite" });
  const previewStatus = statusLine("builder-preview-status");
  const insertStatus = statusLine("builder-insert-status");
  const insert = h(
    "fluent-button",
    { id: "builder-insert", appearance: "accent", disabled: true },
    "Insert at the active cell"
  );

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
          previewStatus.show("error", evaluation.message);
          replaceChildren(preview);
        } else {
          previewStatus.clear();
          const [[first]] = evaluation.grid;
          // A card (PROJECT without a field) previews as the card Excel will open on click.
          replaceChildren(
            preview,
            evaluation.grid.length === 1 &&
              evaluation.grid[0].length === 1 &&
              first.kind === "entity"
              ? cardView(first.value, { id: "builder-result" })
              : resultTable(evaluation.grid, { id: "builder-result" })
          );
        }
      } catch (error) {
        if (run === previewRun) previewStatus.show("error", `No preview: ${messageOf(error)}`);
      }
    })();
  };

  const update = (): void => {
    const result = build(state);
    if (result.ok) {
      formula.textContent = result.formula;
      replaceChildren(problems);
      insert.removeAttribute("disabled");
    } else {
      formula.textContent = "";
      replaceChildren(problems, ...result.problems.map((p) => h("li", {}, p)));
      insert.setAttribute("disabled", "");
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
    replaceChildren(params, ...controls.map((c) => c.control.element));
    controls.forEach((c) => c.control.set(state.values[c.name]));
    controls.forEach((c) => c.control.projectChanged?.(projectOf()));
    update();
  };

  fn.select.addEventListener("change", () => {
    state = emptyState(fn.select.value);
    renderParams();
  });

  insert.addEventListener("click", () =>
    withBusy(insert, insertStatus, "Inserting…", async () => {
      const result = build(state);
      if (!result.ok) throw new Error(result.problems.join(" "));
      const { address } = await ctx.workbook.insertFormula(result.formula);
      insertStatus.show("success", `Inserted ${result.formula} in ${address}.`);
    })
  );

  const load = async (): Promise<void> => {
    try {
      catalogue = await ctx.catalogue.load();
      renderParams();
    } catch (error) {
      previewStatus.show("error", `The catalogue is not loaded: ${messageOf(error)}`);
    }
  };
  ctx.onConnectionChanged(() => void load());
  void load();

  return {
    element: h(
      "div",
      { class: "stack" },
      fn.element,
      summary,
      params,
      h("h3", {}, "Formula"),
      formula,
      problems,
      h("h3", {}, "Preview"),
      previewStatus.element,
      preview,
      h("div", { class: "buttons" }, insert),
      insertStatus.element
    ),
    open(next) {
      state = next;
      fn.select.value = next.fn;
      renderParams();
    },
  };
}
