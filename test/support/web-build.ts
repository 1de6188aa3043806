/**
 * The pages the browser tests load and the build test reads: a PRODUCTION build (what ships: minified bundles,
 * the CSP that names Microsoft's office.js CDN, no default service URL or key, so the tests set them as a user
 * would). `npm test` makes it before jest (dist/web, stamped); otherwise it is built once into
 * test-results/e2e-build/<hash of the inputs> and reused while the inputs are unchanged (build-cache.ts).
 */
import { execFile } from "child_process";
import { existsSync } from "fs";
import { join } from "path";
import { BUILD_INPUTS } from "../../src/tools/build-stamp";
import { cachedBuild, REPO_ROOT } from "./build-cache";

export const ROOT = REPO_ROOT;
const BUILD_TIMEOUT_MS = 240_000;

function webpack(outputPath: string): Promise<void> {
  const env = { ...process.env };
  // A production build for these tests: no service URL baked in, add-in origin left at localhost.
  delete env.CRYPTOMETRICS_BASE_URL;
  delete env.ADDIN_ORIGIN;
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      [
        join(ROOT, "node_modules/webpack-cli/bin/cli.js"),
        "--mode",
        "production",
        "--output-path",
        outputPath,
        "--no-stats",
      ],
      { cwd: ROOT, env, timeout: BUILD_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error
          ? fail(
              new Error(`webpack failed for the browser tests:\n${stdout}\n${stderr}`, {
                cause: error,
              })
            )
          : done()
    );
  });
}

/** The directory of a production build of the current sources. */
export function ensureBuild(): Promise<string> {
  return cachedBuild({
    kind: "web",
    name: "e2e-build",
    inputs: BUILD_INPUTS.web,
    timeoutMs: BUILD_TIMEOUT_MS,
    isBuilt: (dir) => existsSync(join(dir, "preview.html")),
    build: webpack,
  });
}
