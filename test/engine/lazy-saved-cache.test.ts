/**
 * The saved cache loaded on first use (src/engine/saved-cache.ts): nothing is loaded before a cell reads or
 * saves, saves and flushes keep their order across the load, and a load that fails costs a note, never a cell.
 */
import { lazySavedCache, type SavedCache } from "../../src/engine/saved-cache";
import { PersistentCache } from "../../src/engine/persistence";
import { savedEngineCache } from "../../src/engine/saved-entries";
import { MemoryBlobStore } from "../support/memory-blob-store";
import { fakeClock, MIDDAY_2026 } from "../support/clock";

const ENTRY = { value: [{ projectId: "aave", name: "Aave" }], fetchedAt: 1, expiresAt: 2 };

function setup(fail?: Error) {
  const time = fakeClock(MIDDAY_2026);
  const store = new MemoryBlobStore();
  const notes: string[] = [];
  let loads = 0;
  const cache = lazySavedCache(
    async (): Promise<SavedCache> => {
      loads++;
      if (fail) throw fail;
      return savedEngineCache(
        new PersistentCache({
          store,
          namespace: async () => "https://metrics.example#abc",
          timers: time.timers,
          now: time.now,
          writeDelayMs: 60_000,
        })
      );
    },
    (note) => notes.push(note)
  );
  return { cache, store, notes, loads: () => loads, time };
}

describe("a saved cache loaded on first use", () => {
  it("loads nothing until something is read or saved, and a flush before that waits for nothing", async () => {
    const { cache, loads } = setup();
    await cache.flush();
    expect(loads()).toBe(0);
  });

  it("loads once for every call, and a flush writes the saves made while it loaded", async () => {
    const { cache, store, loads } = setup();
    cache.saveEntry("projects", () => ENTRY);
    cache.saveEntry("derived:card", () => ENTRY);
    await cache.flush();
    expect(loads()).toBe(1);
    expect([...store.texts.keys()].map((k) => k.split("\u001f").pop())).toEqual(["projects"]);
    await expect(cache.readEntry("projects")).resolves.toMatchObject({ value: ENTRY });
    expect(loads()).toBe(1);
  });

  it("answers reads with nothing and says why once when its code cannot be loaded", async () => {
    const { cache, notes, loads } = setup(new Error("Loading chunk saved-cache failed"));
    await expect(cache.readSeries("series:aave")).resolves.toBeUndefined();
    await expect(cache.readEntry("projects")).resolves.toBeUndefined();
    cache.saveEntry("projects", () => ENTRY);
    await expect(cache.flush()).resolves.toBeUndefined();
    await expect(cache.usage()).rejects.toThrow("Loading chunk saved-cache failed");
    expect(loads()).toBe(1);
    expect(notes).toEqual([
      "The saved cache could not be loaded (Error: Loading chunk saved-cache failed); fetching from the service.",
    ]);
  });
});
