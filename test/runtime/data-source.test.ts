import type { ResponseEvent } from "../../src/client/events";
import { DataSourceWatch, type WatchedRuntime } from "../../src/runtime/data-source";

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
