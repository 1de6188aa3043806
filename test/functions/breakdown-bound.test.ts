/**
 * BREAKDOWN of every project is bounded: a catalogue of MAX_ALL projects is broken down, one more is refused
 * (each case its own simulator, of that many projects).
 */
import * as fns from "../../src/functions/functions";
import { MAX_ALL } from "../../src/functions/impl/breakdown";
import { excelError, inv, startHarness } from "./harness";

async function withCatalogue<T>(projects: number, run: () => Promise<T>): Promise<T> {
  const h = await startHarness({ rateLimitPerMinute: 100_000 }, { duplicateRows: 0, projects });
  try {
    return await run();
  } finally {
    await h.close();
  }
}
const everyProject = () =>
  fns.breakdown_("fees", null as never, "2026-11-01", "2026-11-01", null, inv());

describe("BREAKDOWN of every project", () => {
  it(`breaks down a catalogue of ${MAX_ALL} projects`, async () => {
    const rows = (await withCatalogue(MAX_ALL, everyProject)) as unknown[][];
    // The header, and a row for each project with fees that day.
    expect(rows.length).toBeGreaterThan(MAX_ALL / 2);
  });

  it(`asks for a list of projects when the catalogue holds more than ${MAX_ALL}`, async () => {
    expect(await withCatalogue(MAX_ALL + 1, () => excelError(everyProject()))).toEqual({
      code: "#VALUE!",
      message: `BREAKDOWN of every project would ask for ${MAX_ALL + 1} projects, more than ${MAX_ALL}; list the projects (a sector's, for example)`,
    });
  });
});
