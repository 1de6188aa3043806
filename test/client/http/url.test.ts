import { buildUrl, chunkIds, isLoopbackHost, parseBaseUrl } from "../../../src/client/http/url";

describe("base URL rule", () => {
  it("accepts https anywhere", () => {
    expect(parseBaseUrl("https://api.example.com/").href).toBe("https://api.example.com/");
    expect(parseBaseUrl("https://api.example.com/proxy/").pathname).toBe("/proxy");
  });

  it("accepts plain http only on loopback addresses", () => {
    for (const ok of [
      "http://localhost:3001",
      "http://127.0.0.1:1",
      "http://127.10.0.3",
      "http://[::1]:8080",
    ]) {
      expect(() => parseBaseUrl(ok)).not.toThrow();
    }
    for (const bad of [
      "http://api.example.com",
      "http://10.0.0.1",
      "http://128.0.0.1",
      "http://localhost.evil.com",
    ]) {
      expect(() => parseBaseUrl(bad)).toThrow(/plain http is only allowed for loopback/);
    }
  });

  it("refuses other protocols, credentials and garbage", () => {
    expect(() => parseBaseUrl("ftp://example.com")).toThrow(/unsupported protocol/);
    expect(() => parseBaseUrl("https://user:pw@example.com")).toThrow(/credentials/);
    expect(() => parseBaseUrl("https://example.com/?key=1")).toThrow(/query/);
    expect(() => parseBaseUrl("not a url")).toThrow(/not a valid absolute URL/);
  });

  it("recognises loopback hosts", () => {
    expect(isLoopbackHost("LOCALHOST")).toBe(true);
    expect(isLoopbackHost("[::1]")).toBe(true);
    expect(isLoopbackHost("127.0.0.256")).toBe(false);
    expect(isLoopbackHost("example.com")).toBe(false);
  });
});

describe("URL building", () => {
  const base = parseBaseUrl("https://api.example.com/root");

  it("sends a list as ONE comma-joined value, never as repeated parameters", () => {
    const url = buildUrl(
      base,
      ["v2", "metrics", "fees"],
      [["project_ids", ["aave", "uniswap", "0x"]]]
    );
    expect(url).toBe("https://api.example.com/root/v2/metrics/fees?project_ids=aave,uniswap,0x");
    expect(url.match(/project_ids=/g)).toHaveLength(1);
  });

  it("percent-encodes path segments and values but keeps the list commas literal", () => {
    const url = buildUrl(
      base,
      ["v2", "projects", "a/b c"],
      [
        ["metric_ids", ["fees&x=1", "ünï"]],
        ["start", "2024-01-01"],
      ]
    );
    expect(url).toBe(
      "https://api.example.com/root/v2/projects/a%2Fb%20c?metric_ids=fees%26x%3D1,%C3%BCn%C3%AF&start=2024-01-01"
    );
  });

  it("leaves out undefined values and empty lists and writes booleans as words", () => {
    const url = buildUrl(
      base,
      ["v2"],
      [
        ["a", undefined],
        ["b", []],
        ["assets_bridged", false],
      ]
    );
    expect(url).toBe("https://api.example.com/root/v2?assets_bridged=false");
  });
});

describe("splitting id lists", () => {
  const ids = Array.from({ length: 7 }, (_, i) => `project-${i}`);
  const urlFor = (chunk: readonly string[]) =>
    `https://x.test/v2/metrics/fees?project_ids=${chunk.join(",")}`;

  it("splits by count, keeping order and every id exactly once", () => {
    const chunks = chunkIds(ids, 3, 10_000, urlFor);
    expect(chunks).toEqual([ids.slice(0, 3), ids.slice(3, 6), ids.slice(6)]);
  });

  it("splits by URL length so no URL exceeds the limit", () => {
    const max = urlFor(ids.slice(0, 2)).length;
    const chunks = chunkIds(ids, 100, max, urlFor) as string[][];
    expect(chunks.flat()).toEqual(ids);
    for (const chunk of chunks) expect(urlFor(chunk).length).toBeLessThanOrEqual(max);
    expect(chunks.every((c) => c.length <= 2)).toBe(true);
  });

  it("reports an id that cannot fit even alone", () => {
    expect(chunkIds(["x".repeat(100)], 10, 50, urlFor)).toBeUndefined();
  });
});
