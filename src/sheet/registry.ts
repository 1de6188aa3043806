/**
 * The functions Excel would know: functions.json metadata (what a formula may call and how) joined with
 * the exported implementations (the `associate` map the webpack plugin turns into
 * CustomFunctions.associate calls). Built at run time from dist/node/functions/functions.meta.json and the
 * compiled functions module, so a host outside Excel calls exactly what Excel calls. Pure: the pages build one
 * in the browser (functions/page-registry.ts); src/cli/registry-files.ts reads them from disk.
 */
import { SheetError } from "./errors";

export interface ParameterMeta {
  name: string;
  description?: string;
  type?: string;
  dimensionality?: string;
  optional?: boolean;
  repeating?: boolean;
}

interface FunctionOptions {
  requiresAddress?: boolean;
  cancelable?: boolean;
  stream?: boolean;
  volatile?: boolean;
}

export interface FunctionMeta {
  id: string;
  name: string;
  description?: string;
  parameters: ParameterMeta[];
  result?: { type?: string; dimensionality?: string };
  options?: FunctionOptions;
}

export type Implementation = (...args: unknown[]) => unknown;

export interface RegisteredFunction {
  meta: FunctionMeta;
  /** The export of the functions module that Excel associates with `meta.id`. */
  functionName: string;
  implementation: Implementation;
}

export interface Registry {
  /** Case-insensitive, by metadata `name` (the name without the CRYPTO. namespace). */
  lookup(name: string): RegisteredFunction | undefined;
  list(): readonly RegisteredFunction[];
}

export const NAMESPACE = "CRYPTO";

export function broken(message: string, cause?: unknown): SheetError {
  return new SheetError("broken-build", `functions metadata: ${message}`, { cause });
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function readParameter(value: unknown, where: string): ParameterMeta {
  if (!isRecord(value) || typeof value.name !== "string")
    throw broken(`${where}: parameter without a name`);
  const parameter: ParameterMeta = { name: value.name };
  if (typeof value.description === "string") parameter.description = value.description;
  if (typeof value.type === "string") parameter.type = value.type;
  if (typeof value.dimensionality === "string") parameter.dimensionality = value.dimensionality;
  if (value.optional === true) parameter.optional = true;
  if (value.repeating === true) parameter.repeating = true;
  return parameter;
}

function readFunction(value: unknown, index: number): FunctionMeta {
  if (!isRecord(value) || typeof value.id !== "string" || typeof value.name !== "string") {
    throw broken(`function #${index + 1} lacks an id or a name`);
  }
  const where = `function ${value.name}`;
  const parameters = value.parameters ?? [];
  if (!Array.isArray(parameters)) throw broken(`${where}: parameters is not a list`);
  const meta: FunctionMeta = {
    id: value.id,
    name: value.name,
    parameters: parameters.map((p) => readParameter(p, where)),
  };
  if (typeof value.description === "string") meta.description = value.description;
  if (isRecord(value.result)) meta.result = value.result;
  if (isRecord(value.options)) meta.options = value.options;
  return meta;
}

/** Build a registry from the parsed functions.meta.json and the functions module's exports. */
export function createRegistry(
  metaJson: unknown,
  exports: Readonly<Record<string, unknown>>
): Registry {
  if (
    !isRecord(metaJson) ||
    !isRecord(metaJson.metadata) ||
    !Array.isArray(metaJson.metadata.functions)
  ) {
    throw broken("expected { metadata: { functions: [...] }, associate: [...] }");
  }
  if (!Array.isArray(metaJson.associate)) throw broken("no associate list");
  const associations = new Map<string, string>();
  for (const entry of metaJson.associate) {
    if (
      !isRecord(entry) ||
      typeof entry.id !== "string" ||
      typeof entry.functionName !== "string"
    ) {
      throw broken("associate entries need an id and a functionName");
    }
    associations.set(entry.id, entry.functionName);
  }
  const byName = new Map<string, RegisteredFunction>();
  metaJson.metadata.functions.forEach((value, index) => {
    const meta = readFunction(value, index);
    const functionName = associations.get(meta.id);
    if (functionName === undefined) throw broken(`no implementation associated with ${meta.id}`);
    const implementation = exports[functionName];
    if (typeof implementation !== "function") {
      throw broken(
        `${meta.id} is associated with '${functionName}', which the functions module does not export`
      );
    }
    byName.set(meta.name.toUpperCase(), {
      meta,
      functionName,
      implementation: implementation as Implementation,
    });
  });
  const all = [...byName.values()];
  return {
    lookup: (name) => byName.get(name.toUpperCase()),
    list: () => all,
  };
}

/** How Excel's formula autocomplete shows a function: CRYPTO.METRIC(project, metric, [start]). */
export function signature(meta: FunctionMeta): string {
  const params = meta.parameters.map((p) => (p.optional ? `[${p.name}]` : p.name));
  return `${NAMESPACE}.${meta.name}(${params.join(", ")})`;
}
