/**
 * @jest-environment jsdom
 *
 * The Refresh view's "What changed" follows the page's record of the last Refresh all, whoever ran it: a
 * ribbon Refresh's restatements are listed there as they arrive, newest first, with a CHANGES formula for
 * them. (The view in a real browser, its styles and accessibility: test/e2e/taskpane.e2e.test.ts.)
 */
import { dayNumber } from "../../src/client/data/days";
import type { Change } from "../../src/engine/ledger";
import { RefreshLog } from "../../src/excel/refresh";
import { RefreshChanges } from "../../src/excel/refresh-changes";
import type { AppContext } from "../../src/taskpane/app-context";
import type { BuilderState } from "../../src/taskpane/model/formula-builder";
import { refreshView } from "../../src/taskpane/views/refresh-view";

const T = Date.UTC(2026, 10, 20, 9, 30, 5);

const change = (day: string, projectId: string, seenAt: number): Change => ({
  series: { projectId, productId: "", metricId: "fees", filter: "" },
  dim: "",
  day: dayNumber(day),
  before: 1000,
  after: 1250,
  beforeSeenAt: 1,
  seenAt,
  request: "GET /v2/metrics/fees",
});

it("lists what a ribbon Refresh found, as it arrives, and opens CHANGES on those projects", () => {
  const refreshChanges = new RefreshChanges();
  const opened: BuilderState[] = [];
  const ctx = {
    refreshLog: new RefreshLog(),
    refreshChanges,
    openInBuilder: (state: BuilderState) => opened.push(state),
  } as unknown as AppContext;
  const view = refreshView(ctx);
  const found = (): HTMLElement => view.querySelector("#refresh-changes")!;
  expect(found().textContent).toBe("");

  let record: (changes: readonly Change[]) => void = () => undefined;
  refreshChanges.start({ subscribe: (l) => ((record = l), () => undefined) }, T, "ribbon");
  expect(found().textContent).toBe(
    "No figure has changed since the ribbon's refresh at 09:30:05 UTC."
  );
  record([change("2024-02-15", "aave", T + 1000)]);
  record([change("2024-02-16", "gmx", T + 2000)]);
  expect(found().querySelector("p")!.textContent).toBe(
    "2 figures changed since the ribbon's refresh at 09:30:05 UTC."
  );
  expect([...found().querySelectorAll("li")].map((li) => li.textContent)).toEqual([
    "gmx fees 2024-02-16: 1,000 → 1,250",
    "aave fees 2024-02-15: 1,000 → 1,250",
  ]);

  view.querySelector<HTMLElement>("#refresh-changes-formula")!.click();
  expect(opened).toHaveLength(1);
  expect(opened[0].fn).toBe("CHANGES");
  expect(opened[0].values.projects).toEqual({ kind: "ids", ids: ["aave", "gmx"] });
});
