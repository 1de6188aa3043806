/**
 * The Excel page's side of the runtime: settings in OfficeRuntime.storage (outside the workbook), applied
 * once Office is ready. Outside Excel (the preview page in a plain browser) OfficeRuntime does not exist, and
 * the page's localStorage (same origin, also outside any workbook) stands in. Never imported by Node code.
 */
import { buildConfig } from "./build-config";
import { cacheControls, type CacheControls } from "./cache-controls";
import { IdbBlobStore } from "./idb-store";
import { runtimeIfReady } from "./runtime";
import { Settings, type KeyValueStorage } from "./settings";
import { officeSignInPorts } from "./sign-in/office-ports";
import { GatewaySession } from "./sign-in/session";

function browserStorage(): KeyValueStorage {
  return {
    getItem: async (key) => window.localStorage.getItem(key),
    setItem: async (key, value) => window.localStorage.setItem(key, value),
    removeItem: async (key) => window.localStorage.removeItem(key),
  };
}

function pageStorage(): KeyValueStorage {
  return typeof OfficeRuntime !== "undefined" && OfficeRuntime.storage
    ? OfficeRuntime.storage
    : browserStorage();
}

let settings: Settings | undefined;
let session: GatewaySession | undefined;
let savedCache: IdbBlobStore | undefined;

/** The page's saved cache (IndexedDB), one for every runtime the page configures; none without IndexedDB. */
function pageCacheStore(): IdbBlobStore | undefined {
  if (typeof indexedDB === "undefined") return undefined;
  savedCache ??= new IdbBlobStore();
  return savedCache;
}

/** Signing in to the team gateway (Team gateway mode), one session for the page. */
export function officeSignIn(): GatewaySession {
  session ??= new GatewaySession({
    baseUrl: () => officeSettings().baseUrl(),
    storage: pageStorage(),
    ports: officeSignInPorts(),
  });
  return session;
}

export function officeSettings(): Settings {
  if (!settings) {
    const store = pageCacheStore();
    settings = new Settings(
      pageStorage(),
      buildConfig,
      store ? { savedCache: { store } } : {},
      officeSignIn()
    );
  }
  return settings;
}

/** The saved cache's size and "Clear cache", for the taskpane. */
export function officeCacheControls(): CacheControls {
  return cacheControls(pageCacheStore(), runtimeIfReady);
}

/** Configure the shared runtime from stored settings; cells arriving meanwhile wait for it. */
export function bootstrapOfficeRuntime(): void {
  officeSettings()
    // Without office.js (its script did not load) there is no Office to wait for; the page says so.
    .apply(typeof Office === "undefined" ? undefined : Office.onReady())
    .catch(() => undefined); // a missing URL is reported by every cell's message
}
