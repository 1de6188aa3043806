/**
 * Fluent 2 form controls, built so that each has an accessible name, states its validity and takes arrow
 * keys where a list does. @fluentui/web-components 3.1 leaves some of that to the page:
 * - a text input is named by the text in its own default slot (a <label slot="label"> of a fluent-field
 *   does not reach the input inside its shadow root), so the label goes there;
 * - a dropdown's combobox (a light-DOM button or input the component inserts) gets no name, an empty
 *   aria-controls and no aria-expanded until first opened: the label, listbox id and closed state are set
 *   here, and the name is set again whenever the component re-inserts its control;
 * - an inline error is the field's message, set as the input's description (ARIA element reflection, which
 *   crosses into the shadow root) with aria-invalid on the input itself;
 * - Enter on a closed dropdown opens its list and the button's own click closes it at once: the click is
 *   suppressed, so Enter opens, arrows move, Enter chooses; Escape there closes only the list.
 */
import { h, replaceChildren } from "./dom";

export interface Choice {
  value: string;
  label: string;
}

/** The inner <input> or <textarea> of a Fluent text control, once rendered. */
function innerControl(host: HTMLElement): HTMLElement | undefined {
  const control = (host as HTMLElement & { control?: HTMLElement }).control;
  return control instanceof HTMLElement ? control : undefined;
}

/** Runs `fn` now if the component rendered its inner control, else on the next frames until it has. */
function whenRendered(host: HTMLElement, fn: (control: HTMLElement) => void, tries = 60): void {
  const control = innerControl(host);
  if (control) fn(control);
  else if (tries > 0) requestAnimationFrame(() => whenRendered(host, fn, tries - 1));
}

export interface TextField {
  /** The fluent-field: label, input and messages. */
  element: HTMLElement;
  /** The fluent-text-input (focus it, read its value). */
  input: HTMLElement;
  value(): string;
  setValue(value: string): void;
  /** Shows an inline error (and marks the input invalid), or clears it with undefined. */
  setError(message: string | undefined): void;
  focus(): void;
}

export interface TextFieldOptions {
  id: string;
  label: string;
  type?: "text" | "password" | "url" | "email" | "tel";
  placeholder?: string;
  /** Always-visible help under the input. */
  hint?: string;
  inputmode?: "numeric" | "decimal" | "text" | "url";
  /** Leaves the browser's autofill out (keys, addresses). Default "off". */
  autocomplete?: string;
  spellcheck?: boolean;
  maxlength?: number;
}

type ValidatingInput = HTMLElement & { value: string };

/**
 * Enter in a field does what its form's button does, as in a web form (the pages have no <form>, so Fluent's
 * fields submit nothing themselves). Not while an input method is composing (Enter then picks a word).
 */
export function submitOnEnter(field: { input: HTMLElement }, button: HTMLElement): void {
  field.input.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.isComposing || event.repeat) return;
    event.preventDefault();
    button.click();
  });
}

export function textField(options: TextFieldOptions): TextField {
  const input = h(
    "fluent-text-input",
    {
      id: options.id,
      slot: "input",
      type: options.type ?? "text",
      placeholder: options.placeholder ?? null,
      autocomplete: options.autocomplete ?? "off",
      spellcheck: options.spellcheck === undefined ? null : String(options.spellcheck),
      maxlength: options.maxlength ?? null,
      inputmode: options.inputmode ?? null,
      class: "text-input",
    },
    h("span", { id: `${options.id}-label-text` }, options.label)
  ) as ValidatingInput;
  const hint = options.hint
    ? h("fluent-text", { slot: "message", id: `${options.id}-hint`, size: "200" }, options.hint)
    : null;
  const error = h("fluent-text", {
    slot: "message",
    id: `${options.id}-error`,
    class: "field-error",
    size: "200",
    hidden: true,
  });
  const element = h(
    "fluent-field",
    { id: `${options.id}-field`, class: "field" },
    input,
    hint,
    error
  );
  const describe = (control: HTMLElement, invalid: boolean): void => {
    if (invalid) control.setAttribute("aria-invalid", "true");
    else control.removeAttribute("aria-invalid");
    const described = [invalid ? error : null, hint].filter((e): e is HTMLElement => e !== null);
    (
      control as HTMLElement & { ariaDescribedByElements?: Element[] | null }
    ).ariaDescribedByElements = described.length > 0 ? described : null;
  };
  whenRendered(input, (control) => describe(control, false));
  return {
    element,
    input,
    value: () => input.value ?? "",
    setValue: (value) => {
      input.value = value;
    },
    setError(message) {
      const invalid = message !== undefined && message !== "";
      replaceChildren(error, invalid ? message : null);
      error.hidden = !invalid;
      // Not the component's setCustomValidity: in 3.1 it throws on "" (clearing) and pops the browser's
      // own validation bubble; the message under the field and aria-invalid say it instead.
      input.toggleAttribute("data-invalid", invalid);
      whenRendered(input, (control) => describe(control, invalid));
    },
    focus: () => input.focus(),
  };
}

/** Escape key events that closed an open dropdown: they must not also close the page or the detail. */
const popupEscapes = new WeakSet<Event>();

/** True when this Escape only closed a dropdown's list (the component does not mark it handled). */
export function closedPopup(event: Event): boolean {
  return popupEscapes.has(event);
}

export interface DropdownControl {
  element: HTMLElement;
  dropdown: HTMLElement;
  value(): string;
  setValue(value: string): void;
  setChoices(choices: readonly Choice[], value?: string): void;
  onChange(listener: (value: string) => void): void;
  /** Shows an inline error under the dropdown (and marks its combobox invalid), or clears it. */
  setError(message: string | undefined): void;
  /** Keyboard focus on the dropdown's combobox (nothing happens before the component has made it). */
  focus(): void;
}

/**
 * Fluent's dropdown keeps its control at least 160 px wide, wider than a 320 px pane at 200 % zoom
 * (160 CSS px) leaves: the page scrolled sideways. Its shadow root has no part to style from outside, so a
 * constructed sheet (allowed by the pages' CSP, as Fluent's own are) lets it shrink with its field.
 */
let narrowSheet: CSSStyleSheet | undefined;
function letShrink(dropdown: HTMLElement): void {
  const root = dropdown.shadowRoot;
  if (!root || typeof CSSStyleSheet === "undefined") return;
  try {
    if (!narrowSheet) {
      narrowSheet = new CSSStyleSheet();
      // `:host .control` outranks the component's own `.control`, whichever sheet comes last.
      narrowSheet.replaceSync(":host .control { min-width: 0; }");
    }
    if (!root.adoptedStyleSheets.includes(narrowSheet))
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, narrowSheet];
  } catch {
    // A host without constructed sheets keeps Fluent's minimum: wider, still usable.
  }
}

type FluentDropdown = HTMLElement & {
  value: string | null;
  open?: boolean;
  listbox?: HTMLElement;
};

/** A labelled Fluent dropdown of fixed choices (a few to a few dozen). */
export function dropdownField(
  id: string,
  label: string,
  choices: readonly Choice[],
  initial?: string
): DropdownControl {
  const labelId = `${id}-label`;
  const listbox = h("fluent-listbox", { id: `${id}-listbox` });
  let current = initial ?? choices[0]?.value ?? "";
  const listeners: ((value: string) => void)[] = [];
  const options = (list: readonly Choice[]): HTMLElement[] =>
    list.map((c) => h("fluent-option", { value: c.value, selected: c.value === current }, c.label));
  replaceChildren(listbox, ...options(choices));
  const dropdown = h(
    "fluent-dropdown",
    { id, slot: "input", "aria-labelledby": labelId, value: current || null, class: "dropdown" },
    listbox
  ) as FluentDropdown;
  dropdown.open = false;
  letShrink(dropdown);
  const error = h("fluent-text", {
    slot: "message",
    id: `${id}-error`,
    class: "field-error",
    size: "200",
    hidden: true,
  });
  const control = (): HTMLElement | null =>
    dropdown.querySelector<HTMLElement>(":scope > [slot='control']");
  /** The error on the combobox itself: aria-invalid, and the message as its description. */
  const markInvalid = (target: HTMLElement): void => {
    const invalid = !error.hidden;
    if (invalid) target.setAttribute("aria-invalid", "true");
    else target.removeAttribute("aria-invalid");
    if (invalid) target.setAttribute("aria-describedby", error.id);
    else target.removeAttribute("aria-describedby");
  };
  // The component inserts (and may re-insert) its combobox once connected: name it each time, and show
  // the value chosen before it was ready.
  new MutationObserver(() => {
    const target = control();
    if (!target) return;
    if (target.getAttribute("aria-labelledby") !== labelId)
      target.setAttribute("aria-labelledby", labelId);
    markInvalid(target);
    requestAnimationFrame(() => {
      if (dropdown.listbox && dropdown.value !== current) dropdown.value = current;
    });
  }).observe(dropdown, { childList: true });
  dropdown.addEventListener(
    "keydown",
    (event) => {
      // Seen before the component closes the list (capture phase), while it is still open.
      if (event.key === "Escape" && dropdown.open) popupEscapes.add(event);
      // Enter on the component's <button> would also "click" it, which toggles the list shut again right
      // after the keydown opened it (or reopens it after a choice): the component handles Enter itself.
      if (event.key === "Enter") event.preventDefault();
    },
    { capture: true }
  );
  dropdown.addEventListener("change", () => {
    current = dropdown.value ?? "";
    listeners.forEach((l) => l(current));
  });
  const select = (value: string): void => {
    current = value;
    for (const option of listbox.children)
      option.toggleAttribute("selected", option.getAttribute("value") === value);
    if (dropdown.listbox) dropdown.value = value;
    else dropdown.setAttribute("value", value);
  };
  const element = h(
    "fluent-field",
    { id: `${id}-field`, class: "field" },
    h("label", { slot: "label", id: labelId }, label),
    dropdown,
    error
  );
  return {
    element,
    dropdown,
    setError(message) {
      replaceChildren(error, message || null);
      error.hidden = !message;
      const target = control();
      if (target) markInvalid(target);
    },
    // Not the component's focus(): it throws until the component has inserted its combobox.
    focus: () => control()?.focus(),
    value: () => current,
    setValue: select,
    setChoices(list, value) {
      const keep =
        value ?? (list.some((c) => c.value === current) ? current : (list[0]?.value ?? ""));
      current = keep;
      replaceChildren(listbox, ...options(list));
      // The listbox picks up its new options on slotchange; select once it has.
      requestAnimationFrame(() => select(keep));
    },
    onChange: (l) => listeners.push(l),
  };
}

interface CheckboxControl {
  element: HTMLElement;
  checkbox: HTMLElement & { checked: boolean };
  checked(): boolean;
  setChecked(checked: boolean): void;
  onChange(listener: (checked: boolean) => void): void;
}

/** A Fluent checkbox with its label after it (the field names the checkbox). */
export function checkboxField(id: string, label: string, checked = false): CheckboxControl {
  const checkbox = h("fluent-checkbox", { id, slot: "input", checked }) as HTMLElement & {
    checked: boolean;
  };
  const element = h(
    "fluent-field",
    { id: `${id}-field`, "label-position": "after", class: "field check" },
    h("label", { slot: "label" }, label),
    checkbox
  );
  return {
    element,
    checkbox,
    checked: () => checkbox.checked,
    setChecked: (value) => {
      checkbox.checked = value;
    },
    onChange: (l) => checkbox.addEventListener("change", () => l(checkbox.checked)),
  };
}
