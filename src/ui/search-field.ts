/**
 * A search box as Fluent 2 draws one (SearchBox): a magnifier before the text, a clear button after it
 * while there is text (for the pointer; the keyboard's clear is Escape, so Tab still goes straight on to
 * the results), and the page's main search inside a search landmark. Built on the form
 * field of controls.ts (the label, the hint, the inline error); listeners hear a clear as an input.
 */
import { h } from "./dom";
import { textField, type TextField, type TextFieldOptions } from "./controls";

const SVG = "http://www.w3.org/2000/svg";

function icon(path: string, className: string): SVGElement {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 20 20");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", className);
  const shape = document.createElementNS(SVG, "path");
  shape.setAttribute("d", path);
  shape.setAttribute("fill", "currentColor");
  svg.appendChild(shape);
  return svg;
}

/** Fluent's Search 20 Regular and Dismiss 20 Regular, drawn here (no icon font, no image request). */
const SEARCH_PATH =
  "M8.5 3a5.5 5.5 0 0 1 4.23 9.02l4.12 4.13a.5.5 0 0 1-.63.76l-.07-.06-4.13-4.12A5.5 5.5 0 1 1 8.5 3Zm0 1a4.5 4.5 0 1 0 0 9 4.5 4.5 0 0 0 0-9Z";
const DISMISS_PATH =
  "m4.09 4.22.06-.07a.5.5 0 0 1 .63-.06l.07.06L10 9.29l5.15-5.14a.5.5 0 0 1 .63-.06l.07.06c.18.17.2.44.06.63l-.06.07L10.71 10l5.14 5.15c.18.17.2.44.06.63l-.06.07a.5.5 0 0 1-.63.06l-.07-.06L10 10.71l-5.15 5.14a.5.5 0 0 1-.63.06l-.07-.06a.5.5 0 0 1-.06-.63l.06-.07L9.29 10 4.15 4.85a.5.5 0 0 1-.06-.63l.06-.07-.06.07Z";

interface SearchFieldOptions extends TextFieldOptions {
  clearLabel?: string;
  /** The page's main search (the catalogue's): inside a search landmark. A picker's filter is not one. */
  landmark?: boolean;
}

export function searchField(options: SearchFieldOptions): TextField {
  const field = textField(options);
  const clear = h(
    "fluent-button",
    {
      id: `${options.id}-clear`,
      slot: "end",
      appearance: "transparent",
      size: "small",
      "icon-only": true,
      class: "search-clear",
      "aria-label": options.clearLabel ?? "Clear the search",
      title: `${options.clearLabel ?? "Clear the search"} (Escape)`,
      // As Fluent's SearchBox: not a tab stop of its own (Tab goes on to the results; Escape clears).
      tabindex: -1,
      hidden: true,
    },
    icon(DISMISS_PATH, "icon")
  );
  field.input.append(h("span", { slot: "start", class: "search-icon" }, icon(SEARCH_PATH, "icon")));
  field.input.append(clear);
  const sync = (): void => {
    clear.hidden = field.value() === "";
  };
  const clearText = (): void => {
    field.setValue("");
    sync();
    // Listeners read the field on input: a clear is an input like any other.
    field.input.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
    field.focus();
  };
  clear.addEventListener("click", clearText);
  field.input.addEventListener("input", sync);
  field.input.addEventListener("keydown", (event) => {
    // Escape empties a search that has text (and goes no further: the page stays open).
    if (event.key !== "Escape" || field.value() === "") return;
    event.preventDefault();
    event.stopPropagation();
    clearText();
  });
  const element = options.landmark
    ? h(
        "div",
        { role: "search", class: "search", "aria-labelledby": `${options.id}-label-text` },
        field.element
      )
    : field.element;
  return {
    ...field,
    element,
    setValue: (value) => {
      field.setValue(value);
      sync();
    },
  };
}
