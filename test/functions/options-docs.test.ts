/**
 * The options as the documents state them, held to the one source the functions parse them by: the registry
 * (which function takes which key) and options.ts (the values of each choice). REFERENCE.md's option table
 * has a row per key, its values (the default marked), the functions it applies to and its meaning (starting
 * with the table's help line); the functions' JSDoc help gives examples each function takes; the README names
 * every key; the CLI's help and README name every flag. A key, value, function or flag added in code and not in the documents fails here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FLAGS, HELP } from "../../src/cli/flags";
import { OPTION_TABLE } from "../../src/functions/option-table";
import { OPTION_CHOICES, parseOptions, type OptionKey } from "../../src/functions/options";
import { acceptedOptions } from "../../src/functions/function-options";
import { FUNCTION_NAMES } from "../../src/functions/registry";

const root = join(__dirname, "..", "..");
const read = (path: string) => readFileSync(join(root, path), "utf8");

/** Every key some function takes, and for each the functions that take it (the registry's word). */
function takers(): Map<OptionKey, string[]> {
  const out = new Map<OptionKey, string[]>();
  for (const name of FUNCTION_NAMES)
    for (const key of acceptedOptions(name)) out.set(key, [...(out.get(key) ?? []), name]);
  return out;
}

/** REFERENCE.md's option table: key -> its values cell and its "applies to" cell. */
function referenceRows(): Map<string, { values: string; appliesTo: string; meaning: string }> {
  const rows = new Map<string, { values: string; appliesTo: string; meaning: string }>();
  for (const line of read("src/functions/REFERENCE.md").split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    const key = /^`([a-z]+)`$/.exec(cells[1] ?? "")?.[1];
    if (key && cells.length >= 5)
      rows.set(key, { values: cells[2], appliesTo: cells[3], meaning: cells[4] });
  }
  return rows;
}

/** Each function's JSDoc help for its options argument (functions.ts), by function name. */
function optionsHelp(): Map<string, string> {
  const help = new Map<string, string>();
  const source = read("src/functions/functions.ts");
  for (const block of source.matchAll(/\/\*\*([\s\S]*?)\*\//g)) {
    const name = /@customfunction (\w+)/.exec(block[1])?.[1];
    const line = /@param \[options\] (.*)/.exec(block[1])?.[1];
    if (name && line) help.set(name, line);
  }
  return help;
}

/**
 * The functions an "applies to" cell names: each function name written as a word, outside code spans, and
 * not as the subject of a note ("COMPS: `metric:window`" says COMPS takes it another way, not as an option).
 */
function namedFunctions(cell: string): string[] {
  const prose = cell.replace(/`[^`]*`/g, " ");
  return FUNCTION_NAMES.filter((name) => new RegExp(`\\b${name}\\b(?!\\s*:)`).test(prose)).sort();
}

describe("the option table of the function reference", () => {
  const rows = referenceRows();
  const byKey = takers();

  it("has a row for every key a function takes, and none for a key no function takes", () => {
    expect([...rows.keys()].sort()).toEqual([...byKey.keys()].sort());
  });

  it.each([...takers().entries()].map(([key, names]) => [key, names] as const))(
    "names exactly the functions that take %s",
    (key, names) => {
      expect(namedFunctions(rows.get(key)?.appliesTo ?? "")).toEqual([...names].sort());
    }
  );

  it.each(Object.entries(OPTION_CHOICES).map(([key, values]) => [key, values] as const))(
    "lists every value of %s the functions take",
    (key, values) => {
      const cell = rows.get(key)?.values ?? "";
      for (const value of values ?? [])
        // The window presets are examples of <N>d and <N>m: those two forms stand for 30d and 90d.
        if (!(key === "window" && /^\d+d$/.test(value))) expect(cell).toContain(`\`${value}\``);
    }
  );

  it.each(Object.keys(OPTION_TABLE) as OptionKey[])(
    "marks the default of %s as the option table has it, and only that value",
    (key) => {
      const cell = rows.get(key)?.values ?? "";
      const marked = [...cell.matchAll(/`([^`]+)` \(default\)/g)].map((m) => m[1]);
      const byDefault: unknown = OPTION_TABLE[key].default;
      // The choice whose reading is the default (a flag's value as written, headers' number as text); a list's
      // default is none (no filter) and marks nothing.
      const expected = (OPTION_CHOICES[key] ?? []).filter(
        (text) => parseOptions(`${key}=${text}`, "F", [key])[key] === byDefault
      );
      expect(marked).toEqual(expected);
    }
  );

  it.each(Object.keys(OPTION_TABLE) as OptionKey[])(
    "gives %s a meaning that starts with the option table's help line",
    (key) => {
      expect(rows.get(key)?.meaning.startsWith(OPTION_TABLE[key].help)).toBe(true);
    }
  );

  it("reads a note about another way in as no function taking the option", () => {
    expect(namedFunctions("VALUE, ASOF (COMPS: `metric:window`)")).toEqual(["ASOF", "VALUE"]);
    expect(namedFunctions("METRIC (one project), PRODUCT_METRIC (`chain`)")).toEqual([
      "METRIC",
      "PRODUCT_METRIC",
    ]);
  });
});

describe("the functions' JSDoc help (functions.json)", () => {
  const help = optionsHelp();

  it("has options help for every function that takes options", () => {
    const taking = FUNCTION_NAMES.filter((name) => acceptedOptions(name).length > 0);
    expect([...help.keys()].sort()).toEqual([...taking].sort());
  });

  it.each([...optionsHelp().entries()])(
    "gives %s examples it takes, each parsing as written",
    (name, line) => {
      const examples = [...line.matchAll(/"([^"]*=[^"]*)"/g)].map((m) => m[1]);
      expect(examples.length).toBeGreaterThan(0);
      for (const example of examples)
        expect(() => parseOptions(example, name, acceptedOptions(name))).not.toThrow();
    }
  );
});

describe("the README", () => {
  it("names every option key", () => {
    const readme = read("README.md");
    for (const key of takers().keys()) expect(readme).toContain(`\`${key}\``);
  });
});

describe("the command line's documents", () => {
  const flags = Object.keys(FLAGS);

  it("name every flag in the help", () => {
    for (const flag of flags) expect(HELP).toContain(`--${flag}`);
  });

  it("name every flag in the CLI README", () => {
    const readme = read("src/cli/README.md");
    // --api-key is taken only to warn that a key on the command line is visible to others.
    for (const flag of flags.filter((f) => f !== "api-key")) expect(readme).toContain(`--${flag}`);
  });
});
