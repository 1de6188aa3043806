/**
 * A CRYPTO call inside another formula, FIELDVALUE, and dot access on a card in a sheet with cells: the
 * evaluation the CLI and the preview page share, through the real functions, against the simulator over
 * loopback HTTP.
 */
import { resolve } from "path";
import { installCliHost } from "../../src/cli/host";
import { errorCell, type Cell, type Grid } from "../../src/sheet/cells";
import type { ReferenceTarget } from "../../src/sheet/nested";
import { evaluateFormula, type Evaluation } from "../../src/sheet/evaluate";
import { pageRegistry } from "../../src/functions/page-registry";
import type { Registry } from "../../src/sheet/registry";
import { configureRuntime, readyRuntime } from "../../src/runtime/runtime";
import { DEMO_API_KEY, startSimulator, type RunningSimulator } from "../../src/simulator";
import { generateFunctionsMeta } from "../../src/tools/gen-functions-meta";

installCliHost();

const NOW = Date.UTC(2026, 10, 20, 12);
let sim: RunningSimulator;
let registry: Registry;

beforeAll(async () => {
  const meta = JSON.parse(
    await generateFunctionsMeta(resolve(__dirname, "../../src/functions/functions.ts"))
  ) as { metadata: unknown };
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

function grid(evaluation: Evaluation): Grid {
  if (evaluation.kind !== "result") throw new Error(`refused: ${evaluation.message}`);
  return evaluation.grid;
}

async function evaluate(formula: string, read?: (address: string) => Cell): Promise<Grid> {
  const options = read
    ? {
        read: (target: ReferenceTarget): Grid =>
          target.kind === "cell"
            ? [[read(target.address)]]
            : [[errorCell("#REF!", "no ranges here")]],
      }
    : {};
  return grid(await evaluateFormula(formula, registry, "Sheet1!B2", options));
}

async function requests(run: () => Promise<unknown>): Promise<number> {
  const runtime = await readyRuntime();
  const before = runtime.diagnostics.usage().requestsTotal;
  await run();
  return runtime.diagnostics.usage().requestsTotal - before;
}

describe("a CRYPTO call nested in another formula", () => {
  it('FIELDVALUE(CRYPTO.PROJECT("aave"),"Symbol") gives AAVE', async () => {
    expect(await evaluate('=FIELDVALUE(CRYPTO.PROJECT("aave"),"Symbol")')).toEqual([
      [{ kind: "string", value: "AAVE" }],
    ]);
  });

  it("a card in METRIC's project argument gives what the project's id gives", async () => {
    const byCard = await evaluate(
      '=CRYPTO.METRIC(CRYPTO.PROJECT("aave"),"revenue","2024-03-01","2024-03-03")'
    );
    const byId = await evaluate('=CRYPTO.METRIC("aave","revenue","2024-03-01","2024-03-03")');
    expect(byCard).toEqual(byId);
    expect(byCard).toHaveLength(4);
    expect(byCard[1][0]).toMatchObject({ kind: "date", value: "2024-03-01" });
    expect(byCard[1][1].kind).toBe("number");
  });

  it("takes a card's field as an argument, next to a date computed by DATE", async () => {
    const [[sum]] = await evaluate(
      '=CRYPTO.VALUE(FIELDVALUE(CRYPTO.PROJECT("aave"),"Id"),"fees",DATE(2024,3,1))'
    );
    const [[direct]] = await evaluate('=CRYPTO.VALUE("aave","fees","2024-03-01")');
    expect(sum).toEqual(direct);
    expect(sum.kind).toBe("number");
  });

  it("passes the nested call's error on as the formula's result", async () => {
    const [[cell]] = await evaluate(
      '=CRYPTO.METRIC(CRYPTO.PROJECT("no-such-project"),"revenue","2024-03-01","2024-03-03")'
    );
    expect(cell).toMatchObject({ kind: "error", code: "#N/A" });
    expect(cell.kind === "error" && cell.message).toMatch(/no-such-project/);
  });

  it("shows #FIELD! for a field the card lacks, or a value that is no card", async () => {
    const [[missing]] = await evaluate('=FIELDVALUE(CRYPTO.PROJECT("aave"),"Colour")');
    expect(missing).toMatchObject({ kind: "error", code: "#FIELD!" });
    expect(missing.kind === "error" && missing.message).toMatch(/no field "Colour".*Symbol/);
    const [[notCard]] = await evaluate('=FIELDVALUE(CRYPTO.VALUE("aave","fees"),"Symbol")');
    expect(notCard).toMatchObject({ kind: "error", code: "#FIELD!" });
  });

  it("refuses a card in an expression, saying to read a field", async () => {
    const [[cell]] = await evaluate('=CRYPTO.VALUE("aave",CRYPTO.PROJECT("aave")&"")');
    expect(cell).toMatchObject({ kind: "error", code: "#VALUE!" });
    expect(cell.kind === "error" && cell.message).toMatch(/card "Aave".*field/);
  });

  it("an unknown nested function is #NAME?, as in Excel", async () => {
    const [[cell]] = await evaluate('=FIELDVALUE(CRYPTO.PROJEKT("aave"),"Symbol")');
    expect(cell).toMatchObject({ kind: "error", code: "#NAME?" });
    expect(cell.kind === "error" && cell.message).toMatch(/did you mean CRYPTO\.PROJECT/);
  });

  it("costs no request when the card and the series are cached", async () => {
    const formula = '=CRYPTO.METRIC(CRYPTO.PROJECT("aave"),"revenue","2024-03-01","2024-03-03")';
    await evaluate(formula);
    expect(await requests(() => evaluate(formula))).toBe(0);
  });
});

describe("dot access in a sheet with cells", () => {
  let card: Cell;
  beforeAll(async () => {
    [[card]] = await evaluate('=CRYPTO.PROJECT("aave")');
    expect(card.kind).toBe("entity");
  });
  const sheet = (address: string): Cell => (address === "A1" ? card : { kind: "empty" });

  it("=A1.Symbol and =A1.[Revenue TTM] read the card's fields", async () => {
    expect(await evaluate("=A1.Symbol", sheet)).toEqual([[{ kind: "string", value: "AAVE" }]]);
    const [[ttm]] = await evaluate("=A1.[Revenue TTM]", sheet);
    const [[viaFieldValue]] = await evaluate('=FIELDVALUE(A1,"Revenue TTM")', sheet);
    expect(ttm).toEqual(viaFieldValue);
    expect(["number", "error"]).toContain(ttm.kind);
  });

  it("reads a nested card's field: =A1.Financials is a card, and a card in A1 goes in METRIC", async () => {
    const [[financials]] = await evaluate("=A1.Financials", sheet);
    expect(financials.kind).toBe("entity");
    const byCell = await evaluate('=CRYPTO.METRIC(A1,"fees","2024-03-01","2024-03-02")', sheet);
    const byId = await evaluate('=CRYPTO.METRIC("aave","fees","2024-03-01","2024-03-02")');
    expect(byCell).toEqual(byId);
  });

  it("is #FIELD! on an empty cell, and #REF! where there are no cells (the command line)", async () => {
    expect((await evaluate("=B7.Symbol", sheet))[0][0]).toMatchObject({
      kind: "error",
      code: "#FIELD!",
    });
    const [[noCells]] = await evaluate("=A1.Symbol");
    expect(noCells).toMatchObject({ kind: "error", code: "#REF!" });
    expect(noCells.kind === "error" && noCells.message).toMatch(
      /no cells.*FIELDVALUE\(CRYPTO\.PROJECT/
    );
  });
});
