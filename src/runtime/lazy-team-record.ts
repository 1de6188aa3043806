/**
 * The team gateway's record (team-record.ts), its code loaded the first time a figure asks it: CHANGES, or a
 * vintage= under a gateway. Most workbooks ask neither, and on the Excel page the record's reader (its bounds,
 * its checks) is a chunk of its own rather than part of functions.js; under Node the import is a require.
 *
 * It keeps the source's promises: every answer of the data source says whether a gateway sent it, and the
 * source, once loaded, starts from the last of them, as if it had heard them all (servedBy only keeps the
 * latest, and drops what it held when it changes). changes() never rejects.
 */
import { messageOf } from "../client";
import type { ChangeFilter } from "../engine";
import type { TeamRead, TeamRecordOptions, TeamRecordSource } from "./team-record";

export class LazyTeamRecord {
  private source: Promise<TeamRecordSource> | undefined;
  private gateway: boolean | undefined;

  constructor(private readonly options: TeamRecordOptions) {}

  /** Told of each answer of the data source: whether a gateway sent it. */
  servedBy(gateway: boolean): void {
    this.gateway = gateway;
    void this.source?.then(
      (source) => source.servedBy(gateway),
      () => undefined
    );
  }

  /**
   * The team's changes (TeamRecordSource.changes); loads the reader on the first call. Never rejects, as the
   * source does not: a reader that could not be loaded is "unavailable", and the next call tries again.
   */
  changes(since: number, filter: Required<ChangeFilter>): Promise<TeamRead> {
    return this.load().then(
      (source) => source.changes(since, filter),
      (error: unknown): TeamRead => {
        this.source = undefined;
        return {
          kind: "unavailable",
          why: `the team record's reader could not be loaded (${messageOf(error)})`,
        };
      }
    );
  }

  private load(): Promise<TeamRecordSource> {
    this.source ??= import(/* webpackChunkName: "team-record" */ "./team-record").then(
      ({ TeamRecordSource }) => {
        const source = new TeamRecordSource(this.options);
        if (this.gateway !== undefined) source.servedBy(this.gateway);
        return source;
      }
    );
    return this.source;
  }
}
