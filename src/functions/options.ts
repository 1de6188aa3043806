/**
 * The options argument: one text of `key=value` pairs separated by `;`, keys and values case-insensitive,
 * as finance terminals take them (e.g. "order=desc; period=month"). Unknown keys, values outside their set
 * and options that do not apply to the function are refused by name with what is allowed.
 */
import { isMissing, requiredText } from "./coerce";
import {
  DEFAULT_OPTIONS,
  OPTION_KEYS,
  OPTION_TABLE,
  optionChoices,
  readOption,
  type OptionKey,
  type Options,
} from "./option-table";
import { invalid } from "./result";

export {
  DEFAULT_OPTIONS,
  LIST_OPTIONS,
  OPTION_CHOICES,
  optionChoices,
  type OptionKey,
  type Options,
} from "./option-table";

/** A key as written, if it is one of the table's (keys are case-insensitive). */
function keyOf(written: string): OptionKey | undefined {
  const key = written.toLowerCase();
  return OPTION_KEYS.find((k) => k === key);
}

export function parseOptions(
  value: unknown,
  functionName: string,
  allowed: readonly OptionKey[]
): Readonly<Options> {
  // Most cells pass no options: they share the (frozen) defaults.
  if (Array.isArray(value) ? value.flat().every(isMissing) : isMissing(value))
    return DEFAULT_OPTIONS;
  // Fresh lists: one cell's ids never land in another's options (LIST_OPTIONS and fills).
  const options: Options = {
    ...DEFAULT_OPTIONS,
    chains: [],
    products: [],
    sectors: [],
    fills: [],
  };
  const text = Array.isArray(value)
    ? value
        .flat()
        .filter((v) => !isMissing(v))
        .map((v) => requiredText(v, "options"))
        .join(";")
    : requiredText(value, "options");
  const seen = new Set<string>();
  for (const raw of text.split(";")) {
    const pair = raw.trim();
    if (!pair) continue;
    const eq = pair.indexOf("=");
    if (eq <= 0)
      throw invalid(`option "${pair}" is not key=value (e.g. "order=desc; period=month")`);
    commaSlip(pair.slice(eq + 1), text);
    const written = pair.slice(0, eq).trim();
    const key = keyOf(written);
    const val = pair.slice(eq + 1).trim();
    if (key === undefined) {
      throw invalid(
        `unknown option "${written}"; ${functionName} takes ${allowed.join(", ") || "no options"}`
      );
    }
    if (!allowed.includes(key)) {
      throw invalid(
        `option "${key}" does not apply to ${functionName}; it takes ${allowed.join(", ") || "no options"}`
      );
    }
    if (seen.has(key)) throw invalid(`option "${key}" is given twice`);
    seen.add(key);
    if (key === "fill" && OPTION_TABLE.fill.listFor?.includes(functionName)) {
      const [first, ...rest] = fillList(val.toLowerCase(), functionName);
      options.fills = [first, ...rest];
      options.fill = first;
      continue;
    }
    readOption(options, key, val, functionName);
  }
  return options;
}

/**
 * A comma inside a value where options were meant to be apart ("period=month, agg=max"): options are
 * separated by ";", so say so, with the text as it should be written.
 */
function commaSlip(value: string, text: string): void {
  if (!/,\s*[a-z_]+\s*=/i.test(value)) return;
  const fixed = text
    .split(";")
    .map((part) => part.replace(/,\s*(?=[a-z_]+\s*=)/gi, "; "))
    .join(";");
  throw invalid(`options are separated by ";", not ","; write "${fixed.trim()}"`);
}

/** COMPS's fills: a comma list of the fill choices (the `fill` entry's listFor), each checked. */
function fillList(v: string, functionName: string): Options["fills"] {
  const entry = OPTION_TABLE.fill;
  const choices = optionChoices(functionName, "fill") ?? [];
  const items = v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = items.find((item) => !choices.includes(item));
  if (bad !== undefined)
    throw invalid(
      `option fill="${bad}" is not allowed; use fill=${choices.join("|")}, or a comma list of them`
    );
  if (items.length === 0) throw invalid(`option "fill" needs a value: ${choices.join("|")}`);
  if (new Set(items).size !== items.length) throw invalid(`option "fill" lists a value twice`);
  return items.flatMap((item) => entry.values.filter((value) => value === item));
}
