/**
 * Preloaded (node --require) into a process whose memory is measured: at exit it writes the process's peak
 * resident set size, in bytes, to file descriptor 3. The measurement is the kernel's own high-water mark,
 * so a short peak between two samples cannot be missed.
 */
const { writeSync } = require("node:fs");

process.on("exit", () => {
  try {
    writeSync(3, `${process.resourceUsage().maxRSS * 1024}\n`);
  } catch {
    // No descriptor 3: the process was not started by the measuring harness.
  }
});
