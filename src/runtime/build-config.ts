/**
 * What a build starts with before the user changes anything in the taskpane. webpack injects `__CM_BUILD__`
 * (see webpack.config.js); plain Node (CLI, tests) gets the fallback below.
 */
export interface BuildConfig {
  mode: "development" | "production";
  version: string;
  /** Default service base URL; empty when the build names none (the user sets it in the taskpane). */
  defaultBaseUrl: string;
  /** Only development builds carry one: the simulator's demo key, which opens nothing but the simulator. */
  defaultApiKey: string;
  helpUrl: string;
  /**
   * The service origins the pages' Content-Security-Policy lets them reach besides their own; null (or
   * absent) when the build is served from this computer and may reach any (connect-origins.ts).
   */
  connectOrigins?: string[] | null;
}

declare const __CM_BUILD__: BuildConfig | undefined;

export const buildConfig: BuildConfig =
  typeof __CM_BUILD__ !== "undefined"
    ? __CM_BUILD__
    : {
        mode: "development",
        version: "0.0.0",
        defaultBaseUrl: "",
        defaultApiKey: "",
        helpUrl: "https://localhost:3000/help.html",
      };
