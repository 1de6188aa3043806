/**
 * The Fluent UI web components the pages use, registered once. Only these are bundled: each registration
 * pulls its component's code, and the page budget is small (see the bundle sizes in the README).
 */
import {
  fluentButton,
  fluentDivider,
  fluentProgressRing,
  fluentRadio,
  fluentRadioGroup,
  fluentTab,
  fluentTabPanel,
  fluentTabs,
  fluentTextField,
  provideFluentDesignSystem,
} from "@fluentui/web-components";

let registered = false;

export function registerFluent(): void {
  if (registered) return;
  registered = true;
  provideFluentDesignSystem().register(
    fluentButton(),
    fluentDivider(),
    fluentProgressRing(),
    fluentRadio(),
    fluentRadioGroup(),
    fluentTab(),
    fluentTabPanel(),
    fluentTabs(),
    fluentTextField()
  );
}

/** The value of a Fluent form control (text field, radio group) or a native one. */
export interface ValueElement extends HTMLElement {
  value: string;
}

export function valueOf(element: HTMLElement): string {
  return (element as ValueElement).value ?? "";
}

export function setValue(element: HTMLElement, value: string): void {
  (element as ValueElement).value = value;
}
