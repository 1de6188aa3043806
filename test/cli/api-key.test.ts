/**
 * The key never has to go on a command line (where `ps` shows it to every user and npm's debug log keeps
 * it): --api-key-file, $CRYPTOMETRICS_API_KEY_FILE, $CRYPTOMETRICS_API_KEY, or a prompt that does not echo
 * when a terminal is attached. --api-key still works and says who can see it.
 */
import { chmodSync, mkdtempSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { EventEmitter } from "events";
import { ARGV_WARNING, MAX_KEY_FILE_BYTES, readKeyFile } from "../../src/cli/api-key";
import { terminalPrompt } from "../../src/cli/prompt";
import { BASE, resetFixtureLog, runCli } from "./harness";

beforeEach(resetFixtureLog);

const KEY = "cm_live_7Qx9Tb2LmZ4pRv8Wn3Ks6Hd1Yf5Gc0Je7Ua2Oi9Pl4Xt6Bq8Nw3Mr5Vz";

function keyFile(content: string, mode = 0o600): string {
  const path = join(mkdtempSync(join(tmpdir(), "cm-key-")), "key");
  writeFileSync(path, content);
  chmodSync(path, mode);
  return path;
}

describe("where the key comes from", () => {
  it("reads --api-key-file, ignoring surrounding whitespace and the final line break, silently", async () => {
    const outcome = await runCli([
      "eval",
      ...BASE,
      "--api-key-file",
      keyFile(`  ${KEY}\n`),
      "DOUBLE(1)",
    ]);
    expect(outcome).toMatchObject({ code: 0, stderr: "" });
    expect(outcome.configured).toEqual([{ baseUrl: "https://metrics.example", apiKey: KEY }]);
  });

  it("reads $CRYPTOMETRICS_API_KEY_FILE, then $CRYPTOMETRICS_API_KEY; a flag wins over both", async () => {
    const fromFile = await runCli(["eval", ...BASE, "DOUBLE(1)"], {
      env: { CRYPTOMETRICS_API_KEY_FILE: keyFile(KEY), CRYPTOMETRICS_API_KEY: "env-key" },
    });
    expect(fromFile.configured[0].apiKey).toBe(KEY);
    const fromEnv = await runCli(["eval", ...BASE, "DOUBLE(1)"], {
      env: { CRYPTOMETRICS_API_KEY: "env-key" },
    });
    expect(fromEnv).toMatchObject({ stderr: "", configured: [{ apiKey: "env-key" }] });
    const flag = await runCli(
      ["eval", ...BASE, "--api-key-file", keyFile("flag-key"), "DOUBLE(1)"],
      {
        env: { CRYPTOMETRICS_API_KEY_FILE: keyFile(KEY), CRYPTOMETRICS_API_KEY: "env-key" },
      }
    );
    expect(flag.configured[0].apiKey).toBe("flag-key");
  });

  it("still takes --api-key, warning that other users and npm's logs can see it (never printing it)", async () => {
    const outcome = await runCli(["eval", ...BASE, "--api-key", KEY, "DOUBLE(1)"]);
    expect(outcome.code).toBe(0);
    expect(outcome.configured[0].apiKey).toBe(KEY);
    expect(outcome.stderr).toBe(`cryptometrics: ${ARGV_WARNING}\n`);
    expect(ARGV_WARNING).toMatch(/other users of this computer \(ps\) and npm's debug logs/);
    expect(ARGV_WARNING).toMatch(
      /--api-key-file FILE or the CRYPTOMETRICS_API_KEY environment variable/
    );
    expect(outcome.stdout + outcome.stderr).not.toContain(KEY);
  });

  it("refuses both flags at once, before anything runs", async () => {
    const outcome = await runCli([
      "eval",
      ...BASE,
      "--api-key",
      "a-key",
      "--api-key-file",
      keyFile(KEY),
      "DOUBLE(1)",
    ]);
    expect(outcome).toMatchObject({
      code: 2,
      stdout: "",
      stderr: "cryptometrics: give the key once: --api-key-file or --api-key, not both\n",
      configured: [],
    });
  });

  it("refuses a key file that is missing, empty, more than one word or larger than 4 KB, in words", async () => {
    const cases: Array<[string, RegExp]> = [
      [
        join(tmpdir(), "cm-no-such-key-file"),
        /cannot read the key file .*cm-no-such-key-file: no such file$/,
      ],
      [keyFile("\n  \n"), /the key file .* is empty$/],
      [keyFile(`${KEY} second\n`), /holds more than one word: it should hold the key alone$/],
      [
        keyFile("k".repeat(MAX_KEY_FILE_BYTES + 1)),
        /is larger than 4 KB: it should hold the key alone$/,
      ],
      [tmpdir(), /cannot read the key file .*: is a directory$/],
    ];
    for (const [path, message] of cases) {
      const outcome = await runCli(["eval", ...BASE, "--api-key-file", path, "DOUBLE(1)"]);
      expect([path, outcome.code, outcome.configured]).toEqual([path, 2, []]);
      expect(outcome.stderr.trimEnd()).toMatch(message);
    }
  });

  it("warns when other users may read the key file, and uses it", async () => {
    const path = keyFile(KEY, 0o644);
    const outcome = await runCli(["eval", ...BASE, "--api-key-file", path, "DOUBLE(1)"]);
    expect(outcome.code).toBe(0);
    expect(outcome.configured[0].apiKey).toBe(KEY);
    expect(outcome.stderr).toBe(
      `cryptometrics: warning: the key file ${path} can be read by other users of this computer (mode 0644); chmod 600 ${path}\n`
    );
  });

  it("reads no more of a key file than 4 KB and one byte, however large it is", () => {
    const big = keyFile("k".repeat(10_000_000));
    expect(readKeyFile(big).text).toHaveLength(MAX_KEY_FILE_BYTES + 1);
    expect(readKeyFile(big).mode).toBe(0o600);
  });
});

/** A terminal's two streams: what is written, and keys to type. */
function fakeTerminal() {
  const input = Object.assign(new EventEmitter(), {
    isTTY: true,
    isRaw: false,
    modes: [] as boolean[],
    setRawMode(raw: boolean) {
      this.isRaw = raw;
      this.modes.push(raw);
    },
    resume: () => undefined,
    pause: () => undefined,
  });
  const written: string[] = [];
  const output = { isTTY: true, write: (text: string) => void written.push(text) };
  const type = (...keys: string[]) => {
    for (const k of keys) input.emit("data", Buffer.from(k));
  };
  return { input, output, written, type };
}

describe("the prompt, when a terminal is attached", () => {
  it("asks for the key without echoing it, and runs with what was typed", async () => {
    const terminal = fakeTerminal();
    const prompt = terminalPrompt(terminal.input, terminal.output);
    const running = runCli(["eval", ...BASE, "DOUBLE(1)"], {
      io: { promptKey: prompt },
    });
    await new Promise((r) => setImmediate(r));
    // Backspace removes a character, an arrow key is ignored.
    terminal.type("cm_livX", "\u007f", "e_7Q", "\u001b[D", "x9\r");
    const outcome = await running;
    expect(outcome.configured[0].apiKey).toBe("cm_live_7Qx9");
    expect(terminal.written.join("")).toBe(
      "API key for https://metrics.example: (not shown as you type) \n"
    );
    // Raw mode on for the question, back to what it was after.
    expect(terminal.input.modes).toEqual([true, false]);
  });

  it("runs without a key when nothing is typed; Ctrl-C interrupts", async () => {
    const empty = fakeTerminal();
    const answer = terminalPrompt(empty.input, empty.output)!("API key: ");
    empty.type("\r");
    await expect(answer).resolves.toBe("");
    const stop = fakeTerminal();
    let interrupted = false;
    const stopped = terminalPrompt(stop.input, stop.output, () => (interrupted = true))!(
      "API key: "
    );
    stop.type("abc\u0003");
    await expect(stopped).resolves.toBeUndefined();
    expect(interrupted).toBe(true);
  });

  it("is not offered when the streams are not terminals", () => {
    const terminal = fakeTerminal();
    expect(
      terminalPrompt(
        {
          ...terminal.input,
          isTTY: false,
          on: terminal.input.on.bind(terminal.input),
          removeListener: terminal.input.removeListener.bind(terminal.input),
        },
        terminal.output
      )
    ).toBeUndefined();
    expect(terminalPrompt(terminal.input, { ...terminal.output, isTTY: false })).toBeUndefined();
  });

  it("is not used when a key is given another way", async () => {
    let asked = false;
    const outcome = await runCli(["eval", ...BASE, "DOUBLE(1)"], {
      env: { CRYPTOMETRICS_API_KEY: "env-key" },
      io: {
        promptKey: () => {
          asked = true;
          return Promise.resolve("typed");
        },
      },
    });
    expect(outcome.configured[0].apiKey).toBe("env-key");
    expect(asked).toBe(false);
  });
});
