import { readFileSync } from "fs";
import { resolve } from "path";
import { SheetError } from "../../src/sheet/errors";
import { createRegistry, signature } from "../../src/sheet/registry";
import { defaultRegistryPaths, loadRegistry } from "../../src/cli/registry-files";
import { exitCodeOf } from "../../src/cli/errors";
import { generateFunctionsMeta } from "../../src/tools/gen-functions-meta";
import * as fakeFunctions from "../fixtures/cli/functions";

const fixtures = resolve(__dirname, "../fixtures/cli");
const metaPath = resolve(fixtures, "functions.meta.json");
const meta: unknown = JSON.parse(readFileSync(metaPath, "utf8"));

function brokenBuild(make: () => unknown): SheetError {
  try {
    make();
  } catch (error) {
    if (error instanceof SheetError && error.kind === "broken-build") return error;
    throw error;
  }
  throw new Error("expected a broken-build error");
}

describe("function registry", () => {
  it("finds functions by metadata name, case-insensitively, with their exported implementation", () => {
    const registry = createRegistry(meta, fakeFunctions);
    const found = registry.lookup("double");
    expect(found?.meta.id).toBe("DOUBLE");
    expect(found?.functionName).toBe("double");
    expect(found?.implementation).toBe(fakeFunctions.double);
    expect(registry.lookup("Double")).toBe(found);
    expect(registry.lookup("nope")).toBeUndefined();
    expect(registry.list().map((f) => f.meta.name)).toContain("MIXED");
  });

  it("shows a signature as Excel's autocomplete does, optional parameters in brackets", () => {
    expect(signature(createRegistry(meta, fakeFunctions).lookup("ECHO")!.meta)).toBe(
      "CRYPTO.ECHO(value, [second], [third])"
    );
  });

  it("refuses metadata whose associated function the module does not export", () => {
    const error = brokenBuild(() => createRegistry(meta, { ...fakeFunctions, double: undefined }));
    expect(error.message).toBe(
      "functions metadata: DOUBLE is associated with 'double', which the functions module does not export"
    );
    expect(exitCodeOf(error)).toBe(1);
  });

  it("refuses metadata of the wrong shape", () => {
    expect(brokenBuild(() => createRegistry({ functions: [] }, {})).message).toMatch(
      /expected \{ metadata/
    );
    expect(
      brokenBuild(() =>
        createRegistry({ metadata: { functions: [{ id: "X", name: "X" }] }, associate: [] }, {})
      ).message
    ).toBe("functions metadata: no implementation associated with X");
  });

  it("loads metadata and module from disk", () => {
    const registry = loadRegistry({ meta: metaPath, module: resolve(fixtures, "functions") });
    expect(registry.lookup("WHERE")?.meta.options).toEqual({ requiresAddress: true });
  });

  it("says to build when the metadata file is missing", () => {
    const error = brokenBuild(() =>
      loadRegistry({
        meta: resolve(fixtures, "missing.meta.json"),
        module: resolve(fixtures, "functions"),
      })
    );
    expect(error.message).toMatch(/cannot read .*missing\.meta\.json \(run npm run build:node\)/);
  });

  it("looks for the build output beside the compiled CLI", () => {
    expect(defaultRegistryPaths("/app/dist/node/cli")).toEqual({
      meta: "/app/dist/node/functions/functions.meta.json",
      module: "/app/dist/node/functions/functions",
    });
  });

  it("keeps the fixture metadata what the build's generator makes of the fixture functions", async () => {
    const generated: unknown = JSON.parse(
      await generateFunctionsMeta(resolve(fixtures, "functions.ts"))
    );
    expect(generated).toEqual(meta);
  });
});
