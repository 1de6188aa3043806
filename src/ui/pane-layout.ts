/**
 * Sticky bars that never crowd the pane. The app bar (navigation, the demo banner) stays at the top and,
 * on Build, the formula footer at the bottom, only while together they take at most a third of the pane's
 * height; past that, first the app bar and then the footer scroll with the content instead (the footer is
 * kept longer: it holds the formula being inserted). At 200 % zoom of a 450 × 800 pane (225 × 400 CSS
 * pixels) that is 133 px, where a sticky 117 px header and a 220 px footer once left 63 px for everything
 * else and hid the focused control.
 *
 * A control that takes focus under a bar that stays is scrolled into the band between them (WCAG 2.2 SC
 * 2.4.11, focus not obscured), and so is a message a page reveals (revealInPane): browsers scroll a
 * focused element into the viewport, not out from under a sticky bar. A group marked
 * `data-reveal-group` (the builder's footer: the formula with its Insert) is brought into view whole when
 * focus enters it and it fits, so the formula is read where it is inserted. The bars' heights are also
 * the page's scroll padding, for the browser's own scrolling.
 */

/** At most this share of the pane's height goes to bars that stay in view. */
const STICKY_BUDGET = 1 / 3;
/**
 * The app bar alone stays only while it takes at most this share: navigation wrapped over two rows at
 * 200 % zoom of a 320 px pane is better scrolled away than kept over a third of the content.
 */
const HEADER_BUDGET = 1 / 4;
/** Room kept between a revealed element and a bar (focus rings are 2 px wide, 1 px off the element). */
const MARGIN_PX = 8;

interface PaneLayout {
  /** Measures again (a section changed, content moved); runs by itself on resizes. */
  update(): void;
  /** The band between the bars that stay, in viewport pixels. */
  band(): { top: number; bottom: number };
}

let current: PaneLayout | undefined;

/** Is the element shown (it, and every ancestor, laid out)? */
function shown(element: HTMLElement): boolean {
  return element.isConnected && element.getClientRects().length > 0;
}

/**
 * Keeps `header` and whichever of `footers` is shown within the budget. One per page; the last one started
 * is the one revealInPane uses.
 */
export function startPaneLayout(header: HTMLElement, footers: () => HTMLElement[]): PaneLayout {
  const root = document.documentElement;
  let top = 0;
  let bottom = 0;

  const update = (): void => {
    const budget = window.innerHeight * STICKY_BUDGET;
    const footer = footers().find(shown);
    const footerHeight = footer ? footer.getBoundingClientRect().height : 0;
    const headerHeight = shown(header) ? header.getBoundingClientRect().height : 0;
    const footerSticks = footer !== undefined && footerHeight <= budget;
    const headerSticks =
      headerHeight <= window.innerHeight * HEADER_BUDGET &&
      headerHeight + (footerSticks ? footerHeight : 0) <= budget;
    header.dataset.sticky = String(headerSticks);
    for (const f of footers()) f.dataset.sticky = String(f === footer && footerSticks);
    top = headerSticks ? Math.ceil(headerHeight) : 0;
    bottom = footerSticks ? Math.ceil(footerHeight) : 0;
    root.style.setProperty("--sticky-top", `${top}px`);
    root.style.setProperty("--sticky-bottom", `${bottom}px`);
  };

  const band = (): { top: number; bottom: number } => ({
    top,
    bottom: window.innerHeight - bottom,
  });

  const observer = new ResizeObserver(() => update());
  observer.observe(header);
  const watched = new Set<HTMLElement>();
  const watchFooters = (): void => {
    for (const f of footers())
      if (!watched.has(f)) {
        watched.add(f);
        observer.observe(f);
      }
  };
  watchFooters();
  window.addEventListener("resize", update);

  // After the browser's own scroll to a newly focused element: move it out from under a bar.
  document.addEventListener(
    "focusin",
    (event) => {
      const target = event.composedPath()[0];
      if (!(target instanceof HTMLElement)) return;
      requestAnimationFrame(() => {
        watchFooters();
        update();
        if (!target.matches(":focus, :focus-within")) return;
        const group = target.closest<HTMLElement>("[data-reveal-group]");
        const { top, bottom: end } = band();
        if (group && group.getBoundingClientRect().height <= end - top - 2 * MARGIN_PX)
          revealInPane(group);
        revealInPane(target);
      });
    },
    true
  );
  update();
  current = { update, band };
  return current;
}

/**
 * Scrolls the page so that `element` sits in the band between the bars that stay (or as much of it as
 * fits, its top first). Nothing moves when it is there already, or when it is inside a bar.
 */
export function revealInPane(element: Element): void {
  if (!element.isConnected) return;
  if (element.closest("[data-sticky='true']")) return;
  const band = current?.band() ?? { top: 0, bottom: window.innerHeight };
  const box = element.getBoundingClientRect();
  if (box.width === 0 && box.height === 0) return;
  const room = band.bottom - band.top - 2 * MARGIN_PX;
  let delta = 0;
  if (box.top < band.top + MARGIN_PX || box.height > room) delta = box.top - band.top - MARGIN_PX;
  else if (box.bottom > band.bottom - MARGIN_PX) delta = box.bottom - band.bottom + MARGIN_PX;
  if (delta !== 0) window.scrollBy({ top: delta, behavior: "instant" });
}

/** Measures the current page's bars again (after content that changes their height). */
export function updatePaneLayout(): void {
  current?.update();
}
