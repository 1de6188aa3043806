/**
 * Every test file gets its own cache directory (CRYPTOMETRICS_CACHE_DIR, and XDG_CACHE_HOME for good measure),
 * inherited by the CLI processes tests spawn: no test reads or fills the user's ~/.cache, and no test sees
 * another's saved answers or rate budget. Removed when the file's tests end.
 */
import { mkdtempSync, rmSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";

const dir = mkdtempSync(join(tmpdir(), "cm-test-cache-"));
process.env.CRYPTOMETRICS_CACHE_DIR = join(dir, "cryptometrics");
process.env.XDG_CACHE_HOME = dir;

afterAll(() => rmSync(dir, { recursive: true, force: true }));
