/**
 * Preloaded (node --require) into a process whose memory is measured: at exit it writes the process's peak
 * resident set size, in bytes, to file descriptor 3. The measurement is the kernel's own high-water mark,
 * so a short peak between two samples cannot be missed.
 *
 * It is VmHWM from /proc/self/status: the high-water mark of this program's own memory. Not
 * `process.resourceUsage().maxRSS`: Linux carries into it the memory of the process that started this one
 * (at fork, before exec), so a CLI started by a test runner holding 357 MB reported 357 MB for a three-line
 * run. Where /proc is missing, maxRSS is the fallback.
 */
const { readFileSync, writeSync } = require("node:fs");

function peakBytes() {
  try {
    const hwm = /^VmHWM:\s+(\d+)\s+kB$/m.exec(readFileSync("/proc/self/status", "utf8"));
    if (hwm) return Number(hwm[1]) * 1024;
  } catch {
    // No /proc: fall back below.
  }
  return process.resourceUsage().maxRSS * 1024;
}

process.on("exit", () => {
  try {
    writeSync(3, `${peakBytes()}\n`);
  } catch {
    // No descriptor 3: the process was not started by the measuring harness.
  }
});
