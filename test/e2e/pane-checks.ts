/**
 * What the taskpane's room tests measure in the page: whether the focused control is fully visible (every
 * probe point of it answers `elementFromPoint` with the control itself, not a bar over it), how much of
 * the pane the bars that stay in view take, and a walk through a section with Tab collecting both at every
 * stop. Shared by the browser tests of the pane's room and of its messages; a pane of each size comes
 * from the lab's connectedPane (support/pane-lab.ts).
 */
import type { Page } from "playwright-core";
import type { PaneSize } from "./support/pane-lab";

export interface Pane extends PaneSize {
  /** Device pixels per CSS pixel: 2 is the pane at 200 % zoom. */
  zoom: 1 | 2;
  name: string;
}

/** The sizes every check runs at: 320 and 450 px panes, and both at 200 % zoom (half the CSS pixels). */
export const PANES: readonly Pane[] = [
  { width: 320, height: 800, zoom: 1, name: "320 px" },
  { width: 450, height: 800, zoom: 1, name: "450 px" },
  { width: 160, height: 400, zoom: 2, name: "320 px at 200 %" },
  { width: 225, height: 400, zoom: 2, name: "450 px at 200 %" },
];

interface FocusView {
  /** "fluent-button#builder-insert", "input (in fluent-text-input#b-start-date)". */
  focus: string;
  /** Every probe point (the corners, 2 px in, and the centre) hits the control, inside the viewport. */
  fullyVisible: boolean;
  /** The probe points that hit something else, and what they hit. */
  covered: string[];
  top: number;
  bottom: number;
}

/**
 * The focused control (through shadow roots to the inner one) and whether it is fully visible: each probe
 * point inside the viewport and `elementFromPoint` there answering the control or something inside it
 * (from the document, a point in a shadow root answers its host).
 */
export function focusView(page: Page): Promise<FocusView | undefined> {
  return page.evaluate(() => {
    let active: Element | null = document.activeElement;
    if (!active || active === document.body) return undefined;
    const chain: Element[] = [active];
    while (active?.shadowRoot?.activeElement) {
      active = active.shadowRoot.activeElement;
      chain.push(active);
    }
    const inner = chain[chain.length - 1];
    const name = (e: Element): string => {
      const own = `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ""}${e.getAttribute("part") ? `[part=${e.getAttribute("part")}]` : ""}`;
      // A control without an id of its own (a dropdown's button) is named by what holds it.
      const holder = e.id ? null : e.parentElement?.closest("[id]");
      return holder ? `${own} in #${holder.id}` : own;
    };
    const focus = chain.length > 1 ? `${name(inner)} (in ${name(chain[0])})` : name(chain[0]);
    const box = inner.getBoundingClientRect();
    /** Is `hit` the control, inside it, or the host of the shadow root it sits in? */
    const covers = (hit: Element | null): boolean => {
      if (!hit) return false;
      if (inner === hit || inner.contains(hit)) return true;
      let node: Node | null = inner;
      while (node) {
        if (node === hit) return true;
        node = node.parentNode ?? (node instanceof ShadowRoot ? node.host : null);
        if (node instanceof ShadowRoot) node = node.host;
      }
      return false;
    };
    const inset = Math.min(2, box.width / 4, box.height / 4);
    const points: [number, number][] = [
      [box.left + inset, box.top + inset],
      [box.right - inset, box.top + inset],
      [box.left + inset, box.bottom - inset],
      [box.right - inset, box.bottom - inset],
      [(box.left + box.right) / 2, (box.top + box.bottom) / 2],
    ];
    const covered: string[] = [];
    for (const [x, y] of points) {
      if (x < 0 || y < 0 || x > window.innerWidth || y > window.innerHeight) {
        covered.push(`(${Math.round(x)},${Math.round(y)}) outside the viewport`);
        continue;
      }
      const hit = document.elementFromPoint(x, y);
      if (!covers(hit))
        covered.push(`(${Math.round(x)},${Math.round(y)}) is ${hit ? name(hit) : "nothing"}`);
    }
    return {
      focus,
      fullyVisible: covered.length === 0 && box.width > 0 && box.height > 0,
      covered,
      top: Math.round(box.top),
      bottom: Math.round(box.bottom),
    };
  });
}

/** The share of the pane's height taken by the bars that stay in view (sticky or fixed, shown). */
export function stickyShare(page: Page): Promise<{ share: number; bars: string[] }> {
  return page.evaluate(() => {
    let taken = 0;
    const bars: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>("header, .builder-footer")) {
      const position = getComputedStyle(element).position;
      const box = element.getBoundingClientRect();
      if ((position === "sticky" || position === "fixed") && box.height > 0) {
        taken += box.height;
        bars.push(
          `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""} ${Math.round(box.height)} px`
        );
      }
    }
    return { share: taken / window.innerHeight, bars };
  });
}

export interface WalkStop {
  focus: string;
  fullyVisible: boolean;
  covered: string[];
  share: number;
}

/**
 * Presses Tab from where focus is until it comes back to a control already met, leaves the page, or `max`
 * presses; at every stop, the focused control's visibility and the bars' share of the pane.
 */
export async function tabWalk(page: Page, max = 150): Promise<WalkStop[]> {
  // From the start of the page: focus on <body> makes the next Tab go to the first control.
  await page.evaluate(() => {
    window.scrollTo(0, 0);
    document.body.tabIndex = -1;
    document.body.focus();
    document.body.removeAttribute("tabindex");
  });
  const stops: WalkStop[] = [];
  const seen = new Set<string>();
  for (let n = 0; n < max; n++) {
    await page.keyboard.press("Tab");
    // The pane moves what was hidden under a bar on the next frame: measure after it.
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))
    );
    const view = await focusView(page);
    if (!view) break;
    if (seen.has(view.focus)) break;
    seen.add(view.focus);
    const { share } = await stickyShare(page);
    stops.push({
      focus: view.focus,
      fullyVisible: view.fullyVisible,
      covered: view.covered,
      share,
    });
  }
  return stops;
}
