/**
 * What the overlap tests measure in the page: the boxes of every text (each text node's line boxes, through
 * shadow roots) and every control (buttons, fields, dropdowns, options) inside a root, each cut to what its
 * scrolling ancestors let show, and every pair of them that share a place. Two texts never share a place; a
 * text and a control share one only when the text is the control's own (its label, its value); two controls
 * only when one holds the other. Hidden parts (display none, visibility hidden, zero size) are not drawn, so
 * they are not counted.
 */
import type { Page } from "playwright-core";

interface Overlap {
  a: string;
  b: string;
  /** Where they meet, in CSS px: left, top, width, height. */
  at: [number, number, number, number];
}

/** Every overlap inside `root` (a selector), or [] when each text and control has its own place. */
export function overlapsIn(page: Page, root: string): Promise<Overlap[]> {
  return page.evaluate((selector) => {
    const scope = document.querySelector(selector);
    if (!scope) return [{ a: selector, b: "(not found)", at: [0, 0, 0, 0] }];
    type Box = { left: number; top: number; right: number; bottom: number };
    interface Piece {
      name: string;
      box: Box;
      /** The element the piece belongs to (a text's parent, or the control). */
      owner: Element;
      control: boolean;
    }
    const CONTROLS =
      "fluent-button, fluent-text-input, fluent-dropdown, fluent-checkbox, fluent-textarea, fluent-menu-button, fluent-link, input, button, a, [role='option'], [role='tab']";
    const parentOf = (node: Node): Node | null =>
      node.parentNode instanceof ShadowRoot ? node.parentNode.host : node.parentNode;
    /** `inner` is `outer` or inside it, across shadow roots and slots. */
    const within = (inner: Node, outer: Node): boolean => {
      for (let n: Node | null = inner; n; n = (n as Element).assignedSlot ?? parentOf(n))
        if (n === outer) return true;
      return false;
    };
    const drawn = (el: Element): boolean => {
      for (let n: Node | null = el; n instanceof Element; n = parentOf(n)) {
        const style = getComputedStyle(n);
        if (style.display === "none" || style.visibility === "hidden") return false;
      }
      return true;
    };
    /** The box cut to every ancestor that clips (scroll containers), and to the page. */
    const clipped = (el: Element, box: Box): Box | undefined => {
      let b = { ...box };
      for (let n: Node | null = parentOf(el); n instanceof Element; n = parentOf(n)) {
        const style = getComputedStyle(n);
        if (style.overflowX === "visible" && style.overflowY === "visible") continue;
        const r = n.getBoundingClientRect();
        b = {
          left: Math.max(b.left, r.left),
          top: Math.max(b.top, r.top),
          right: Math.min(b.right, r.right),
          bottom: Math.min(b.bottom, r.bottom),
        };
      }
      return b.right - b.left > 0.5 && b.bottom - b.top > 0.5 ? b : undefined;
    };
    const describe = (el: Element): string => {
      const id = el.id ? `#${el.id}` : "";
      const holder = el.id ? null : el.closest("[id]");
      return `${el.tagName.toLowerCase()}${id}${holder ? ` in #${holder.id}` : ""}`;
    };
    const pieces: Piece[] = [];
    const visit = (node: Node): void => {
      if (node instanceof Element) {
        if (!drawn(node)) return;
        if (node.matches(CONTROLS)) {
          const box = clipped(node, node.getBoundingClientRect());
          if (box) pieces.push({ name: describe(node), box, owner: node, control: true });
        }
        if (node.shadowRoot) node.shadowRoot.childNodes.forEach(visit);
        // Slotted children are visited where they are in the light tree.
        if (node instanceof HTMLSlotElement) return;
      }
      if (node.nodeType === Node.TEXT_NODE) {
        const text = (node.textContent ?? "").trim();
        const parent = parentOf(node);
        if (text === "" || !(parent instanceof Element) || !drawn(parent)) return;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const rect of range.getClientRects()) {
          const box = clipped(parent, rect);
          if (box)
            pieces.push({
              name: `"${text.slice(0, 40)}" (${describe(parent)})`,
              box,
              owner: parent,
              control: false,
            });
        }
        return;
      }
      node.childNodes.forEach(visit);
    };
    visit(scope);
    const found: { a: string; b: string; at: [number, number, number, number] }[] = [];
    for (let i = 0; i < pieces.length; i++) {
      for (let j = i + 1; j < pieces.length; j++) {
        const p = pieces[i];
        const q = pieces[j];
        const w = Math.min(p.box.right, q.box.right) - Math.max(p.box.left, q.box.left);
        const h = Math.min(p.box.bottom, q.box.bottom) - Math.max(p.box.top, q.box.top);
        // A pixel of anti-aliasing or of a line's leading is not a collision.
        if (w <= 1 || h <= 1) continue;
        if (p.owner === q.owner) continue; // two lines of one text, or a control's own text
        if (p.control && within(q.owner, p.owner)) continue;
        if (q.control && within(p.owner, q.owner)) continue;
        if (p.control && q.control && (within(p.owner, q.owner) || within(q.owner, p.owner)))
          continue;
        found.push({
          a: p.name,
          b: q.name,
          at: [
            Math.round(Math.max(p.box.left, q.box.left)),
            Math.round(Math.max(p.box.top, q.box.top)),
            Math.round(w),
            Math.round(h),
          ],
        });
      }
    }
    return found;
  }, root);
}

/**
 * Every open popup (menu lists, dropdown lists, popovers) whose box leaves the viewport without being able to
 * scroll to the rest: the left, right, top and bottom it spans against the viewport's size.
 */
export function popupsOutside(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const open = [...document.querySelectorAll<HTMLElement>("[popover], fluent-listbox")].filter(
      (el) => {
        try {
          if (el.matches(":popover-open")) return true;
        } catch {
          // no popover support: judged by its box
        }
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden";
      }
    );
    for (const el of open) {
      const r = el.getBoundingClientRect();
      const scrolls =
        el.scrollHeight > el.clientHeight + 1 && getComputedStyle(el).overflowY !== "visible";
      const outside =
        r.left < -0.5 ||
        r.right > innerWidth + 0.5 ||
        r.top < -0.5 ||
        (r.bottom > innerHeight + 0.5 && !scrolls);
      if (outside)
        out.push(
          `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}: x ${Math.round(r.left)}–${Math.round(r.right)}, y ${Math.round(r.top)}–${Math.round(r.bottom)} in ${innerWidth} × ${innerHeight}`
        );
    }
    return out;
  });
}
