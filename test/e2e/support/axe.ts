/**
 * axe-core in the page under test: every page state a browser test visits is checked against WCAG 2.0,
 * 2.1 and 2.2, levels A and AA, and any violation fails the test with the rule, the elements and why.
 * axe is injected through the DevTools protocol (page.evaluate), not as a <script>: the pages' CSP forbids
 * inline scripts, and the check must not loosen the policy it runs under. Each check is recorded under
 * test-results/axe/<file>.json (states and violation counts) for the reports.
 */
import { mkdirSync, readFileSync, writeFileSync } from "fs";
import { basename, join } from "path";
import type { Page } from "playwright-core";
import { ROOT } from "./build";

const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
export const WCAG_AA_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

interface AxeViolation {
  rule: string;
  impact: string;
  help: string;
  nodes: string[];
}

interface AxeResultLike {
  violations: {
    id: string;
    impact?: string | null;
    help: string;
    nodes: { target: unknown[]; failureSummary?: string }[];
  }[];
  passes: unknown[];
}

const checked: { state: string; violations: number; passes: number }[] = [];

async function axeViolations(page: Page): Promise<{ violations: AxeViolation[]; passes: number }> {
  const loaded = await page.evaluate(() => typeof (window as { axe?: unknown }).axe === "object");
  if (!loaded) await page.evaluate(AXE_SOURCE);
  // Colours are read as they will stay: a control that just changed state (a button that became usable) is
  // still at its old colours when its transition starts, and axe would judge a frame no user reads.
  // Finite animations only (a spinner runs forever), and never longer than 2 s.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity))
          .map((a) => a.finished.catch(() => undefined))
      ),
      new Promise((resolve) => setTimeout(resolve, 2_000)),
    ])
  );
  const result = (await page.evaluate(
    (tags) =>
      (
        window as unknown as {
          axe: { run(context: Document, options: unknown): Promise<unknown> };
        }
      ).axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] }),
    WCAG_AA_TAGS
  )) as AxeResultLike;
  return {
    passes: result.passes.length,
    violations: result.violations.map((v) => ({
      rule: v.id,
      impact: v.impact ?? "",
      help: v.help,
      nodes: v.nodes.map(
        (n) => `${n.target.map(String).join(" ")}: ${(n.failureSummary ?? "").replace(/\s+/g, " ")}`
      ),
    })),
  };
}

/** Fails the test on any WCAG 2.2 AA violation in the page as it is now; `state` names it in the record. */
export async function expectAccessible(page: Page, state: string): Promise<void> {
  const { violations, passes } = await axeViolations(page);
  checked.push({ state, violations: violations.length, passes });
  expect({ state, violations }).toEqual({ state, violations: [] });
}

/** Writes the states this test file checked (call from afterAll). */
export function recordAxeStates(testFile: string): void {
  const dir = join(ROOT, "test-results", "axe");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, `${basename(testFile).replace(/(\.e2e)?\.test\.ts$/, "")}.json`),
    JSON.stringify({ tags: WCAG_AA_TAGS, states: checked }, null, 2)
  );
}
