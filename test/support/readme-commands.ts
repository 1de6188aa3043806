/**
 * The shell commands of a README code block, read as a POSIX shell reads the little they use, for the test
 * that runs the command-line evaluator's examples as a user types them: lines continued with a trailing
 * backslash, words in single quotes (taken literally), double quotes or bare, a `#` comment after a space,
 * `export NAME=value …`, and a trailing `> file` redirect. Anything else (pipes, `$`, `;`, `&&` outside the
 * install line) is refused by name so that the block stays something the test can run.
 */

type ShellStep =
  | { kind: "export"; vars: Record<string, string>; line: number }
  | { kind: "run"; words: string[]; redirect?: string; line: number };

/** The words of one logical command line; throws naming what it cannot read. */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === " " || c === "\t") {
      if (word !== undefined) words.push(word);
      word = undefined;
      i += 1;
    } else if (c === "#" && word === undefined) {
      break;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unclosed ' in: ${text}`);
      word = (word ?? "") + text.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      const end = text.indexOf('"', i + 1);
      if (end < 0) throw new Error(`unclosed " in: ${text}`);
      const inside = text.slice(i + 1, end);
      if (/[$`\\]/.test(inside)) throw new Error(`expansion inside "…" is not supported: ${text}`);
      word = (word ?? "") + inside;
      i = end + 1;
    } else if ("|;&$`<(){}\\".includes(c)) {
      throw new Error(`shell syntax '${c}' is not supported: ${text}`);
    } else {
      word = (word ?? "") + c;
      i += 1;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** The steps of a sh block: the install line and the commands a test starts itself are left to the caller. */
export function shellSteps(block: string): ShellStep[] {
  const steps: ShellStep[] = [];
  const lines = block.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1;
    let text = lines[i];
    while (text.endsWith("\\") && i + 1 < lines.length) text = text.slice(0, -1) + lines[++i];
    if (text.trim() === "") continue;
    const words = shellWords(text.replace(/ && /g, " \u0000 "));
    if (words.includes("\u0000")) {
      // Only the install line chains commands: each part becomes its own step.
      let part: string[] = [];
      for (const w of [...words, "\u0000"]) {
        if (w !== "\u0000") part.push(w);
        else if (part.length > 0) {
          steps.push({ kind: "run", words: part, line });
          part = [];
        }
      }
      continue;
    }
    if (words[0] === "export") {
      const vars: Record<string, string> = {};
      for (const assignment of words.slice(1)) {
        const eq = assignment.indexOf("=");
        if (eq <= 0) throw new Error(`export without NAME=value: ${text}`);
        vars[assignment.slice(0, eq)] = assignment.slice(eq + 1);
      }
      steps.push({ kind: "export", vars, line });
      continue;
    }
    const gt = words.indexOf(">");
    if (gt >= 0) {
      if (gt !== words.length - 2)
        throw new Error(`only a trailing '> file' is supported: ${text}`);
      steps.push({ kind: "run", words: words.slice(0, gt), redirect: words[gt + 1], line });
    } else {
      steps.push({ kind: "run", words, line });
    }
  }
  return steps;
}
