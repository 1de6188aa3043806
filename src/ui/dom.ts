/**
 * The one way the taskpane and the preview page build DOM: elements with attributes and children, text set
 * through text nodes only. Service data (project names, descriptions, error messages) can therefore never be
 * parsed as HTML: a name like `Tick & Tock "Perps" <beta>` is shown exactly as written. Nor can it reorder
 * itself: bidirectional formatting characters in text and in the attributes people read (title, labels)
 * show as U+FFFD, as the CLI shows them (sheet/safe-text.ts: "gnp.exe" with an RLO would read "exe.png").
 */
import { neutraliseBidi } from "../sheet/safe-text";

/** Attributes whose text is read by people (tooltips, accessible names): shown as the CLI shows text. */
const READ_ATTRIBUTES: ReadonlySet<string> = new Set([
  "title",
  "aria-label",
  "aria-description",
  "aria-valuetext",
  "alt",
  "placeholder",
  "label",
]);

export type Child = Node | string | number | null | undefined | false;

type Attributes = Readonly<
  Record<string, string | number | boolean | null | undefined | EventListener>
>;

/** Creates an element; `on<event>` attributes become listeners, `true` an empty attribute, false/null none. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes?: Attributes,
  ...children: Child[]
): HTMLElementTagNameMap[K];
export function h(tag: string, attributes?: Attributes, ...children: Child[]): HTMLElement;
export function h(tag: string, attributes: Attributes = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === "function") {
      element.addEventListener(name.replace(/^on/, "").toLowerCase(), value);
    } else {
      const text = value === true ? "" : String(value);
      element.setAttribute(name, READ_ATTRIBUTES.has(name) ? neutraliseBidi(text) : text);
    }
  }
  append(element, children);
  return element;
}

function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(
      typeof child === "object" ? child : document.createTextNode(neutraliseBidi(String(child)))
    );
  }
}

/** Sets an element's text (for text from the service or the user: shown as `h` shows text). */
export function setText(element: Node, text: string): void {
  element.textContent = neutraliseBidi(text);
}

/** Replaces every child of `parent`. */
export function replaceChildren(parent: Node, ...children: Child[]): void {
  while (parent.firstChild) parent.removeChild(parent.firstChild);
  append(parent, children);
}

/** Only web links open from the taskpane; a `javascript:` or `data:` URL from a response never does. */
export function safeHref(url: string, base?: string): string | undefined {
  try {
    const parsed = new URL(url, base);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}
