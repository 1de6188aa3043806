/**
 * Excel's value preview. While a formula is typed (or part of it selected in the formula bar), Excel calls its
 * function to show the value it would have: `invocation.isInValuePreview` (CustomFunctionsRuntime 1.5).
 * Microsoft's advice for functions over a metered service is to answer previews without calling it; here the
 * 60 requests a minute are the product's speed, and a formula typed character by character would spend them.
 *
 * So a preview runs the function's own implementation over a cache-only view of the engine
 * (Engine.cacheOnly, its cache-only mode): when everything it reads is already held it shows exactly what Enter will show, and as
 * soon as it would need the service it shows PREVIEW_PLACEHOLDER instead. Nothing is sent, no batching window
 * opens, and nothing is recorded in the diagnostics (a preview is not the cell's value). Hosts without the
 * flag (Excel before 1.5, the CLI) never preview: their calls run as always.
 */
import type { Runtime } from "../runtime/runtime";
import { CallTrace, type FnContext } from "./context";

/** What a preview shows when its value is not held yet: text, so Excel shows it as it is. */
export const PREVIEW_PLACEHOLDER = "(the value comes on Enter)";

/**
 * Functions whose result is one value (functions.json: result dimensionality "scalar"); the others return a
 * matrix and get the placeholder as a 1 × 1 matrix. A test holds this list to the generated metadata.
 */
export const SCALAR_RESULTS: ReadonlySet<string> = new Set(["VALUE", "ASOF", "AGGREGATION"]);

/**
 * A preview gives up on its value after this long: it reads only what is held (the saved cache at most), so
 * it settles in milliseconds, and a preview that takes longer is not worth waiting for while the user types.
 */
export const PREVIEW_DEADLINE_MS = 2_000;

/**
 * Whether Excel calls for a preview. The flag is documented as a boolean; @types/custom-functions-runtime
 * declares a string, so "true" counts as well. Absent (older Excel, every other host): not a preview.
 */
export function isValuePreview(invocation: { isInValuePreview?: unknown } | undefined): boolean {
  const flag = invocation?.isInValuePreview;
  return flag === true || flag === "true";
}

/** The placeholder in the shape Excel expects from the function. */
export function placeholderFor(functionName: string): string | string[][] {
  return SCALAR_RESULTS.has(functionName) ? PREVIEW_PLACEHOLDER : [[PREVIEW_PLACEHOLDER]];
}

/** Thrown (rejected) by the cache-only engine where the service would be needed. */
class PreviewMiss extends Error {
  constructor() {
    super("not held: a preview does not ask the service");
    this.name = "PreviewMiss";
  }
}

/**
 * One preview's context: the runtime with its engine replaced by the cache-only view (for implementations
 * that reach the engine through the runtime), and whether anything missed. An implementation may catch a
 * miss and carry on (a table keeps its other columns); the preview then still shows the placeholder.
 */
export class PreviewCall {
  missed = false;
  readonly ctx: FnContext;

  constructor(runtime: Runtime, today: number) {
    const engine = runtime.engine.cacheOnly(() => {
      this.missed = true;
      return new PreviewMiss();
    });
    const view = Object.create(runtime, { engine: { value: engine } }) as Runtime;
    this.ctx = { runtime: view, engine, trace: new CallTrace(), today };
  }
}
