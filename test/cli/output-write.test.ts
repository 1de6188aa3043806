import { errorCell, type Cell, type Grid } from "../../src/sheet/cells";
import { formatResults, OUTPUT_FORMATS, type FormattedResult } from "../../src/cli/output";
import { OUTPUT_PIECE_CHARS, writeResults } from "../../src/cli/output";
import { installCliHost } from "../../src/cli/host";

beforeAll(() => installCliHost());

/** A listing as large as a big catalogue's: 20,000 rows of an id, a name with a comma, a number, an error. */
function bigGrid(rows: number): Grid {
  return Array.from({ length: rows }, (_, i): Cell[] => [
    { kind: "string", value: `project-${i}` },
    { kind: "string", value: `Project ${i}, "the" one` },
    { kind: "number", value: i * 1.5 },
    i % 1000 === 0 ? errorCell("#N/A", `no value for project-${i}`) : { kind: "empty" },
  ]);
}

const results: FormattedResult[] = [
  { formula: "=CRYPTO.PROJECTS()", grid: bigGrid(20_000) },
  { formula: '=CRYPTO.VALUE("x","fees")', grid: [[errorCell("#N/A", "unknown project 'x'")]] },
  { formula: "=CRYPTO.PROJECTS()", grid: bigGrid(3) },
];

/** Records what reaches the sink, with a mark each time the writer waits for it to drain. */
function recordingSink() {
  const events: Array<{ text: string } | "drain"> = [];
  return {
    events,
    sink: {
      stdout: (text: string) => void events.push({ text }),
      drain: () => {
        events.push("drain");
        return Promise.resolve();
      },
    },
  };
}

describe("writing results a piece at a time", () => {
  it.each(OUTPUT_FORMATS.map((f) => [f]))(
    "%s: the pieces join to exactly the whole output",
    async (format) => {
      const { events, sink } = recordingSink();
      await writeResults(sink, format, results);
      const text = events.map((e) => (e === "drain" ? "" : e.text)).join("");
      expect(text).toBe(formatResults(format, results));
      expect(text.length).toBeGreaterThan(10 * OUTPUT_PIECE_CHARS);
    }
  );

  it.each(OUTPUT_FORMATS.map((f) => [f]))(
    "%s: waits for the sink to drain after each piece, and no piece is much bigger than 64 KB",
    async (format) => {
      const { events, sink } = recordingSink();
      await writeResults(sink, format, results);
      const pieces = events.filter((e): e is { text: string } => e !== "drain");
      expect(pieces.length).toBeGreaterThan(10);
      // Every piece but the last is followed by a wait: the output is never queued up whole.
      events.forEach((e, i) => {
        if (e !== "drain" && i < events.length - 1) expect(events[i + 1]).toBe("drain");
      });
      for (const { text } of pieces) expect(text.length).toBeLessThan(OUTPUT_PIECE_CHARS + 1_000);
    }
  );

  it("a writer without drain (a test's io) still gets every piece, in order", async () => {
    const texts: string[] = [];
    await writeResults({ stdout: (t) => void texts.push(t) }, "json", results);
    expect(JSON.parse(texts.join(""))).toEqual(JSON.parse(formatResults("json", results)));
  });

  it("json: the same text as JSON.stringify of the whole, with empty results too", () => {
    const cases: FormattedResult[][] = [[], [{ formula: "=X()", grid: [[{ kind: "empty" }]] }]];
    expect(formatResults("json", cases[0])).toBe("[]\n");
    expect(formatResults("json", cases[1])).toBe("[[[null]]]\n");
  });
});
