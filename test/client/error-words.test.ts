/**
 * The table of error words (src/client/error-words/, read by rows): a row for every kind of the error hierarchy and, in each
 * row, every audience's column, each saying something for every variant of its kind.
 */
import { CryptometricsError, ERROR_KINDS, type ErrorKind } from "../../src/client";
import { ERROR_WORDS } from "../../src/client/error-words/table";
import { AUDIENCES, type CellHints } from "../../src/client/error-words/words";

const HINTS: CellHints = {
  settings: "set the key in Settings",
  address: "check the address",
  retry: (when) => `refresh ${when}`,
};

/** The variants the columns tell apart: with and without a status, ids, attempts, an operation. */
function variants(kind: ErrorKind): CryptometricsError[] {
  const details = [
    { operation: "getProject" },
    { operation: "getProject", status: 400, ids: ["aave"], attempts: 2, retryAfterMs: 5_000 },
    { operation: "configure" },
    { operation: "createClient", attempts: 0 },
  ];
  return details.map((d) => new CryptometricsError(kind, "getProject(aave): it failed", d));
}

describe("the table of error words", () => {
  it("has one row per error kind, and no row for a kind that does not exist", () => {
    expect(Object.keys(ERROR_WORDS).sort()).toEqual([...ERROR_KINDS].sort());
  });

  it.each([...ERROR_KINDS])(
    "gives %s a column for every audience, each saying something",
    (kind) => {
      const row = ERROR_WORDS[kind];
      expect(Object.keys(row).sort()).toEqual([...AUDIENCES].sort());
      expect(row.label).not.toBe("");
      expect(["#VALUE!", "#N/A"]).toContain(row.cell.excel);
      expect(row.gateway.text).not.toBe("");
      expect(row.gateway.status).toBeGreaterThanOrEqual(400);
      for (const error of variants(kind)) {
        const said = row.cell.says(HINTS, error);
        expect("text" in said ? said.text : `${said.before}x${said.after}`).not.toBe("");
        const pane = row.taskpane(error, { could: "Could not load", reason: "It failed." });
        expect(pane.message).toMatch(/^Could not load: \S/);
        const test = row.connection(error, " at https://service.test");
        expect(test.message).not.toBe("");
        expect(test.verdict).not.toBe("valid");
      }
    }
  );

  it("never says the service could not be reached when it was never asked (a wait for the budget)", () => {
    const waited = new CryptometricsError("timeout", "listMetrics(): waited 3 s for a turn", {
      operation: "listMetrics",
      attempts: 0,
    });
    const words = ERROR_WORDS.timeout;
    const cell = words.cell.says(HINTS, waited);
    expect(JSON.stringify(cell)).not.toMatch(/could not be reached/);
    const pane = words.taskpane(waited, { could: "Could not load", reason: "" }).message;
    expect(pane).toMatch(/budget/);
    expect(pane).not.toMatch(/did not answer/);
    const test = words.connection(waited, " at https://service.test");
    expect(test.verdict).toBe("service-problem");
    expect(test.message).not.toMatch(/Unreachable|no answer/);
  });
});
