/**
 * The pages' Content-Security-Policy names the origins they may send requests to, instead of any https
 * origin (`connect-src https:` before): their own (where a team gateway is served), the service the build
 * is made for, those a deployment lists, and loopback only for a build served from this computer. A
 * service address the page could not reach is refused when saved, with the reason.
 */
import { join } from "path";
import { refusedServiceOrigin } from "../../src/runtime/connect-origins";
import { Settings, type KeyValueStorage } from "../../src/runtime/settings";

const ROOT = join(__dirname, "../..");

interface Page {
  filename?: string;
  templateParameters?: { csp?: string };
}
type MakeConfig = (
  env: unknown,
  argv: { mode: string }
) => { plugins: { userOptions?: Page; definitions?: Record<string, string> }[] };

/** The config as webpack builds it, under these build variables (restored after). */
function build(mode: string, vars: Record<string, string | undefined>) {
  const saved = { ...process.env };
  Object.assign(process.env, vars);
  for (const [k, v] of Object.entries(vars)) if (v === undefined) delete process.env[k];
  try {
    // webpack.config.js is CommonJS, loaded as webpack loads it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const config = (require(join(ROOT, "webpack.config.js")) as MakeConfig)({}, { mode });
    const pages = config.plugins
      .map((p) => p.userOptions)
      .filter((o) => o?.filename?.endsWith(".html"));
    const define = config.plugins.find((p) => p.definitions?.__CM_BUILD__)?.definitions
      ?.__CM_BUILD__;
    return {
      connect: pages.map((p) =>
        p!.templateParameters!.csp!.split("; ").find((d) => d.startsWith("connect-src"))
      ),
      build: JSON.parse(define as string) as { connectOrigins: string[] | null },
    };
  } finally {
    process.env = saved;
  }
}

const NONE = {
  ADDIN_ORIGIN: undefined,
  CRYPTOMETRICS_BASE_URL: undefined,
  CRYPTOMETRICS_CONNECT_ORIGINS: undefined,
};

describe("connect-src", () => {
  it("of a deployed build: its own origin and its service, nothing else", () => {
    const deployed = build("production", {
      ...NONE,
      ADDIN_ORIGIN: "https://addin.example.com",
      CRYPTOMETRICS_BASE_URL: "https://api.example.com/",
    });
    // The taskpane and the preview; the sign-in dialog also reaches Microsoft's identity platform.
    expect(deployed.connect).toEqual([
      "connect-src 'self' https://api.example.com",
      "connect-src 'self' https://api.example.com https://login.microsoftonline.com",
      "connect-src 'self' https://api.example.com",
    ]);
    expect(deployed.build.connectOrigins).toEqual(["https://api.example.com"]);
  });

  it("of a deployed build listing more services, and of one naming none (its own origin: a gateway)", () => {
    const more = build("production", {
      ...NONE,
      ADDIN_ORIGIN: "https://addin.example.com",
      CRYPTOMETRICS_BASE_URL: "https://api.example.com",
      CRYPTOMETRICS_CONNECT_ORIGINS: "https://eu.api.example.com/v2, https://api.example.com",
    });
    expect(more.connect[0]).toBe(
      "connect-src 'self' https://api.example.com https://eu.api.example.com"
    );
    const gateway = build("production", { ...NONE, ADDIN_ORIGIN: "https://addin.example.com" });
    expect(gateway.connect[0]).toBe("connect-src 'self'");
    expect(gateway.build.connectOrigins).toEqual([]);
  });

  it("never any origin of a scheme (https:) or a wildcard host, in any build", () => {
    for (const [mode, vars] of [
      ["development", NONE],
      ["production", NONE],
      [
        "production",
        { ...NONE, ADDIN_ORIGIN: "https://a.example", CRYPTOMETRICS_BASE_URL: "https://b.example" },
      ],
    ] as const) {
      for (const directive of build(mode, vars).connect) {
        expect(directive).not.toMatch(/\s(https?:|\*)(\s|$)/);
        expect(directive).not.toMatch(/\*\./);
      }
    }
  });

  it("of a build served from this computer: its own origin, the simulator, and loopback on any port", () => {
    const dev = build("development", NONE);
    expect(dev.connect[0]).toBe(
      "connect-src 'self' https://localhost:3001 http://localhost:* http://127.0.0.1:* https://localhost:* https://127.0.0.1:*"
    );
    expect(dev.build.connectOrigins).toBeNull();
    expect(build("production", NONE).build.connectOrigins).toBeNull();
  });

  it("refuses to build for a service that is not https", () => {
    expect(() =>
      build("production", {
        ...NONE,
        ADDIN_ORIGIN: "https://a.example",
        CRYPTOMETRICS_BASE_URL: "http://api.example.com",
      })
    ).toThrow(/CRYPTOMETRICS_BASE_URL must be https/);
  });
});

describe("a service address outside them", () => {
  const allowed = ["https://api.example.com"];

  it("is refused with the reason; the build's own service and its own origin are not", () => {
    expect(
      refusedServiceOrigin("https://api.example.com/v2", allowed, "https://addin.example.com")
    ).toBeUndefined();
    expect(
      refusedServiceOrigin("https://addin.example.com", allowed, "https://addin.example.com")
    ).toBeUndefined();
    expect(
      refusedServiceOrigin("https://other.example.com", allowed, "https://addin.example.com")
    ).toBe(
      "This copy of the add-in can only connect to https://api.example.com, https://addin.example.com (this add-in's own server): " +
        "its web pages allow no other address. Ask whoever deployed it for a build that names https://other.example.com."
    );
    // A local build names none: any address the client accepts.
    expect(
      refusedServiceOrigin("https://other.example.com", null, "https://localhost:3000")
    ).toBeUndefined();
  });

  it("is not saved by the taskpane's settings", async () => {
    const stored = new Map<string, string>();
    const storage: KeyValueStorage = {
      getItem: (k) => Promise.resolve(stored.get(k) ?? null),
      setItem: (k, v) => Promise.resolve(void stored.set(k, v)),
      removeItem: (k) => Promise.resolve(void stored.delete(k)),
    };
    const settings = new Settings(storage, {
      defaultBaseUrl: "",
      defaultApiKey: "",
      connectOrigins: allowed,
    });
    await expect(settings.saveConnection("https://elsewhere.example", 60)).rejects.toThrow(
      /can only connect to https:\/\/api\.example\.com.*names https:\/\/elsewhere\.example\.$/
    );
    expect(stored.size).toBe(0);
  });
});
