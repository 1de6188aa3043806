/** Loading the registry from the build's files on disk (Node only: the CLI). */
import { readFileSync } from "fs";
import { resolve } from "path";
import { broken, createRegistry, isRecord, type Registry } from "../sheet/registry";
import { firstLineOf } from "../client";

interface RegistryPaths {
  /** functions.meta.json written by `npm run build:node`. */
  meta: string;
  /** The compiled functions module (anything `require` resolves). */
  module: string;
}

/** Where the build puts them, relative to this file once compiled to dist/node/cli. */
export function defaultRegistryPaths(dir: string = __dirname): RegistryPaths {
  return {
    meta: resolve(dir, "../functions/functions.meta.json"),
    module: resolve(dir, "../functions/functions"),
  };
}

/** Load metadata and module from disk. The host shim must be installed first: the module may use it. */
export function loadRegistry(paths: RegistryPaths = defaultRegistryPaths()): Registry {
  let metaJson: unknown;
  try {
    metaJson = JSON.parse(readFileSync(paths.meta, "utf8"));
  } catch (error) {
    throw broken(`cannot read ${paths.meta} (run npm run build:node)`, error);
  }
  let exports: unknown;
  try {
    // A runtime path on purpose: the CLI calls whatever the build produced, as Excel loads its bundle.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    exports = require(paths.module);
  } catch (error) {
    throw broken(`cannot load the functions module ${paths.module}: ${firstLineOf(error)}`, error);
  }
  if (!isRecord(exports)) throw broken(`${paths.module} exports nothing`);
  return createRegistry(metaJson, exports);
}
