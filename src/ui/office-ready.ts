/**
 * A page that needs office.js says so when office.js does not come: the script tag failed (no network, a
 * blocked CDN, a proxy), or Office never answers onReady. Without this the page kept saying "Loading
 * Cryptometrics…" forever. The message says what is missing and what can help, with Reload (which does
 * help: the failure is usually the network's). If Office answers late, the page starts all the same.
 */
import { h, replaceChildren } from "./dom";

/** Office answers onReady within a second or two where it runs; this long is "not answering". */
const OFFICE_READY_TIMEOUT_MS = 20_000;

function officeScript(): string {
  const script = [...document.scripts].find((s) => /office(\.debug)?\.js/i.test(s.src));
  return script ? new URL(script.src).host : "Microsoft's CDN";
}

function notice(root: HTMLElement, message: string): void {
  const reload = h(
    "fluent-button",
    { id: "office-reload", appearance: "primary", onclick: () => window.location.reload() },
    "Reload"
  );
  replaceChildren(
    root,
    h(
      "div",
      { id: "office-missing", class: "stack office-missing", role: "alert" },
      h("h1", {}, "Cryptometrics could not start"),
      h("p", {}, message),
      h("div", { class: "buttons" }, reload)
    )
  );
  root.removeAttribute("aria-busy");
  document.body.dataset.ready = "office-missing";
}

/**
 * Starts the page once Office is ready. `ready` is undefined when the office.js script did not load
 * (its global is missing): the page says so at once. `start` runs once, whenever Office answers.
 */
export function whenOfficeReady<T>(
  root: HTMLElement,
  ready: (() => Promise<T>) | undefined,
  start: (info: T) => void | Promise<void>,
  timeoutMs = OFFICE_READY_TIMEOUT_MS
): void {
  if (!ready) {
    notice(
      root,
      `Office's script (office.js, from ${officeScript()}) did not load, and Cryptometrics needs it. Check your internet connection, or ask whoever manages your network whether ${officeScript()} is blocked, then reload.`
    );
    return;
  }
  let started = false;
  const timer = setTimeout(() => {
    if (!started)
      notice(
        root,
        "Office did not answer: Cryptometrics is still waiting for it. Reload the page (in Excel: close the add-in and open it again)."
      );
  }, timeoutMs);
  void ready().then(
    (info) => {
      started = true;
      clearTimeout(timer);
      return start(info);
    },
    () => {
      clearTimeout(timer);
      notice(root, "Office could not start Cryptometrics. Reload the page.");
    }
  );
}
