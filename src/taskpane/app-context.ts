/** What every view of the taskpane is given: the shared runtime's services, the workbook, navigation. */
import type { Registry } from "../sheet/registry";
import type { RefreshLog } from "../excel/refresh-log";
import type { BuildConfig } from "../runtime/build-config";
import type { CacheControls } from "../runtime/cache-controls";
import type { Diagnostics } from "../runtime/diagnostics";
import type { Runtime } from "../runtime/runtime";
import type { Settings } from "../runtime/settings";
import type { CatalogueStore } from "./model/catalogue-store";
import type { DataSourceWatch } from "../runtime/data-source";
import type { BuilderState } from "./model/formula-builder";
import type { WorkbookPort } from "../excel/port";

export type SectionId = "browse" | "build" | "tables" | "refresh" | "diagnostics" | "settings";

export interface AppContext {
  build: BuildConfig;
  settings: Settings;
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
  now(): number;
  /** Settings changed the connection: catalogues reload. */
  connectionChanged(): void;
  onConnectionChanged(listener: () => void): void;
  navigate(section: SectionId): void;
  openInBuilder(state: BuilderState): void;
}
