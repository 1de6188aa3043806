/** The commit habits the commit-msg hook enforces (.githooks/commit-msg.cjs), one rule at a time. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { MAX_SUBJECT, problems } = require("../../.githooks/commit-msg.cjs") as {
  MAX_SUBJECT: number;
  problems: (message: string) => string[];
};

const BODY = "\n\nWhat changed and why, with the figures.\n";

describe("the commit-msg rules", () => {
  it("accept one change named in a short subject, a blank line and a body", () => {
    expect(problems(`Tests: share one Chromium per jest worker${BODY}`)).toEqual([]);
  });

  it("count characters, not bytes, against the 72-character subject", () => {
    expect(MAX_SUBJECT).toBe(72);
    expect(problems(`${"é".repeat(72)}${BODY}`)).toEqual([]);
    expect(problems(`${"x".repeat(73)}${BODY}`)).toEqual([
      "The subject is 73 characters; keep it to 72 and put the details in the body.",
    ]);
  });

  it('refuse several changes joined by "; " in one subject', () => {
    expect(problems(`Build: one webpack run; tests: two workers${BODY}`)).toEqual([
      expect.stringMatching(/joins changes with "; "/),
    ]);
    // A semicolon without the space is not a list of changes (code in a subject).
    expect(problems(`Client: keep for(;;) out of the pump${BODY}`)).toEqual([]);
  });

  it("ask for a body, below a blank line", () => {
    expect(problems("Tests: two workers\n")).toEqual([expect.stringMatching(/^Add a body/)]);
    expect(problems("Tests: two workers\n\n\n")).toEqual([expect.stringMatching(/^Add a body/)]);
    expect(problems("Tests: two workers\nno blank line\n")).toEqual([
      expect.stringMatching(/^Leave the second line blank/),
    ]);
  });

  it("report every problem of one message at once", () => {
    expect(problems(`${"a; b ".repeat(20)}\n`)).toHaveLength(3);
  });

  it("read the message as git stores it: comments and the diff below the scissors dropped", () => {
    const edited = [
      "",
      "Tests: two workers",
      "# Please enter the commit message for your changes.",
      "",
      "Why: the machine has two cores.",
      "# ------------------------ >8 ------------------------",
      "diff --git a/x b/x; with a very long line that would be a subject of more than 72 characters",
    ].join("\n");
    expect(problems(edited)).toEqual([]);
    expect(problems("# only comments\n")).toEqual([]);
  });

  it("leave merges, reverts and fixup commits as git writes them", () => {
    for (const subject of [
      "Merge branch 'issue-34' into main; a long generated subject, longer than seventy-two characters",
      'Revert "Tests: two workers"',
      "fixup! Tests: two workers",
      "squash! Tests: two workers",
      "amend! Tests: two workers",
    ])
      expect(problems(`${subject}\n`)).toEqual([]);
  });
});
