import { installCliHost } from "../../src/cli/host";
import { CryptometricsError } from "../../src/client";
import { run, toExcelMatrix } from "../../src/functions/edge";
import { resetHostProbe } from "../../src/functions/host";
import { invalid, notAvailable } from "../../src/functions/result";
import { configureRuntime, sharedDiagnostics } from "../../src/runtime/runtime";

installCliHost();
const host = globalThis as { __CM_HOST__?: { name: string; formattedNumbers: boolean } };

beforeAll(() => {
  configureRuntime({ baseUrl: "http://127.0.0.1:9", apiKey: "sk_live_SECRET_1234" });
});

const invocation = (address: string) =>
  ({ address, functionName: "TEST" }) as CustomFunctions.Invocation;

async function failure(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  return p.then(
    () => {
      throw new Error("expected an Excel error");
    },
    (e: { code: string; message: string }) => ({ code: e.code, message: e.message })
  );
}

describe("the Excel edge", () => {
  it("maps each failure to the Excel error a person can act on", async () => {
    const cases: Array<[unknown, string, RegExp]> = [
      [invalid("start is after end"), "#VALUE!", /^start is after end$/],
      [notAvailable("no data"), "#N/A", /^no data$/],
      [
        new CryptometricsError("unauthorized", "getMetric(fees): no API key is set", {
          operation: "getMetric",
        }),
        "#VALUE!",
        /no API key is set: pass --api-key/,
      ],
      [
        new CryptometricsError("subscription", "getMetric(fees): not covered (HTTP 402)", {
          operation: "getMetric",
        }),
        "#VALUE!",
        /your plan does not cover this call/,
      ],
      [
        new CryptometricsError("not-found", 'unknown project "x"', { operation: "resolve" }),
        "#N/A",
        /^unknown project "x"$/,
      ],
      [
        new CryptometricsError("rate-limited", "getMetric: rate limited", {
          operation: "getMetric",
        }),
        "#N/A",
        /still rate-limiting after retries; run the command again in a minute/,
      ],
      [
        new CryptometricsError("network", "getMetric: network error", { operation: "getMetric" }),
        "#N/A",
        /could not be reached: a metric's data: network error\. Run the command again once it is back\.$/,
      ],
      // The client's call labels are for developers: a cell says what was asked in words.
      [
        new CryptometricsError("unauthorized", "listProjects(): no API key is set", {
          operation: "listProjects",
        }),
        "#VALUE!",
        /^no API key is set: pass --api-key/,
      ],
      [
        new CryptometricsError(
          "not-found",
          "getMetricsBreakdown(fees; aave): not found (HTTP 404)",
          {
            operation: "getMetricsBreakdown",
          }
        ),
        "#N/A",
        /^the fees breakdown for aave: not found \(HTTP 404\)$/,
      ],
      [
        new TypeError("x is undefined"),
        "#VALUE!",
        /internal error \(x is undefined\); see Diagnostics/,
      ],
    ];
    for (const [thrown, code, message] of cases) {
      const error = await failure(
        run("VALUE", invocation("Sheet1!A1"), {}, async () => Promise.reject(thrown))
      );
      expect(error.code).toBe(code);
      expect(error.message).toMatch(message);
    }
  });

  it("tells an Excel user to use Refresh where the CLI's user is told to run the command again", async () => {
    const down = () =>
      failure(
        run("VALUE", invocation("Sheet1!A3"), {}, async () =>
          Promise.reject(
            new CryptometricsError("network", "getMetric: network error", {
              operation: "getMetric",
            })
          )
        )
      );
    const limited = () =>
      failure(
        run("VALUE", invocation("Sheet1!A4"), {}, async () =>
          Promise.reject(
            new CryptometricsError("rate-limited", "getMetric: rate limited", {
              operation: "getMetric",
            })
          )
        )
      );
    host.__CM_HOST__ = { name: "excel", formattedNumbers: true };
    try {
      expect((await down()).message).toMatch(/\. Use Refresh once it is back\.$/);
      expect((await limited()).message).toMatch(/; use Refresh in a minute\./);
    } finally {
      installCliHost();
    }
    expect((await down()).message).not.toMatch(/Refresh/);
    expect((await limited()).message).not.toMatch(/Refresh/);
  });

  it("keeps messages short enough for Excel's tooltip", async () => {
    const error = await failure(
      run("VALUE", invocation("Sheet1!A2"), {}, async () =>
        Promise.reject(invalid("x".repeat(1000)))
      )
    );
    expect(error.message.length).toBeLessThanOrEqual(250);
  });

  it("shows dates as formatted numbers where the host can, plain serials elsewhere", () => {
    host.__CM_HOST__ = { name: "test", formattedNumbers: true };
    resetHostProbe();
    expect(toExcelMatrix([[{ date: 19723 }, 1.5, null, "x", true]])).toEqual([
      [{ type: "Double", basicValue: 45292, numberFormat: "yyyy-mm-dd" }, 1.5, "", "x", true],
    ]);
    host.__CM_HOST__ = { name: "test", formattedNumbers: false };
    resetHostProbe();
    expect(toExcelMatrix([[{ date: 19723 }]])).toEqual([[45292]]);
    host.__CM_HOST__ = { name: "cli", formattedNumbers: true };
    resetHostProbe();
  });

  it("pads ragged tables, and turns error cells and non-finite numbers into Excel errors", () => {
    const [row1, row2] = toExcelMatrix([
      [1, 2, 3],
      [{ error: "na", message: "unknown project" }, NaN],
    ]);
    expect(row1).toEqual([1, 2, 3]);
    expect(row2).toHaveLength(3);
    expect(row2[0]).toMatchObject({ code: "#N/A", message: "unknown project" });
    expect(row2[1]).toMatchObject({ code: "#N/A" });
    expect(row2[2]).toBe("");
  });

  it("records each call for the diagnostics, without the API key", async () => {
    await failure(
      run("METRIC", invocation("Sheet2!B7"), { project: [["aave"]] }, async (ctx) => {
        ctx.trace.requests.add("GET /v2/metrics/fees for 1 project");
        ctx.trace.warnings.add("unknown chain");
        throw notAvailable("no data for fees");
      })
    );
    const record = sharedDiagnostics().cell("Sheet2!B7")!;
    expect(record).toMatchObject({
      functionName: "METRIC",
      args: { project: [["aave"]] },
      requests: ["GET /v2/metrics/fees for 1 project"],
      warnings: ["unknown chain"],
      error: { code: "#N/A", message: "no data for fees" },
    });
    expect(sharedDiagnostics().recentErrors()[0]).toMatchObject({
      address: "Sheet2!B7",
      code: "#N/A",
    });
    expect(JSON.stringify(sharedDiagnostics().export())).not.toContain("SECRET");
  });

  it("records a range of more than a thousand cells by its shape, small ranges and cards as given", async () => {
    const column = Array.from({ length: 1_000_000 }, (_, i) => [`p${i}`]);
    const card = { type: "Entity", text: "Aave", properties: {} };
    await failure(
      run(
        "METRIC",
        invocation("Sheet3!A1"),
        { project: column, metric: [["fees"], ["revenue"]], start: card },
        () => Promise.reject(invalid("project lists more than 500 ids"))
      )
    );
    expect(sharedDiagnostics().cell("Sheet3!A1")!.args).toEqual({
      project: "(a range of 1000000 × 1 cells)",
      metric: [["fees"], ["revenue"]],
      start: 'card "Aave"',
    });
  });

  it("cancels through Excel's onCanceled", async () => {
    const inv = invocation("Sheet1!C1") as CustomFunctions.CancelableInvocation;
    const call = run(
      "VALUE",
      inv,
      {},
      (ctx) =>
        new Promise((_, reject) =>
          ctx.signal!.addEventListener("abort", () =>
            reject(new CryptometricsError("cancelled", "cancelled", { operation: "x" }))
          )
        )
    );
    await new Promise((r) => setImmediate(r));
    inv.onCanceled!();
    expect(await failure(call)).toEqual({ code: "#N/A", message: "Cancelled." });
  });
});
