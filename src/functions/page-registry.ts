/**
 * The CRYPTO functions as a page can call them: the metadata Excel reads (functions.json, served next to
 * the page) joined with the functions module the page already loaded (the shared bundle, so the same
 * engine, cache and rate limiter as every cell). Excel learns the id → function map from the
 * CustomFunctions.associate calls the build appends; a page cannot read those back, so the map is derived
 * from the registry (registry.ts) and a test holds it to the generated one.
 */
import { createRegistry, type Registry } from "../sheet/registry";
import * as exported from "./functions";
import { exportName, FUNCTION_NAMES } from "./registry";

/** Each function's id → its export in functions.ts, from the registry. */
export const FUNCTION_EXPORTS: Readonly<Record<string, keyof typeof exported>> = Object.fromEntries(
  FUNCTION_NAMES.map((name) => [name, exportName(name) as keyof typeof exported])
);

export function pageRegistry(
  functionsJson: unknown,
  functionsModule: Readonly<Record<string, unknown>> = exported
): Registry {
  const associate = Object.entries(FUNCTION_EXPORTS).map(([id, functionName]) => ({
    id,
    functionName,
  }));
  return createRegistry({ metadata: functionsJson, associate }, functionsModule);
}

type FetchJson = (url: string) => Promise<unknown>;

const fetchJson: FetchJson = async (url) => {
  const response = await fetch(url, { cache: "no-cache" });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
};

let loaded: Promise<Registry> | undefined;

/** The registry of this page, from functions.json beside it; loaded once. */
export function loadPageRegistry(load: FetchJson = fetchJson): Promise<Registry> {
  if (!loaded) {
    loaded = load("functions.json").then((json) => pageRegistry(json));
    loaded.catch(() => (loaded = undefined));
  }
  return loaded;
}
