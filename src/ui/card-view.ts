/**
 * A data-type card on a page, as Excel opens one on click: the title and subtitle its layout names, its
 * sections as Fluent 2 accordion items (collapsed ones folded; fluent.ts registers the elements), each field's
 * value with its note (the sublabel: "as of 2026-11-19"), a nested card folded under its text, an array field
 * as a small table, and the provider line at the foot.
 * Every value goes in as text (service names and notes are never markup).
 */
import type { Cell } from "../sheet/cells";
import { cellText, formatNumber } from "../sheet/cell-display";
import { entityFieldNames, entityText, type EntityJson } from "../sheet/entity";
import { fieldValue } from "../sheet/fields";
import { h, type Child } from "./dom";

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The small SVG card icon Excel puts in front of a data-type cell. */
export function cardIcon(): SVGSVGElement {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("width", "14");
  svg.setAttribute("height", "14");
  svg.setAttribute("class", "card-icon");
  svg.setAttribute("aria-hidden", "true");
  const frame = document.createElementNS(ns, "rect");
  for (const [k, v] of Object.entries({ x: "1.5", y: "2.5", width: "13", height: "11", rx: "1.5" }))
    frame.setAttribute(k, v);
  const lines = document.createElementNS(ns, "path");
  lines.setAttribute("d", "M4 6h8M4 9h8M4 11.5h5");
  svg.append(frame, lines);
  return svg;
}

/** A number as its format shows it, roughly: dollars, ratios with an "x", counts and plain numbers. */
function formatted(value: number, format: string | undefined): string {
  if (format?.startsWith("$")) return `${value < 0 ? "-" : ""}$${formatNumber(Math.abs(value))}`;
  if (format && /"x"$/.test(format)) return `${value.toFixed(1)}x`;
  return formatNumber(value);
}

function propertyOf(entity: EntityJson, name: string): Json | undefined {
  const properties = entity.properties;
  const value = isRecord(properties) ? properties[name] : undefined;
  return isRecord(value) ? value : undefined;
}

function sublabel(property: Json | undefined): string | undefined {
  const meta = property?.propertyMetadata;
  return isRecord(meta) && typeof meta.sublabel === "string" ? meta.sublabel : undefined;
}

function cellShown(cell: Cell, format: string | undefined): string {
  return cell.kind === "number" ? formatted(cell.value, format) : cellText(cell);
}

function valueView(entity: EntityJson, name: string, depth: number): Child {
  const property = propertyOf(entity, name);
  const grid = fieldValue({ kind: "entity", text: entityText(entity), value: entity }, name);
  const format = typeof property?.numberFormat === "string" ? property.numberFormat : undefined;
  if (grid.length === 1 && grid[0].length === 1) {
    const cell = grid[0][0];
    if (cell.kind === "entity") {
      if (depth >= 3) return cell.text;
      // A nested card folds under its text, as in Excel. The click handler stops here: a Fluent accordion
      // toggles whichever accordion item a click comes from, so without it the card's own section would toggle
      // the nested item back.
      return h(
        "fluent-accordion",
        { class: "card-nested", onclick: (event: Event) => event.stopPropagation() },
        section(cell.text, false, headingLevel(depth) + 1, cardBody(cell.value, depth + 1))
      );
    }
    return h("span", { class: `card-value ${cell.kind}` }, cellShown(cell, format));
  }
  // An array field: each element keeps its own format.
  const elements = Array.isArray(property?.elements) ? (property.elements as unknown[][]) : [];
  return h(
    "table",
    { class: "card-array" },
    h(
      "tbody",
      {},
      ...grid.map((row, r) =>
        h(
          "tr",
          {},
          ...row.map((cell, c) => {
            const element = elements[r]?.[c];
            const f =
              isRecord(element) && typeof element.numberFormat === "string"
                ? element.numberFormat
                : undefined;
            return h("td", { class: `cell ${cell.kind}` }, cellShown(cell, f));
          })
        )
      )
    )
  );
}

function fieldList(entity: EntityJson, names: readonly string[], depth: number): HTMLElement {
  return h(
    "dl",
    { class: "card-fields" },
    ...names.flatMap((name) => {
      const note = sublabel(propertyOf(entity, name));
      return [
        h("dt", {}, name),
        h(
          "dd",
          {},
          valueView(entity, name, depth),
          note ? h("small", { class: "card-note" }, note) : null
        ),
      ];
    })
  );
}

interface Section {
  title?: string;
  collapsed: boolean;
  properties: string[];
}

function sectionsOf(entity: EntityJson): Section[] {
  const layouts = entity.layouts;
  const card = isRecord(layouts) ? layouts.card : undefined;
  const sections = isRecord(card) && Array.isArray(card.sections) ? card.sections : undefined;
  // Without a layout every field shows, as one list.
  if (!sections) return [{ collapsed: false, properties: entityFieldNames(entity) }];
  return sections.filter(isRecord).map((s) => ({
    title: typeof s.title === "string" ? s.title : undefined,
    collapsed: s.collapsed === true,
    properties: Array.isArray(s.properties)
      ? s.properties.filter((p): p is string => typeof p === "string")
      : [],
  }));
}

/** Sections at depth 0 sit under the card's h3; a nested card's go two levels further down (HTML stops at 6). */
function headingLevel(depth: number): number {
  return Math.min(4 + 2 * depth, 6);
}

/** One foldable section: Fluent 2's accordion item, its heading a button (Enter and Space fold and unfold). */
function section(title: string, expanded: boolean, level: number, content: Node): HTMLElement {
  return h(
    "fluent-accordion-item",
    {
      class: "card-section",
      expanded,
      "heading-level": Math.min(level, 6),
      size: "small",
      block: true,
    },
    h("span", { slot: "heading" }, title),
    content
  );
}

function cardBody(entity: EntityJson, depth: number): HTMLElement {
  const parts: HTMLElement[] = [];
  let accordion: HTMLElement | undefined;
  for (const s of sectionsOf(entity)) {
    if (s.title === undefined) {
      accordion = undefined;
      parts.push(fieldList(entity, s.properties, depth));
      continue;
    }
    // Consecutive titled sections share one accordion (several may be open at once, as in Excel's card).
    if (!accordion) {
      accordion = h("fluent-accordion", { class: "card-sections", "expand-mode": "multi" });
      parts.push(accordion);
    }
    accordion.append(
      section(s.title, !s.collapsed, headingLevel(depth), fieldList(entity, s.properties, depth))
    );
  }
  return h("div", { class: "card-body" }, ...parts);
}

function referenced(entity: EntityJson, ref: unknown): string | undefined {
  if (typeof ref === "string") return ref;
  if (!isRecord(ref) || typeof ref.property !== "string") return undefined;
  const cell = fieldValue(
    { kind: "entity", text: entityText(entity), value: entity },
    ref.property
  );
  return cell.length === 1 && cell[0].length === 1 ? cellText(cell[0][0]) : undefined;
}

/** The card of an entity cell, with its fields. */
export function cardView(entity: EntityJson, options: { id?: string } = {}): HTMLElement {
  const layouts = entity.layouts;
  const card = isRecord(layouts) && isRecord(layouts.card) ? layouts.card : {};
  const title = referenced(entity, card.title) ?? entityText(entity);
  const subtitle = referenced(entity, card.subTitle);
  const provider = isRecord(entity.provider) ? entity.provider.description : undefined;
  return h(
    "section",
    { class: "card", id: options.id, "aria-label": `Card: ${title}` },
    h(
      "header",
      { class: "card-header" },
      cardIcon(),
      h("h3", { class: "card-title" }, title),
      subtitle ? h("p", { class: "card-subtitle" }, subtitle) : null
    ),
    cardBody(entity, 0),
    typeof provider === "string" ? h("footer", { class: "card-provider" }, provider) : null
  );
}
