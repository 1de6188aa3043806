/**
 * Fluent 2 for the pages: the @fluentui/web-components 3 elements they use, each defined by importing its
 * define module (only these are bundled: every definition brings its component's code), and the light or
 * dark token set of @fluentui/tokens on the document (see theme.ts for which one). The tokens land as CSS
 * custom properties in a constructed style sheet, which the pages' Content-Security-Policy does not govern;
 * the components style themselves the same way (no <style> element, no inline script, no eval).
 */
import "@fluentui/web-components/accordion.js";
import "@fluentui/web-components/accordion-item.js";
import "@fluentui/web-components/button.js";
import "@fluentui/web-components/checkbox.js";
import "@fluentui/web-components/divider.js";
import "@fluentui/web-components/dropdown.js";
import "@fluentui/web-components/field.js";
import "@fluentui/web-components/link.js";
import "@fluentui/web-components/listbox.js";
import "@fluentui/web-components/menu.js";
import "@fluentui/web-components/menu-button.js";
import "@fluentui/web-components/menu-item.js";
import "@fluentui/web-components/menu-list.js";
import "@fluentui/web-components/message-bar.js";
import "@fluentui/web-components/option.js";
import "@fluentui/web-components/progress-bar.js";
import "@fluentui/web-components/spinner.js";
import "@fluentui/web-components/tab.js";
import "@fluentui/web-components/tablist.js";
import "@fluentui/web-components/text.js";
import "@fluentui/web-components/text-input.js";
import "@fluentui/web-components/textarea.js";
import { setTheme } from "@fluentui/web-components";
import { webDarkTheme, webLightTheme } from "@fluentui/tokens";
import { pageTheme, type OfficeThemeLike, type ThemeKind } from "./theme";

/** Puts the token set on the document and tells the page CSS which one it is (html[data-theme]). */
function applyTheme(kind: ThemeKind): void {
  setTheme(kind === "dark" ? webDarkTheme : webLightTheme);
  document.documentElement.dataset.theme = kind;
  document.documentElement.style.colorScheme = kind;
}

let officeTheme: () => OfficeThemeLike | undefined = () => undefined;
let following = false;

/**
 * Follows the theme from now on: Office's (read through `office`, which returns undefined outside Office)
 * and, outside Office, the system's colour scheme as it changes. Call it once early (the system's scheme,
 * before office.js is ready: no flash of the wrong theme) and again with Office's theme once it is known.
 * Inside Office the pane is reloaded when the user switches Office's theme.
 */
export function followTheme(office?: () => OfficeThemeLike | undefined): void {
  if (office) officeTheme = office;
  const query = window.matchMedia("(prefers-color-scheme: dark)");
  const apply = (): void => applyTheme(pageTheme(officeTheme(), query.matches));
  apply();
  if (!following) query.addEventListener("change", apply);
  following = true;
}

/** The value of a Fluent form control (text input, dropdown, textarea). */
interface ValueElement extends HTMLElement {
  value: string;
}

export function valueOf(element: HTMLElement): string {
  return (element as ValueElement).value ?? "";
}
