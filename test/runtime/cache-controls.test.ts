import { cacheControls, describeCache, formatSize } from "../../src/runtime/cache-controls";
import { MemoryBlobStore } from "../support/memory-blob-store";

describe("cache controls", () => {
  it("describe the saved cache's size against its bound in plain words", () => {
    expect(
      describeCache({ entries: 1_234, bytes: 3_456_789, maxBytes: 50_000_000, location: "x" })
    ).toBe(
      "3.5 MB in 1,234 answers, on this computer (limit 50 MB; the least recently used go first)."
    );
    expect(describeCache(undefined)).toMatch(/cannot keep a cache/);
    expect(formatSize(999)).toBe("999 bytes");
    expect(formatSize(1_500)).toBe("1.5 kB");
    expect(formatSize(250_000)).toBe("250 kB");
  });

  it("clear the store when no runtime is configured yet", async () => {
    const store = new MemoryBlobStore();
    await store.setMany(new Map([["k", "v"]]));
    const controls = cacheControls(store, () => undefined);
    expect(await controls.info()).toMatchObject({ entries: 1 });
    await controls.clear();
    expect(await controls.info()).toMatchObject({ entries: 0 });
  });
});
