/** What every view of the taskpane is given: the shared runtime's services, the workbook, navigation. */
import type { Registry } from "../sheet/registry";
import type { RefreshLog } from "../excel/refresh";
import type { RefreshChanges } from "../excel/refresh-changes";
import type { BuildConfig } from "../runtime/build-config";
import type { CacheControls } from "../runtime/cache-controls";
import type { Diagnostics } from "../runtime/diagnostics";
import type { Runtime } from "../runtime/runtime";
import type { Settings } from "../runtime/settings";
import type { CatalogueStore } from "./model/catalogue-store";
import type { DataSourceWatch } from "../runtime/data-source";
import type { BuilderState } from "./model/formula-builder";
import type { WorkbookPort } from "../excel/port";
import type { GatewaySession } from "../runtime/sign-in/session";

/** The sections behind the navigation's tabs. */
export type TabId = "browse" | "build" | "tables";
/** The sections the More menu opens as pages (with Back). */
export type PageId = "refresh" | "diagnostics" | "settings";
export type SectionId = TabId | PageId;

export interface AppContext {
  build: BuildConfig;
  settings: Settings;
  /** Signing in to the team gateway (Team gateway mode); absent where the page offers no sign-in. */
  signIn?: GatewaySession;
  /** The shared runtime once configured; throws why it is not. */
  runtime(): Promise<Runtime>;
  diagnostics: Diagnostics;
  /** The cache saved on this computer: its size, and Clear cache. */
  cache: CacheControls;
  workbook: WorkbookPort;
  source: DataSourceWatch;
  catalogue: CatalogueStore;
  registry(): Promise<Registry>;
  refreshLog: RefreshLog;
  /** What the last Refresh all found, the ribbon's or the taskpane's (refresh-changes.ts). */
  refreshChanges: RefreshChanges;
  now(): number;
  /** Settings changed the connection: catalogues reload. */
  connectionChanged(): void;
  onConnectionChanged(listener: () => void): void;
  /** Shows a section and puts keyboard focus there (its tab, or the page's title). */
  navigate(section: SectionId): void;
  openInBuilder(state: BuilderState): void;
}
