/**
 * The host shim previews as Excel does: a recalculation marked as a value preview passes every call an
 * invocation with isInValuePreview true (nested and lifted calls too); any other leaves the flag out, as Excel
 * before CustomFunctionsRuntime 1.5 does.
 */
import { readFileSync } from "fs";
import { resolve } from "path";
import { installCliHost } from "../../src/cli/host";
import { bindFormula } from "../../src/sheet/bind";
import { evaluateFormula } from "../../src/sheet/evaluate";
import { parseFormula } from "../../src/sheet/formula";
import { recalculate } from "../../src/sheet/recalculate";
import { createRegistry } from "../../src/sheet/registry";
import * as fixture from "../fixtures/cli/functions";

installCliHost();

const registry = createRegistry(
  JSON.parse(readFileSync(resolve(__dirname, "../fixtures/cli/functions.meta.json"), "utf8")),
  fixture
);

function invocations(): unknown[] {
  return fixture.callLog.filter((c) => c.fn === "ECHO").map((c) => c.args[3]);
}

beforeEach(() => {
  fixture.callLog.length = 0;
});

async function recalculated(texts: string[], preview?: boolean) {
  const bound = texts.map((t, i) => bindFormula(parseFormula(t), registry, i + 1));
  return recalculate(bound, undefined, preview === undefined ? {} : { preview }).results;
}

describe("a value preview through the host shim", () => {
  it("tells every call it is a preview: plain, nested and lifted", async () => {
    const results = await recalculated(['ECHO("a")', "ECHO(CRYPTO.ECHO(2))", "ECHO({1,2})"], true);
    expect(results).toEqual([
      [[{ kind: "string", value: "a" }]],
      [[{ kind: "number", value: 2 }]],
      [
        [
          { kind: "number", value: 1 },
          { kind: "number", value: 2 },
        ],
      ],
    ]);
    expect(invocations()).toHaveLength(5);
    for (const invocation of invocations())
      expect(invocation).toEqual({ functionName: "ECHO", isInValuePreview: true });
  });

  it("leaves the flag out of an ordinary recalculation, as a runtime without it does", async () => {
    await recalculated(['ECHO("a")', "ECHO(CRYPTO.ECHO(2))"]);
    await recalculated(['ECHO("b")'], false);
    expect(invocations()).toHaveLength(4);
    for (const invocation of invocations()) expect(invocation).toEqual({ functionName: "ECHO" });
  });

  it("previews one formula as the pages evaluate it", async () => {
    const evaluation = await evaluateFormula('ECHO("typed")', registry, "Sheet1!B2", {
      preview: true,
    });
    expect(evaluation).toEqual({ kind: "result", grid: [[{ kind: "string", value: "typed" }]] });
    expect(invocations()).toEqual([{ functionName: "ECHO", isInValuePreview: true }]);
  });
});
