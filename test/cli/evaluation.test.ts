/**
 * The CLI's evaluation in chunks (src/cli/evaluation.ts): a run that fits one chunk is one recalculation,
 * in input order, as Excel does; a larger run is several, grouped by what one request serves, each formula
 * made when its chunk comes and given up after it, every result still in its place, every TODAY() the same.
 */
import { installCliHost } from "../../src/cli/host";
import { evaluateFormulas, planChunks, planOf, type Planned } from "../../src/cli/evaluation";
import { bindFormula, type BoundFormula } from "../../src/sheet/bind";
import type { Grid } from "../../src/sheet/cells";
import { parseFormula } from "../../src/sheet/formula";
import { createRegistry } from "../../src/sheet/registry";
import * as fakeFunctions from "../fixtures/cli/functions";
import { BASE, fixtureMeta, resetFixtureLog, runCli } from "./harness";
import { mkdtempSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";

installCliHost(globalThis);
const registry = createRegistry(fixtureMeta, fakeFunctions);
beforeEach(resetFixtureLog);

function bind(texts: readonly string[]): BoundFormula[] {
  return texts.map((t, i) => bindFormula(parseFormula(t), registry, i + 1));
}

const plan = (key: string, cells = 1): Planned => ({ key, cells });

describe("chunks", () => {
  it("are one, in input order, when everything fits", () => {
    expect(planChunks([plan("b"), plan("a"), plan("b")], 3)).toEqual([[0, 1, 2]]);
  });

  it("group lines of one key together past the limit, each chunk within it, a larger formula alone", () => {
    const plans = [plan("b"), plan("a"), plan("b"), plan("c", 5), plan("a"), plan("b")];
    const chunks = planChunks(plans, 3);
    expect(chunks).toEqual([[1, 4, 0], [2, 5], [3]]);
    for (const chunk of chunks.slice(0, 2))
      expect(chunk.reduce((n, i) => n + plans[i].cells, 0)).toBeLessThanOrEqual(3);
    expect(chunks.flat().sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("plan a formula by its function, second and first arguments, and the calls a lifted array makes", () => {
    const [a, b, c] = bind([
      'ECHO("aave","fees","2024-01-01")',
      'ECHO("uniswap","fees")',
      "ECHO({1,2,3;4,5,6})",
    ]);
    expect(planOf(a).key.split("\u0000")).toEqual([
      "ECHO",
      '{"kind":"string","value":"fees"}',
      '{"kind":"string","value":"aave"}',
    ]);
    // The same key is the same string (one per key for the whole run).
    expect(planOf(a).key).toBe(planOf(bind(['ECHO("aave","fees","2025-01-01")'])[0]).key);
    expect(planOf(b).cells).toBe(1);
    expect(planOf(c).cells).toBe(6);
  });
});

describe("evaluating in chunks", () => {
  it("gives every result at its place, binds each formula only when its chunk comes, and one moment for TODAY()", async () => {
    const texts = Array.from({ length: 25 }, (_, i) =>
      i % 5 === 4 ? "ECHO(TODAY())" : `DOUBLE(${i})`
    );
    const formulas = bind(texts);
    const grids: Grid[] = [];
    const bound: number[] = [];
    let boundAtFirstResult = -1;
    let moments = 0;
    const outcome = await evaluateFormulas(
      formulas.map(planOf),
      (i) => {
        bound.push(i);
        return formulas[i];
      },
      {
        chunkCells: 4,
        onGrid: (i, grid) => {
          if (boundAtFirstResult < 0) boundAtFirstResult = bound.length;
          grids[i] = grid;
        },
        clock: () => {
          moments++;
          return { now: Date.UTC(2024, 4, 17, 9), utcOffsetMinutes: 0 };
        },
      }
    );
    expect(outcome).toEqual({ stale: new Map(), chunks: 7 });
    expect(moments).toBe(1);
    texts.forEach((text, i) => {
      const cell = grids[i][0][0];
      if (text.startsWith("DOUBLE")) expect(cell).toEqual({ kind: "number", value: 2 * i });
      else expect(cell).toEqual({ kind: "number", value: 45429 });
    });
    expect([...bound].sort((x, y) => x - y)).toEqual(texts.map((_, i) => i));
    // Made when their chunk came: only the first chunk's were bound when its results came in.
    expect(boundAtFirstResult).toBe(4);
  });

  it("stops at once when interrupted, cancelling the chunk under way", async () => {
    const formulas = bind(Array.from({ length: 6 }, (_, i) => `HANG("h${i}")`));
    const controller = new AbortController();
    const running = evaluateFormulas(formulas.map(planOf), (i) => formulas[i], {
      chunkCells: 2,
      signal: controller.signal,
      onGrid: () => undefined,
    });
    await new Promise((r) => setTimeout(r, 20));
    controller.abort("SIGTERM");
    await expect(running).resolves.toEqual({ interrupted: true });
    // The first chunk's two calls heard of it; the others were never made.
    expect(fakeFunctions.cancelled.sort()).toEqual(["h0", "h1"]);
  });

  it("collects, by formula, the cells the runtime says were answered with kept values", async () => {
    const formulas = bind(["DOUBLE(1)", "DOUBLE(2)", "DOUBLE(3)"]);
    const said = new Map([["Sheet1!A2", { fetchedAt: 1, reason: "service error (HTTP 503)" }]]);
    let takes = 0;
    const outcome = await evaluateFormulas(formulas.map(planOf), (i) => formulas[i], {
      onGrid: () => undefined,
      takeStale: () => {
        takes++;
        // Before the first chunk (anything older is not this run's), then after it.
        return takes === 1 ? new Map([["Sheet1!A1", { fetchedAt: 0, reason: "old" }]]) : said;
      },
    });
    expect(outcome).toEqual({ stale: new Map([[1, said.get("Sheet1!A2")]]), chunks: 1 });
  });
});

describe("a run larger than a chunk", () => {
  it("prints 12,000 results in input order, a refused line at its place", async () => {
    const lines = Array.from({ length: 12_000 }, (_, i) =>
      i === 7_000 ? "DOUBLE(" : `DOUBLE(${i % 97})`
    );
    const path = join(mkdtempSync(join(tmpdir(), "cm-chunks-")), "model.txt");
    writeFileSync(path, lines.join("\n"));
    const outcome = await runCli(["eval", ...BASE, "--format", "json", "--file", path]);
    expect(outcome.code).toBe(2);
    const results = JSON.parse(outcome.stdout) as unknown[][][];
    expect(results).toHaveLength(12_000);
    results.forEach((grid, i) => {
      if (i === 7_000) expect(grid[0][0]).toMatchObject({ error: "#USAGE" });
      else expect(grid).toEqual([[2 * (i % 97)]]);
    });
  });
});
