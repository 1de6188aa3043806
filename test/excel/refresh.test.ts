/** refresh.ts: Excel's recalculation, the refresh itself, the ribbon's command and the last-refresh record. */
import {
  clockTime,
  recalculate,
  refresh,
  refreshAllCommand,
  RefreshLog,
  type RefreshDeps,
} from "../../src/excel/refresh";
import { setLogSink, type LogRecord } from "../../src/client/log";
import { mock, runOn } from "./office-mocks";

describe("recalculate: the Excel half of Refresh", () => {
  function workbook() {
    const calls: string[] = [];
    const context = mock({
      workbook: {
        application: {
          calculate(type: string) {
            calls.push(`calculate ${type}`);
          },
        },
        getSelectedRange() {
          return { calculate: () => calls.push("selection.calculate") };
        },
      },
    });
    return { context, calls };
  }

  test("Refresh all asks Excel for a full recalculation (non-volatile custom functions need one)", async () => {
    const wb = workbook();
    await recalculate(runOn(wb.context), "all");
    expect(wb.calls).toEqual(["calculate Full"]);
  });

  test("Refresh selection recalculates the selected range only", async () => {
    const wb = workbook();
    await recalculate(runOn(wb.context), "selection");
    expect(wb.calls).toEqual(["selection.calculate"]);
  });
});

describe("refresh and the ribbon's command", () => {
  const T = Date.UTC(2025, 5, 15, 14, 5, 9);

  function deps(options: { noRuntime?: boolean; recalcFails?: boolean } = {}) {
    const order: string[] = [];
    const log = new RefreshLog();
    const d: RefreshDeps = {
      runtime: async () => {
        if (options.noRuntime) throw new Error("no service URL is set");
        return { engine: { refresh: () => order.push("engine.refresh") } };
      },
      recalculate: async (scope) => {
        order.push(`recalculate ${scope}`);
        if (options.recalcFails) throw new Error("Excel is busy");
      },
      now: () => T,
      log,
    };
    return { d, order, log };
  }

  let logged: LogRecord[] = [];
  let previousSink: ReturnType<typeof setLogSink>;
  beforeEach(() => {
    logged = [];
    previousSink = setLogSink((r) => logged.push(r));
  });
  afterEach(() => setLogSink(previousSink));

  test("refresh marks the engine's cache stale first, then has Excel recalculate, and logs when", async () => {
    const { d, order, log } = deps();
    const heard: string[] = [];
    log.subscribe((r) => heard.push(r.message));
    const record = await refresh(d, "all", "taskpane");
    expect(order).toEqual(["engine.refresh", "recalculate all"]);
    expect(record).toEqual({
      at: T,
      scope: "all",
      source: "taskpane",
      ok: true,
      message: "Refreshed every CRYPTO formula at 14:05:09 UTC.",
    });
    expect(log.last).toBe(record);
    expect(heard).toEqual([record.message]);
    expect(clockTime(T)).toBe("14:05:09 UTC");
  });

  test("a refresh that cannot run says why, and is logged as failed", async () => {
    const unset = deps({ noRuntime: true });
    expect(await refresh(unset.d, "selection", "taskpane")).toMatchObject({
      ok: false,
      message: "Could not refresh the selected cells: no service URL is set",
    });
    expect(unset.order).toEqual([]);
    expect(logged).toEqual([
      expect.objectContaining({ level: "warn", logger: "commands.refresh" }),
    ]);
  });

  test("the ribbon command refreshes all and always completes the Office event", async () => {
    for (const options of [{}, { recalcFails: true }]) {
      const { d, order, log } = deps(options);
      let completed = 0;
      await refreshAllCommand(d)({ completed: () => (completed += 1) });
      expect(completed).toBe(1);
      expect(order).toEqual(["engine.refresh", "recalculate all"]);
      expect(log.last).toMatchObject({
        source: "ribbon",
        scope: "all",
        ok: !("recalcFails" in options),
      });
    }
    await expect(refreshAllCommand(deps().d)()).resolves.toBeUndefined();
  });
});
