/**
 * The Excel page's side of the runtime: settings in OfficeRuntime.storage (outside the workbook), applied
 * once Office is ready. Outside Excel (the preview page in a plain browser) OfficeRuntime does not exist, and
 * the page's localStorage (same origin, also outside any workbook) stands in. Never imported by Node code.
 */
import { buildConfig } from "./build-config";
import { cacheControls, type CacheControls } from "./cache-controls";
import type { BlobStore } from "../engine";
import { runtimeIfReady } from "./runtime";
import { Settings, type GatewaySignIn, type KeyValueStorage } from "./settings";
import type { GatewaySession } from "./sign-in/session";

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
let session: Promise<GatewaySession> | undefined;
let savedCache: BlobStore | undefined;

/**
 * The page's saved cache (IndexedDB), one for every runtime the page configures; none without IndexedDB. Its
 * code (the store and the idb library, about 1.8 kB of functions.js gzipped) is a chunk of its own, loaded by
 * the first read or write, which every store call waits for: the first recalculation asks it anyway.
 */
function pageCacheStore(): BlobStore | undefined {
  if (typeof indexedDB === "undefined") return undefined;
  savedCache ??= lazyStore(() =>
    import(/* webpackChunkName: "saved-cache" */ "./idb-store").then((m) => new m.IdbBlobStore())
  );
  return savedCache;
}

/** A store whose code is loaded by its first call; a load that failed is tried again by the next one. */
function lazyStore(load: () => Promise<BlobStore>): BlobStore {
  let loaded: Promise<BlobStore> | undefined;
  const store = (): Promise<BlobStore> => {
    loaded ??= load();
    loaded.catch(() => {
      loaded = undefined;
    });
    return loaded;
  };
  return {
    getMany: async (keys) => (await store()).getMany(keys),
    setMany: async (entries) => (await store()).setMany(entries),
    deleteMany: async (keys) => (await store()).deleteMany(keys),
    clear: async () => (await store()).clear(),
    usage: async () => (await store()).usage(),
  };
}

/**
 * Signing in to the team gateway (Team gateway mode), one session for the page. Its code is a chunk of its own,
 * loaded the first time it is asked for (the taskpane, or a cell in Team gateway mode): the functions of a
 * workbook connected with a key never need it. A chunk that could not be loaded is asked for again next time.
 */
export function officeSignIn(): Promise<GatewaySession> {
  // Each module's export read in its own then(): what knip (`npm run deadcode`) follows as a use of it.
  session ??= Promise.all([
    import(/* webpackChunkName: "sign-in" */ "./sign-in/session").then((m) => m.GatewaySession),
    import(/* webpackChunkName: "sign-in" */ "./sign-in/office-ports").then(
      (m) => m.officeSignInPorts
    ),
  ]).then(
    ([GatewaySession, officeSignInPorts]) =>
      new GatewaySession({
        baseUrl: () => officeSettings().baseUrl(),
        storage: pageStorage(),
        ports: officeSignInPorts(),
      }),
    (error: unknown) => {
      session = undefined;
      throw error;
    }
  );
  return session;
}

/** The session as the settings use it, loaded when they first do. */
const pageSignIn: GatewaySignIn = {
  token: async () => {
    const { token } = await officeSignIn();
    return typeof token === "function" ? token() : token;
  },
  account: async () => (await officeSignIn()).account(),
};

export function officeSettings(): Settings {
  if (!settings) {
    const store = pageCacheStore();
    settings = new Settings(
      pageStorage(),
      buildConfig,
      store ? { savedCache: { store } } : {},
      pageSignIn
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
