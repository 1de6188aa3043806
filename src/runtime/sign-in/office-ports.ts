/**
 * The Excel page's sign-in ports: MSAL's nestable public client application when the Office host offers
 * nested app authentication (requirement set NestedAppAuth 1.1), the Office dialog API otherwise. The only
 * file that touches MSAL or Office for sign-in; never imported by Node code.
 */
import type { DialogPort, NestableApp } from "./sources";
import type { SignInPorts } from "./session";

function hasNaa(): boolean {
  try {
    return (
      typeof Office !== "undefined" &&
      Office.context?.requirements?.isSetSupported("NestedAppAuth", "1.1") === true
    );
  } catch {
    return false;
  }
}

/** Office's dialog: opens the sign-in page, resolves with its one message, rejects when the user closes it. */
function officeDialog(): DialogPort | undefined {
  if (typeof Office === "undefined" || typeof Office.context?.ui?.displayDialogAsync !== "function")
    return undefined;
  return {
    open: (url) =>
      new Promise<string>((resolve, reject) => {
        Office.context.ui.displayDialogAsync(
          url,
          { height: 60, width: 30, promptBeforeOpen: false },
          (opened) => {
            if (opened.status !== Office.AsyncResultStatus.Succeeded) {
              // 12007: a dialog is already open; 12009: the user blocked it.
              reject(new Error(`the sign-in window could not open (${opened.error.message})`));
              return;
            }
            const dialog = opened.value;
            dialog.addEventHandler(Office.EventType.DialogMessageReceived, (arg) => {
              dialog.close();
              const message = (arg as { message?: unknown }).message;
              resolve(typeof message === "string" ? message : "");
            });
            dialog.addEventHandler(Office.EventType.DialogEventReceived, () =>
              reject(new Error("the sign-in window was closed"))
            );
          }
        );
      }),
  };
}

export function officeSignInPorts(): SignInPorts {
  return {
    async nestable(config): Promise<NestableApp | undefined> {
      if (!hasNaa()) return undefined;
      // MSAL loads only here, when the host offers NAA and sign-in starts: a chunk of its own (about 300 kB),
      // not in the functions bundle every workbook loads.
      const { createNestablePublicClientApplication } = await import("@azure/msal-browser");
      return createNestablePublicClientApplication({
        auth: { clientId: config.clientId, authority: config.authority },
        // The host's broker holds the session; nothing of it is kept in the page's storage.
        cache: { cacheLocation: "memoryStorage" },
      });
    },
    dialog: officeDialog,
    pageOrigin: new URL(".", window.location.href).toString(),
  };
}
