/**
 * The ribbon's Refresh button is an ExecuteFunction named in manifest.xml: the commands bundle must register
 * a function under that name with Office.actions.associate. Office itself is the one mock (host boundary).
 */
import { readFileSync } from "fs";
import { join } from "path";

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
