// The project's commit habits, checked by git's commit-msg hook (.githooks/commit-msg): one change per commit,
// a subject of at most 72 characters that names it, a blank line, then a body with the details (what changed,
// why, the figures). `node .githooks/commit-msg.cjs FILE` prints what is wrong with the message in FILE and exits
// 1; `git commit --no-verify` skips it. Merges, reverts and fixup!/squash!/amend! commits (git writes or
// rewrites those) are left alone.
const { readFileSync } = require("node:fs");

/** The longest subject: what `git log --oneline` and most tools show without cutting it. */
const MAX_SUBJECT = 72;

const SCISSORS = /^# -+ >8 -+$/m;
const GENERATED = /^(Merge |Revert "|fixup! |squash! |amend! )/;

/** The message as git will store it: comments and everything below the scissors line (commit -v) dropped. */
function cleaned(message) {
  const cut = SCISSORS.exec(message);
  const text = cut ? message.slice(0, cut.index) : message;
  const lines = text.split("\n").filter((line) => !line.startsWith("#"));
  while (lines.length > 0 && lines[lines.length - 1].trim() === "") lines.pop();
  while (lines.length > 0 && lines[0].trim() === "") lines.shift();
  return lines;
}

/** What is wrong with a commit message, one sentence each; none when it follows the habits. */
function problems(message) {
  const lines = cleaned(message);
  if (lines.length === 0) return []; // git refuses an empty message itself
  const subject = lines[0];
  if (GENERATED.test(subject)) return [];
  const found = [];
  const length = Array.from(subject).length;
  if (length > MAX_SUBJECT)
    found.push(
      `The subject is ${length} characters; keep it to ${MAX_SUBJECT} and put the details in the body.`
    );
  if (subject.includes("; "))
    found.push(
      'The subject joins changes with "; ": make one commit per change, or name the one change and ' +
        "list its parts in the body."
    );
  if (lines.length > 1 && lines[1].trim() !== "")
    found.push("Leave the second line blank: the subject is one line, the body comes after it.");
  if (lines.slice(1).every((line) => line.trim() === ""))
    found.push(
      "Add a body below a blank line: what changed and why, and the figures or commands that show it."
    );
  return found;
}

module.exports = { MAX_SUBJECT, problems };

if (require.main === module) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write("usage: node .githooks/commit-msg.cjs COMMIT_MESSAGE_FILE\n");
    process.exit(2);
  }
  const found = problems(readFileSync(file, "utf8"));
  if (found.length > 0) {
    process.stderr.write(
      `commit-msg: the commit was not made.\n${found.map((p) => `  - ${p}\n`).join("")}` +
        `Your message is kept in ${file} (git commit -e -F ${file} to edit it again).\n`
    );
    process.exit(1);
  }
}
