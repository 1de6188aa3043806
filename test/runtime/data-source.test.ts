import type { ResponseEvent } from "../../src/client/events";
import {
  DataSourceWatch,
  localSourceMemory,
  type SourceMemory,
  type SourceState,
  type WatchedRuntime,
} from "../../src/runtime/data-source";

function fakeRuntime() {
  const listeners = new Set<(e: ResponseEvent) => void>();
  const runtime: WatchedRuntime = {
    client: {
      on: (_type, fn) => {
        listeners.add(fn);
        return () => listeners.delete(fn);
      },
    },
  };
  const respond = (simulated: boolean) =>
    listeners.forEach((l) =>
      l({
        type: "response",
        operation: "listProjects",
        url: "/",
        status: 200,
        ms: 1,
        attempt: 1,
        simulated,
      })
    );
  return { runtime, respond, listening: () => listeners.size };
}

test("the banner state follows the mark on the latest response", () => {
  const a = fakeRuntime();
  const watch = new DataSourceWatch(a.runtime);
  const seen: string[] = [];
  watch.subscribe((s) => seen.push(s));
  expect(watch.current).toBe("unknown");
  a.respond(true);
  a.respond(true);
  a.respond(false);
  expect(seen).toEqual(["simulated", "service"]);
});

test("a new runtime (settings changed) starts unknown and the old client is no longer heard", () => {
  const a = fakeRuntime();
  const b = fakeRuntime();
  const watch = new DataSourceWatch(a.runtime);
  a.respond(true);
  watch.follow(b.runtime);
  expect(watch.current).toBe("unknown");
  expect(a.listening()).toBe(0);
  a.respond(true);
  expect(watch.current).toBe("unknown");
  b.respond(false);
  expect(watch.current).toBe("service");
  watch.noteResult(true);
  expect(watch.current).toBe("simulated");
  watch.follow(undefined);
  expect(watch.current).toBe("unknown");
});

describe("marked from the first paint", () => {
  /** A client that answers nothing yet: what a reopened page has before its first request. */
  const quiet = (baseUrl: string): WatchedRuntime => ({
    client: { baseUrl, on: () => () => undefined },
  });

  function memory(): SourceMemory & { value?: { baseUrl: string; state: SourceState } } {
    const m: SourceMemory & { value?: { baseUrl: string; state: SourceState } } = {
      get: () => m.value,
      set: (v) => {
        m.value = v;
      },
    };
    return m;
  }

  it("starts from the source last seen for the address, before any answer", () => {
    const kept = memory();
    const first = new DataSourceWatch(undefined, { memory: kept });
    first.follow(quiet("https://localhost:3000"));
    first.noteResult(true);
    // The pane is reopened: no request yet, the banner already up, for that address only.
    const reopened = new DataSourceWatch(undefined, { memory: kept });
    expect(reopened.current).toBe("simulated");
    reopened.follow(quiet("https://localhost:3000"));
    expect(reopened.current).toBe("simulated");
    reopened.follow(quiet("https://api.example.com"));
    expect(reopened.current).toBe("unknown");
  });

  it("takes the build's word only while nothing was seen, and never remembers a guess", () => {
    const kept = memory();
    const watch = new DataSourceWatch(undefined, { memory: kept, fallback: "simulated" });
    expect(watch.current).toBe("simulated");
    watch.follow(quiet("https://localhost:3000"));
    expect(watch.current).toBe("simulated");
    expect(kept.value).toBeUndefined();
    watch.noteResult(false);
    expect(kept.value).toEqual({ baseUrl: "https://localhost:3000", state: "service" });
    expect(new DataSourceWatch(undefined, { memory: kept, fallback: "simulated" }).current).toBe(
      "service"
    );
  });

  it("keeps the memory in localStorage, and reads nothing from a value it did not write", () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    } as unknown as Storage;
    const kept = localSourceMemory(storage)!;
    kept.set({ baseUrl: "https://x", state: "simulated" });
    expect(localSourceMemory(storage)!.get()).toEqual({ baseUrl: "https://x", state: "simulated" });
    store.set("cryptometrics.dataSource", '{"baseUrl":1,"state":"maybe"}');
    expect(kept.get()).toBeUndefined();
    store.set("cryptometrics.dataSource", "not json");
    expect(kept.get()).toBeUndefined();
  });
});
