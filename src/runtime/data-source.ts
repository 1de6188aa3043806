/**
 * Whether the data on screen comes from the simulator, for the "Demo data — not real figures" banner. The
 * answer is the mark on the latest response (the simulator stamps every response), so switching the service
 * URL from the simulator to the real service takes the banner down with the first real answer, and back.
 *
 * From the first paint: a page reopened shows figures from its cache before any response arrives, so the
 * pages remember, on this computer, which source the last answer for each service address came from, and
 * start from that (and, with nothing remembered, from what the build says: npm start's pages start on the
 * simulator). Before, the banner was gone when the pane was reopened, until the next request.
 */
import { Listeners, type ResponseEvent } from "../client";

export interface WatchedClient {
  on(type: "response", fn: (event: ResponseEvent) => void): () => void;
  /** The service address its answers come from (remembered per address). */
  readonly baseUrl?: string;
}

export interface WatchedRuntime {
  client: WatchedClient;
}

export type SourceState = "simulated" | "service" | "unknown";

/** Where the last known source of each page's answers is kept (the pages' localStorage). */
export interface SourceMemory {
  get(): { baseUrl: string; state: SourceState } | undefined;
  set(value: { baseUrl: string; state: SourceState }): void;
}

const SOURCE_MEMORY_KEY = "cryptometrics.dataSource";

/** The memory in the page's localStorage (nothing secret: an address and a word), or none without one. */
export function localSourceMemory(storage?: Storage): SourceMemory | undefined {
  let store: Storage | undefined = storage;
  try {
    store ??= typeof localStorage === "undefined" ? undefined : localStorage;
  } catch {
    store = undefined; // a sandboxed frame may refuse storage
  }
  if (!store) return undefined;
  const kept = store;
  return {
    get() {
      try {
        const value = JSON.parse(kept.getItem(SOURCE_MEMORY_KEY) ?? "null") as unknown;
        const v = value as { baseUrl?: unknown; state?: unknown } | null;
        return v &&
          typeof v.baseUrl === "string" &&
          (v.state === "simulated" || v.state === "service")
          ? { baseUrl: v.baseUrl, state: v.state }
          : undefined;
      } catch {
        return undefined;
      }
    },
    set(value) {
      try {
        kept.setItem(SOURCE_MEMORY_KEY, JSON.stringify(value));
      } catch {
        // full or refused: the banner then waits for the next answer, as before
      }
    },
  };
}

interface SourceWatchOptions {
  memory?: SourceMemory;
  /** The state with nothing remembered for an address (a development build: "simulated"). */
  fallback?: SourceState;
}

export class DataSourceWatch {
  private state: SourceState;
  private baseUrl: string | undefined;
  private stopClient: () => void = () => undefined;
  private readonly listeners = new Listeners<SourceState>();

  constructor(
    current: WatchedRuntime | undefined,
    private readonly options: SourceWatchOptions = {}
  ) {
    // Before any runtime: the page's last known source, so the first paint is marked.
    this.state = options.memory?.get()?.state ?? options.fallback ?? "unknown";
    if (current) this.follow(current);
  }

  /** Call with each new runtime (configureRuntime replaces it when settings change). */
  follow(runtime: WatchedRuntime | undefined): void {
    this.stopClient();
    this.stopClient = () => undefined;
    this.baseUrl = runtime?.client.baseUrl;
    const remembered = this.options.memory?.get();
    this.set(
      remembered && remembered.baseUrl === this.baseUrl
        ? remembered.state
        : (this.options.fallback ?? "unknown")
    );
    if (!runtime) return;
    this.stopClient = runtime.client.on("response", (event) =>
      this.learn(event.simulated ? "simulated" : "service")
    );
  }

  /** A source an answer showed: remembered for the address, then shown. */
  private learn(state: "simulated" | "service"): void {
    if (this.baseUrl !== undefined) this.options.memory?.set({ baseUrl: this.baseUrl, state });
    this.set(state);
  }

  /** A result's meta.simulated, for answers that arrived before this watch listened. */
  noteResult(simulated: boolean): void {
    this.learn(simulated ? "simulated" : "service");
  }

  get current(): SourceState {
    return this.state;
  }

  subscribe(listener: (state: SourceState) => void): () => void {
    return this.listeners.add(listener);
  }

  private set(state: SourceState): void {
    if (state === this.state) return;
    this.state = state;
    this.listeners.tell(state);
  }
}
