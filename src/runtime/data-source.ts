/**
 * Whether the data on screen comes from the simulator, for the "Demo data — not real figures" banner. The
 * answer is the mark on the latest response (the simulator stamps every response), so switching the service
 * URL from the simulator to the real service takes the banner down with the first real answer, and back.
 */
import type { ResponseEvent } from "../client";

export interface WatchedClient {
  on(type: "response", fn: (event: ResponseEvent) => void): () => void;
}

export interface WatchedRuntime {
  client: WatchedClient;
}

export type SourceState = "simulated" | "service" | "unknown";

export class DataSourceWatch {
  private state: SourceState = "unknown";
  private stopClient: () => void = () => undefined;
  private readonly listeners = new Set<(state: SourceState) => void>();

  constructor(current: WatchedRuntime | undefined) {
    this.follow(current);
  }

  /** Call with each new runtime (configureRuntime replaces it when settings change). */
  follow(runtime: WatchedRuntime | undefined): void {
    this.stopClient();
    this.stopClient = () => undefined;
    this.set("unknown");
    if (!runtime) return;
    this.stopClient = runtime.client.on("response", (event) =>
      this.set(event.simulated ? "simulated" : "service")
    );
  }

  /** A result's meta.simulated, for answers that arrived before this watch listened. */
  noteResult(simulated: boolean): void {
    this.set(simulated ? "simulated" : "service");
  }

  get current(): SourceState {
    return this.state;
  }

  subscribe(listener: (state: SourceState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(state: SourceState): void {
    if (state === this.state) return;
    this.state = state;
    for (const l of [...this.listeners]) l(state);
  }
}
