/**
 * The recording workbook as one script a page can run before its own (recording-entry.ts), built with the
 * project's webpack and ts-loader in a process of their own, once per change of its inputs.
 */
import { execFile } from "child_process";
import { existsSync } from "fs";
import { join } from "path";
import { cachedBuild, REPO_ROOT } from "../../support/build-cache";

const BUILD_TIMEOUT_MS = 120_000;
const SCRIPT = "recording-workbook.js";

export function recordingWorkbookScript(): Promise<string> {
  return cachedBuild({
    name: "recording-workbook",
    inputs: [
      "test/e2e/support/recording-entry.ts",
      "test/e2e/support/recording.webpack.config.js",
      "test/support/recording-workbook.ts",
      "src/excel",
      "src/sheet",
      "package-lock.json",
    ],
    timeoutMs: BUILD_TIMEOUT_MS,
    isBuilt: (dir) => existsSync(join(dir, SCRIPT)),
    build: (dir) =>
      new Promise((done, fail) =>
        execFile(
          process.execPath,
          [
            join(REPO_ROOT, "node_modules/webpack-cli/bin/cli.js"),
            "--config",
            join(REPO_ROOT, "test/e2e/support/recording.webpack.config.js"),
            "--output-path",
            dir,
            "--no-stats",
          ],
          { cwd: REPO_ROOT, timeout: BUILD_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
          (error, stdout, stderr) =>
            error
              ? fail(new Error(`webpack failed:\n${stdout}\n${stderr}`, { cause: error }))
              : done()
        )
      ),
  }).then((dir) => join(dir, SCRIPT));
}
