/**
 * @jest-environment jsdom
 *
 * Text the pages show cannot reorder itself: every bidirectional formatting character in text nodes and in
 * the attributes people read shows as U+FFFD, the same set the CLI's output neutralises (one list,
 * src/sheet/safe-text.ts). Data attributes (ids, values) are left exactly as they came.
 */
import { h, setText } from "../../src/ui/dom";
import { printable } from "../../src/cli/output/cells-text";
import { BIDI_CONTROL_CLASS } from "../../src/sheet/safe-text";

const BIDI = [
  "\u061c",
  "\u200e",
  "\u200f",
  "\u202a",
  "\u202b",
  "\u202c",
  "\u202d",
  "\u202e",
  "\u2066",
  "\u2067",
  "\u2068",
  "\u2069",
];

test("a name with an override shows the placeholder, not a reversed file name", () => {
  const name = "Aave \u202egnp.exe\u202c";
  const el = h("li", { title: name, "aria-label": name, "data-id": name }, name);
  expect(el.textContent).toBe("Aave \ufffdgnp.exe\ufffd");
  expect(el.getAttribute("title")).toBe("Aave \ufffdgnp.exe\ufffd");
  expect(el.getAttribute("aria-label")).toBe("Aave \ufffdgnp.exe\ufffd");
  expect(el.getAttribute("data-id")).toBe(name);
});

test("every bidirectional formatting character, as the CLI shows each", () => {
  for (const c of BIDI) {
    const el = h("span", {}, `a${c}b`);
    expect([c.codePointAt(0), el.textContent]).toEqual([c.codePointAt(0), "a\ufffdb"]);
    expect(printable(`a${c}b`)).toBe("a\ufffdb");
  }
  // The list is the one the class says: no character below U+3000 in it that the loop above does not hold.
  const listed = new RegExp(`[${BIDI_CONTROL_CLASS}]`);
  const inClass = Array.from({ length: 0x3000 }, (_, i) => String.fromCharCode(i)).filter((c) =>
    listed.test(c)
  );
  expect(inClass).toEqual(BIDI);
});

test("setText neutralises what views write directly; right-to-left text itself is untouched", () => {
  const el = document.createElement("p");
  setText(el, "Chosen: \u2067evil\u2069, \u05e9\u05dc\u05d5\u05dd, مرحبا");
  expect(el.textContent).toBe("Chosen: \ufffdevil\ufffd, \u05e9\u05dc\u05d5\u05dd, مرحبا");
});
