/**
 * The page's view of the CRYPTO functions (registry from functions.json + the functions module) and the
 * evaluation the preview page and the formula builder run, against the simulator over loopback HTTP.
 */
import { resolve } from "path";
import { installCliHost } from "../../src/cli/host";
import type { Registry } from "../../src/sheet/registry";
import { evaluateCall, evaluateFormula } from "../../src/sheet/evaluate";
import { FUNCTION_EXPORTS, pageRegistry } from "../../src/functions/page-registry";
import { configureRuntime, sharedDiagnostics } from "../../src/runtime/runtime";
import { DEMO_API_KEY, startSimulator, type RunningSimulator } from "../../src/simulator";
import { generateFunctionsMeta } from "../../src/tools/gen-functions-meta";

installCliHost();

const NOW = Date.UTC(2026, 10, 20, 12);
let sim: RunningSimulator;
let registry: Registry;
let associate: { id: string; functionName: string }[];

beforeAll(async () => {
  const meta = JSON.parse(
    await generateFunctionsMeta(resolve(__dirname, "../../src/functions/functions.ts"))
  ) as { metadata: unknown; associate: typeof associate };
  associate = meta.associate;
  registry = pageRegistry(meta.metadata);
  sim = await startSimulator({ port: 0, now: () => NOW, rateLimit: null });
  configureRuntime({
    baseUrl: sim.url,
    apiKey: DEMO_API_KEY,
    now: () => NOW,
    engine: { windowMs: 5 },
  });
}, 60_000);

afterAll(() => sim.close());

test("the page's id → export map is exactly the one the build generates for Excel", () => {
  expect(
    Object.entries(FUNCTION_EXPORTS)
      .map(([id, functionName]) => ({ id, functionName }))
      .sort((a, b) => a.id.localeCompare(b.id))
  ).toEqual([...associate].sort((a, b) => a.id.localeCompare(b.id)));
});

test("a VALUE formula evaluates to one number", async () => {
  const result = await evaluateFormula('=CRYPTO.VALUE("aave","fees","2024-01-01")', registry);
  expect(result).toEqual({
    kind: "result",
    grid: [[{ kind: "number", value: expect.any(Number) }]],
  });
});

test("a METRIC formula spills dates and values", async () => {
  const result = await evaluateFormula(
    '=CRYPTO.METRIC("aave","fees","2024-01-01","2024-01-03")',
    registry
  );
  if (result.kind !== "result") throw new Error(result.message);
  expect(result.grid.map((row) => row[0])).toEqual([
    { kind: "string", value: "Date" },
    { kind: "date", value: "2024-01-01", serial: 45292 },
    { kind: "date", value: "2024-01-02", serial: 45293 },
    { kind: "date", value: "2024-01-03", serial: 45294 },
  ]);
});

test("an unknown project is #N/A with a message naming it; an unknown function is #NAME?", async () => {
  const unknown = await evaluateFormula('=CRYPTO.VALUE("no-such-project","fees")', registry);
  expect(unknown).toEqual({
    kind: "result",
    grid: [[{ kind: "error", code: "#N/A", message: expect.stringContaining("no-such-project") }]],
  });
  const name = await evaluateFormula('=CRYPTO.VALU("aave")', registry);
  expect(name).toEqual({
    kind: "result",
    grid: [
      [
        {
          kind: "error",
          code: "#NAME?",
          message: expect.stringContaining("did you mean CRYPTO.VALUE?"),
        },
      ],
    ],
  });
});

test("formulas Excel would not accept are refused with the reason", async () => {
  expect(await evaluateFormula("=CRYPTO.VALUE(aave)", registry)).toEqual({
    kind: "refused",
    message: expect.stringContaining("text needs double quotes"),
  });
  expect(await evaluateFormula('=CRYPTO.SECTOR("a","b")', registry)).toEqual({
    kind: "refused",
    message: expect.stringContaining("too many arguments"),
  });
});

test("evaluateCall records the call under the address it is given: a grid cell or a label", async () => {
  const call = {
    name: "VALUE",
    args: [
      { kind: "string" as const, value: "nope" },
      { kind: "string" as const, value: "fees" },
    ],
  };
  const result = await evaluateCall(call, registry, "Formula builder");
  expect(result).toMatchObject({ kind: "result", grid: [[{ kind: "error", code: "#N/A" }]] });
  expect(sharedDiagnostics().cell("Formula builder")).toMatchObject({
    functionName: "VALUE",
    error: { code: "#N/A" },
  });
  const lifted = await evaluateCall(
    {
      name: "VALUE",
      args: [
        {
          kind: "array",
          rows: [
            [
              { kind: "string", value: "aave" },
              { kind: "string", value: "uniswap" },
            ],
          ],
        },
        { kind: "string", value: "fees" },
      ],
    },
    registry
  );
  expect(lifted).toMatchObject({
    kind: "result",
    grid: [[{ kind: "number" }, { kind: "number" }]],
  });
  await evaluateFormula('=CRYPTO.VALUE("nope","fees")', registry, "Sheet1!D4");
  expect(sharedDiagnostics().cell("Sheet1!D4")).toMatchObject({ functionName: "VALUE" });
});
