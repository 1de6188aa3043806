/**
 * What the taskpane says on a failure: plain words and the actions that help, for every error kind the
 * client has; never the client's operation names, labels or retry bookkeeping.
 */
import { CryptometricsError, ERROR_KINDS, type ErrorKind } from "../../src/client";
import { cleanMessage, explainError } from "../../src/taskpane/model/plain-errors";

const INTERNAL = /\b[a-z]+[A-Z]\w*\(|createClient|gave up after|attempts|deadline/;

const error = (
  kind: ErrorKind,
  extra: { status?: number; operation?: string; ids?: string[] } = {}
) =>
  new CryptometricsError(
    kind,
    `listMarketSectors(): network error reaching api.example.com: fetch failed (gave up after 6 attempts)`,
    { operation: extra.operation ?? "listMarketSectors", status: extra.status, ids: extra.ids }
  );

test.each(ERROR_KINDS.map((k) => [k]))(
  "a %s error is said in plain words, without internal names",
  (kind) => {
    const plain = explainError(error(kind), "load the catalogue");
    expect(plain.message).toMatch(/^Could not load the catalogue: /);
    expect(plain.message).not.toMatch(INTERNAL);
    expect(plain.message).toMatch(/\.$/);
  }
);

test("a passing problem offers Retry; a wrong address or a missing key offers Go to Settings", () => {
  expect(explainError(error("network"), "x").actions).toEqual(["retry", "settings"]);
  expect(explainError(error("server", { status: 503 }), "x").actions).toEqual(["retry"]);
  expect(explainError(error("rate-limited", { status: 429 }), "x").actions).toEqual(["retry"]);
  expect(explainError(error("timeout"), "x").actions).toEqual(["retry"]);
  expect(explainError(error("unauthorized", { status: 401 }), "x")).toEqual({
    message: "Could not x: the service refused the API key. Check the key in Settings.",
    actions: ["settings"],
  });
  expect(explainError(error("unauthorized"), "x").message).toMatch(/no API key is saved/);
  expect(explainError(error("subscription", { status: 402 }), "x").actions).toEqual([]);
});

test("no service address, or one that is not a web address: said for the taskpane, with Go to Settings", () => {
  const unset = new CryptometricsError(
    "invalid-input",
    "no service URL is set: open the Cryptometrics taskpane and set it in Settings",
    { operation: "configure" }
  );
  expect(explainError(unset, "load the catalogue")).toEqual({
    message: "Could not load the catalogue: the service address is not set. Set it in Settings.",
    actions: ["settings"],
  });
  const bad = new CryptometricsError(
    "invalid-input",
    'createClient: base URL "foo" is not a valid absolute URL',
    {
      operation: "createClient",
    }
  );
  const plain = explainError(bad, "load the catalogue");
  expect(plain.message).not.toMatch(/createClient|absolute URL/);
  expect(plain).toMatchObject({ actions: ["settings"] });
});

test("an unknown id names the id; any other error keeps its own words, cleaned", () => {
  expect(
    explainError(error("not-found", { status: 404, ids: ["aave"] }), "load Aave").message
  ).toBe("Could not load Aave: the service has no data for aave.");
  expect(explainError(new Error("Select a cell first"), "insert the formula")).toEqual({
    message: "Could not insert the formula: Select a cell first.",
    actions: ["retry"],
  });
  expect(
    cleanMessage("getProject(aave): the answer was cut short (gave up after 3 attempts)")
  ).toBe("The answer was cut short.");
});

test("an error only a changed address fixes offers Go to Settings, never Retry", () => {
  // A catalogue (no ids) not found: the address is not the service's.
  expect(explainError(error("not-found", { status: 404 }), "load the catalogue")).toEqual({
    message:
      "Could not load the catalogue: the service address in Settings does not answer like the metrics service (not found). Check the address in Settings.",
    actions: ["settings"],
  });
  expect(
    explainError(error("not-found", { status: 404, ids: ["aave"] }), "load Aave").actions
  ).toEqual([]);
  expect(explainError(error("malformed-response"), "x").actions).toEqual(["settings"]);
});

test("what the workbook refuses (no Excel here) offers no Retry: trying again cannot help", () => {
  const outside = new Error("This needs Excel: open Cryptometrics from Excel's Data tab.");
  outside.name = "WorkbookError";
  expect(explainError(outside, "insert the formula")).toEqual({
    message:
      "Could not insert the formula: This needs Excel: open Cryptometrics from Excel's Data tab.",
    actions: [],
  });
});
