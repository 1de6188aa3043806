/** The browser tests' pages: the one production build of the current sources (test/support/web-build.ts). */
export { ensureBuild, ROOT } from "../../support/web-build";
