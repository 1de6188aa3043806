/**
 * The ribbon's Refresh button is an ExecuteFunction named in manifest.xml: the commands bundle must register
 * a function under that name with Office.actions.associate. A ribbon Refresh that finds restatements shows the
 * taskpane (Office.addin.showAsTaskpane). Office itself is the one mock (host boundary).
 */
import { readFileSync } from "fs";
import { join } from "path";
import { setLogSink, type LogRecord } from "../../src/client/log";
import { showTaskpane } from "../../src/commands/commands";
import type { Change } from "../../src/engine/ledger";

const change: Change = {
  series: { projectId: "aave", productId: "", metricId: "fees", filter: "" },
  dim: "",
  day: 19768,
  before: 100,
  after: 125,
  beforeSeenAt: 1,
  seenAt: 2,
  request: "GET /v2/projects/aave/metrics",
};

test("commands.ts associates the manifest's ExecuteFunction name with the refresh command", () => {
  const manifest = readFileSync(join(__dirname, "../../manifest.xml"), "utf8");
  const names = [...manifest.matchAll(/<FunctionName>([^<]+)<\/FunctionName>/g)].map((m) => m[1]);
  expect(names).toEqual(["refreshAll"]);

  const associated = new Map<string, unknown>();
  const office = {
    actions: { associate: (name: string, fn: unknown) => associated.set(name, fn) },
  };
  (globalThis as { Office?: unknown }).Office = office;
  try {
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const commands = require("../../src/commands/commands") as { refreshAll: unknown };
      expect([...associated.keys()]).toEqual(names);
      expect(associated.get("refreshAll")).toBe(commands.refreshAll);
    });
  } finally {
    delete (globalThis as { Office?: unknown }).Office;
  }
});

test("a ribbon Refresh that finds a restatement shows the taskpane, once; the taskpane's own does not", () => {
  let shown = 0;
  const office = {
    actions: { associate: () => undefined },
    addin: { showAsTaskpane: () => ((shown += 1), Promise.resolve()) },
  };
  (globalThis as { Office?: unknown }).Office = office;
  try {
    jest.isolateModules(() => {
      /* eslint-disable @typescript-eslint/no-require-imports */
      require("../../src/commands/commands");
      const { refreshChanges } =
        require("../../src/excel/refresh-changes") as typeof import("../../src/excel/refresh-changes");
      /* eslint-enable @typescript-eslint/no-require-imports */
      let record: (changes: readonly Change[]) => void = () => undefined;
      const feed = { subscribe: (l: typeof record) => ((record = l), () => undefined) };
      refreshChanges.start(feed, 0, "taskpane");
      record([change]);
      expect(shown).toBe(0);
      refreshChanges.start(feed, 0, "ribbon");
      expect(shown).toBe(0);
      record([change]);
      record([change]);
      expect(shown).toBe(1);
    });
  } finally {
    delete (globalThis as { Office?: unknown }).Office;
  }
});

test("where the pane cannot be shown, the command says so in the log and the list waits", async () => {
  const logged: LogRecord[] = [];
  const previous = setLogSink((r) => logged.push(r));
  try {
    showTaskpane(undefined);
    showTaskpane({ addin: { showAsTaskpane: () => Promise.reject(new Error("not supported")) } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(logged.map((r) => [r.level, r.message, r.data])).toEqual([
      ["info", expect.stringMatching(/cannot be shown/) as unknown, undefined],
      ["warn", "could not show the taskpane", { error: "not supported" }],
    ]);
  } finally {
    setLogSink(previous);
  }
});
