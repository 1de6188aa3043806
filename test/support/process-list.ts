import { execFileSync } from "child_process";

/**
 * The command lines of one run's processes in the process list (`ps -eo pid,ppid,args`, what every local user
 * sees): the process started (`root`) and everything under it, and any process naming the run's own service
 * (`baseUrl`). Other test files run the CLI at the same time, some with --api-key on purpose; their processes
 * are not this run's, and a check of "the key is not in ps" must not count them.
 */
export function thisRunsProcesses(root: number | undefined, baseUrl: string): string {
  const rows = execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8" })
    .split("\n")
    .map((line) => /^\s*(\d+)\s+(\d+)\s(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] }));
  const ours = new Set(root === undefined ? [] : [root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const r of rows)
      if (!ours.has(r.pid) && ours.has(r.ppid)) {
        ours.add(r.pid);
        grew = true;
      }
  }
  return rows
    .filter((r) => ours.has(r.pid) || r.args.includes(baseUrl))
    .map((r) => `${r.args}\n`)
    .join("");
}
