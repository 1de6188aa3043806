/**
 * The last refresh, whoever ran it (the ribbon's Refresh button or the taskpane), so the taskpane can show
 * its time. One instance per page: the taskpane bundle depends on the commands bundle, so both use this one.
 */
import type { RefreshScope } from "./port";

export type { RefreshScope };

export interface RefreshRecord {
  at: number;
  scope: RefreshScope;
  source: "ribbon" | "taskpane";
  ok: boolean;
  message: string;
}

export class RefreshLog {
  private record?: RefreshRecord;
  private readonly listeners = new Set<(record: RefreshRecord) => void>();

  get last(): RefreshRecord | undefined {
    return this.record;
  }

  add(record: RefreshRecord): void {
    this.record = record;
    for (const l of [...this.listeners]) l(record);
  }

  subscribe(listener: (record: RefreshRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export const refreshLog = new RefreshLog();
