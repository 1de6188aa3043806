/**
 * Asking for the API key on a terminal without showing it: the terminal in raw mode, each key read as it
 * is typed, nothing echoed (not even stars: their count tells the key's length). Enter ends the answer,
 * Backspace removes a character, Ctrl-U clears the line, Ctrl-D on an empty line gives none, Ctrl-C gives
 * none and interrupts the run (raw mode turns it into a character rather than SIGINT); escape sequences
 * (arrow keys) are ignored. The terminal is put back as it was, whatever happens.
 */
import type { PromptKey } from "./api-key";

/** What the prompt needs of process.stdin and process.stderr (a TTY each). */
interface PromptInput {
  isTTY?: boolean;
  isRaw?: boolean;
  setRawMode?(raw: boolean): unknown;
  on(event: "data", listener: (chunk: Buffer | string) => void): unknown;
  removeListener(event: "data", listener: (chunk: Buffer | string) => void): unknown;
  resume(): unknown;
  pause(): unknown;
}

interface PromptOutput {
  isTTY?: boolean;
  write(text: string): unknown;
}

/** A prompt on these streams, or undefined when either is not a terminal (a pipe, CI): no one to ask. */
export function terminalPrompt(
  input: PromptInput,
  output: PromptOutput,
  onInterrupt: () => void = () => undefined
): PromptKey | undefined {
  if (!input.isTTY || !output.isTTY || typeof input.setRawMode !== "function") return undefined;
  const setRawMode = input.setRawMode.bind(input);
  return (question) =>
    new Promise((resolve) => {
      const wasRaw = input.isRaw === true;
      let typed = "";
      let escape = false;
      const finish = (answer: string | undefined): void => {
        input.removeListener("data", onData);
        setRawMode(wasRaw);
        input.pause();
        output.write("\n");
        resolve(answer);
      };
      const onData = (chunk: Buffer | string): void => {
        for (const ch of chunk.toString()) {
          if (escape) {
            // CSI sequences end with a letter or ~ (ESC [ A, ESC [ 3 ~).
            if (/[A-Za-z~]/.test(ch)) escape = false;
            continue;
          }
          if (ch === "\r" || ch === "\n") return finish(typed);
          if (ch === "\u0003") {
            finish(undefined);
            return onInterrupt();
          }
          if (ch === "\u0004") {
            if (typed === "") return finish(undefined);
            continue;
          }
          if (ch === "\u007f" || ch === "\b") typed = typed.slice(0, -1);
          else if (ch === "\u0015") typed = "";
          else if (ch === "\u001b") escape = true;
          else if (ch >= " ") typed += ch;
        }
      };
      output.write(`${question}(not shown as you type) `);
      setRawMode(true);
      input.on("data", onData);
      input.resume();
    });
}
