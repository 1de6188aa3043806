/**
 * @jest-environment jsdom
 *
 * The card view's structure: Fluent 2 accordion items for the layout's sections (folded as the layout says),
 * a nested card folded under its text, and service text always as text. The elements' behaviour (Enter and
 * Space, clicks, forced colours) is a browser matter: test/e2e/preview.e2e.test.ts.
 */
import { cardView } from "../../src/ui/card-view";

const hostile = `Tick & Tock "Perps" <b>beta</b>`;

function entity(): Record<string, unknown> {
  return {
    type: "Entity",
    text: "Aave",
    properties: {
      Id: { type: "String", basicValue: "aave" },
      Name: { type: "String", basicValue: hostile },
      Revenue: {
        type: "FormattedNumber",
        basicValue: 1250.5,
        numberFormat: "$#,##0",
        propertyMetadata: { sublabel: "<i>as of</i> 2026-11-19" },
      },
      Parent: {
        type: "Entity",
        text: "Parent <img src=x>",
        properties: { Id: { type: "String", basicValue: "parent" } },
      },
    },
    layouts: {
      card: {
        title: { property: "Name" },
        sections: [
          { title: "Overview <em>", properties: ["Id", "Name"] },
          { title: "Latest values", collapsed: true, properties: ["Revenue"] },
          { title: "Related", properties: ["Parent"] },
        ],
      },
    },
    provider: { description: "demo data" },
  };
}

test("sections are Fluent accordion items in one multi-expand accordion, folded as the layout says", () => {
  const card = cardView(entity());
  expect(card.querySelector("details, summary")).toBeNull();
  const accordion = card.querySelector(".card-body > fluent-accordion.card-sections");
  expect(accordion?.getAttribute("expand-mode")).toBe("multi");
  const items = [...accordion!.children];
  expect(items.map((i) => i.tagName.toLowerCase())).toEqual(Array(3).fill("fluent-accordion-item"));
  expect(items.map((i) => i.querySelector(":scope > [slot=heading]")?.textContent)).toEqual([
    "Overview <em>",
    "Latest values",
    "Related",
  ]);
  // The first open, the collapsed one folded, the others open.
  expect(items.map((i) => i.hasAttribute("expanded"))).toEqual([true, false, true]);
  // Under the card's h3.
  expect(items.map((i) => i.getAttribute("heading-level"))).toEqual(["4", "4", "4"]);
  // Four fields of its own, one of the nested card.
  expect(card.querySelectorAll("dt")).toHaveLength(5);
});

test("a nested card folds under its text in its own accordion, a level deeper", () => {
  const nested = cardView(entity()).querySelector("fluent-accordion.card-nested");
  expect(nested).not.toBeNull();
  const item = nested!.querySelector(":scope > fluent-accordion-item");
  expect(item?.hasAttribute("expanded")).toBe(false);
  expect(item?.getAttribute("heading-level")).toBe("5");
  expect(item?.querySelector("[slot=heading]")?.textContent).toBe("Parent <img src=x>");
  expect(item?.querySelector(".card-body dt")?.textContent).toBe("Id");
});

test("a click from a nested card's item stops at its accordion (the outer one would toggle it back)", () => {
  const card = cardView(entity());
  document.body.append(card);
  const outer = card.querySelector(".card-sections > fluent-accordion-item:last-child")!;
  const seen: EventTarget[] = [];
  outer.addEventListener("click", (e) => seen.push(e.target!));
  card
    .querySelector(".card-nested > fluent-accordion-item")!
    .dispatchEvent(new MouseEvent("click", { bubbles: true }));
  expect(seen).toEqual([]);
  card.remove();
});

test("service text is text: no element from a name, a title, a note or a section title", () => {
  const card = cardView(entity());
  expect(card.querySelector("b, i, em, img")).toBeNull();
  expect(card.querySelector(".card-title")?.textContent).toBe(hostile);
  expect(card.querySelector(".card-note")?.textContent).toBe("<i>as of</i> 2026-11-19");
  expect(card.getAttribute("aria-label")).toBe(`Card: ${hostile}`);
});

test("without a layout every field shows as one list, with no accordion", () => {
  const plain = entity();
  delete plain.layouts;
  const card = cardView(plain);
  expect(card.querySelector(".card-sections")).toBeNull();
  expect(card.querySelectorAll(".card > .card-body > dl.card-fields > dt")).toHaveLength(4);
});
