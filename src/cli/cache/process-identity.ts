/**
 * Which process claimed a start in the shared record, and whether it is still there: its pid, the host it
 * runs on, and when it started (Linux: the start time in /proc/<pid>/stat, so that a pid the system has
 * given to a new process is not mistaken for the old one). Elsewhere the start time is unknown ("") and the
 * pid alone is checked.
 *
 * These are the CLI's ideas (its runs are the processes that share a record, file-ledger.ts): the client's
 * claimSlots only carries a claimer and asks whether it is gone, through the Claimers it is given.
 */
import { readFileSync } from "fs";
import { hostname } from "os";
import type { Claimers, OpenStart } from "../../client";

/** A CLI process, as an open start of the shared record names its claimer. */
export interface ProcessIdentity {
  pid: number;
  host: string;
  /** When the process started, as the system says (Linux: /proc/<pid>/stat's start time); "" if unknown. */
  started: string;
}

/** What the file ledger tells claimSlots: this process claims, and a claimer is gone when its process is. */
export type LedgerHealth = Claimers<ProcessIdentity>;

/** Field 22 of /proc/<pid>/stat: the process's start, in clock ticks since boot; "" when unknown. */
export function startedOf(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its ')'.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19] ?? "";
  } catch {
    return "";
  }
}

export function thisProcess(): ProcessIdentity {
  return { pid: process.pid, host: hostname(), started: startedOf(process.pid) };
}

/** Whether a process with this pid exists (one of another user counts: it exists). */
export function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

interface GoneDeps {
  host: string;
  exists(pid: number): boolean;
  startedOf(pid: number): string;
}

const system: GoneDeps = { host: hostname(), exists: pidExists, startedOf };

/**
 * Whether the process that claimed `start` is gone. Only a process of this host can be checked; a start
 * without a recorded process (an older CLI) is never taken as gone.
 */
export function isGone(start: OpenStart<ProcessIdentity>, deps: GoneDeps = system): boolean {
  const p = start.process;
  if (!p || p.host !== deps.host) return false;
  if (!deps.exists(p.pid)) return true;
  return p.started !== "" && deps.startedOf(p.pid) !== p.started;
}
