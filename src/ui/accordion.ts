/**
 * A foldable section as Fluent 2 draws one: an accordion item (fluent.ts registers the elements), its
 * heading a button that Enter and Space fold and unfold, a chevron that says which way it is. One helper
 * for every foldable part of the pages (a project's metrics, the builder's options, the preview's
 * connection), so they look and behave alike. The item's button lives in its shadow root; `focus()`
 * reaches it.
 */
import { h, replaceChildren } from "./dom";

export interface AccordionSection {
  /** The fluent-accordion holding the one item. */
  element: HTMLElement;
  /** The fluent-accordion-item (its id is the section's). */
  item: HTMLElement;
  setHeading(text: string): void;
  setExpanded(expanded: boolean): void;
  expanded(): boolean;
  /** Keyboard focus on the heading's button. */
  focus(): void;
}

interface AccordionOptions {
  id: string;
  heading: string;
  /** The heading's level in the page's outline (aria-level of the item's heading). */
  level: 2 | 3 | 4 | 5 | 6;
  content: Node;
  expanded?: boolean;
  class?: string;
}

export function accordionSection(options: AccordionOptions): AccordionSection {
  const heading = h("span", { slot: "heading", id: `${options.id}-heading` }, options.heading);
  const item = h(
    "fluent-accordion-item",
    {
      id: options.id,
      "heading-level": options.level,
      size: "small",
      block: true,
      expanded: options.expanded === true,
      class: options.class ?? null,
    },
    heading,
    options.content
  );
  // Multi: in single mode the accordion keeps one item open and would never let this one fold.
  const element = h(
    "fluent-accordion",
    { "expand-mode": "multi", class: "section-accordion" },
    item
  );
  return {
    element,
    item,
    setHeading: (text) => replaceChildren(heading, text),
    setExpanded: (expanded) => {
      (item as HTMLElement & { expanded: boolean }).expanded = expanded;
      item.toggleAttribute("expanded", expanded);
    },
    expanded: () => item.hasAttribute("expanded"),
    focus: () => (item.shadowRoot?.querySelector<HTMLElement>("[part='button']") ?? item).focus(),
  };
}
