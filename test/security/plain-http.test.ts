/**
 * The key never travels in clear text: a plain-http base URL is refused unless its host is loopback
 * (the simulator, a local proxy), before any request, by the client, by the runtime, and so by every cell.
 * Hosts are generated (domains, IPv4, IPv6, tricky look-alikes); loopback is decided here independently,
 * with Node's own address matching.
 */
import fc from "fast-check";
import { BlockList, isIP } from "node:net";
import { createClient, isCryptometricsError, type FetchLike } from "../../src/client";
import { configureRuntime } from "../../src/runtime/runtime";
import { openLab } from "../harness/faults/lab";
import { evaluate } from "../harness/faults/workbook";

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

/** Whether a URL's host can only be this machine, by the standard's rules and Node's address matching. */
function isLoopback(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  const family = isIP(host);
  return family === 0 ? false : loopback.check(host, family === 4 ? "ipv4" : "ipv6");
}

const host = fc.oneof(
  fc.domain(),
  fc.ipV4(),
  fc.ipV6().map((ip) => `[${ip}]`),
  fc.constantFrom(
    "localhost",
    "LOCALHOST",
    "api.localhost",
    "localhost.evil.example",
    "127.0.0.1",
    "127.255.255.254",
    "127.0.0.1.nip.io",
    "128.0.0.1",
    "0.0.0.0",
    "[::1]",
    "[::ffff:127.0.0.1]",
    "[0:0:0:0:0:0:0:1]",
    "2130706433",
    "0x7f.1",
    "10.0.0.1",
    "192.168.1.20",
    "metrics.example.com"
  )
);
const port = fc.option(fc.integer({ min: 1, max: 65_535 }), { nil: undefined });

const noFetch: FetchLike = () => {
  throw new Error("no request may be sent");
};

describe("plain http", () => {
  it("is refused for every host that is not loopback, and accepted for loopback; https always", () => {
    fc.assert(
      fc.property(host, port, (h, p) => {
        const base = `http://${h}${p === undefined ? "" : `:${p}`}`;
        let parsed: URL;
        try {
          parsed = new URL(base);
        } catch {
          return; // not a URL at all: refused as such, elsewhere
        }
        const make = (url: string) => () =>
          createClient({ baseUrl: url, apiKey: "k", fetch: noFetch });
        if (!isLoopback(parsed))
          expect(make(base)).toThrow(/plain http is only allowed for loopback/);
        // IPv4-mapped IPv6 ([::ffff:127.0.0.1]) is loopback too, but refused: erring on the safe side.
        else if (!/^\[::ffff:/i.test(parsed.host)) expect(make(base)).not.toThrow();
        expect(make(base.replace(/^http:/, "https:"))).not.toThrow();
      }),
      { numRuns: 2_000 }
    );
  });

  it("leaves the runtime unconfigured, and every cell says why without sending anything", async () => {
    const lab = await openLab();
    try {
      const before = lab.io.started();
      let refusal: unknown;
      try {
        configureRuntime({ baseUrl: "http://metrics.example.com", apiKey: "sk_live_x1y2z3w4" });
      } catch (error) {
        refusal = error;
      }
      expect(isCryptometricsError(refusal) && refusal.kind).toBe("invalid-input");
      const [cell] = await evaluate(lab, [
        { address: "H!A1", name: "VALUE", args: ["aave", "fees"] },
      ]);
      expect(cell).toMatchObject({ ok: false, code: "#VALUE!" });
      expect(!cell.ok && cell.message).toMatch(/plain http is only allowed for loopback/);
      expect(lab.io.started()).toBe(before);
    } finally {
      await lab.close();
    }
  });
});
