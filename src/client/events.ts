/**
 * What the client reports while it works: every request, response, retry and final error. The
 * taskpane's diagnostics and the benchmarks listen. URLs carry no key (it travels only in a header),
 * and a listener that throws never breaks a call.
 */
import { messageOf, type ErrorKind } from "./errors";
import { createLogger } from "./log";

export interface RequestEvent {
  readonly type: "request";
  readonly operation: string;
  readonly method: "GET";
  readonly url: string;
  /** 1 for the first attempt; redirect hops keep the attempt number. */
  readonly attempt: number;
  readonly at: number;
}

export interface ResponseEvent {
  readonly type: "response";
  readonly operation: string;
  readonly url: string;
  readonly status: number;
  /** Time to the response headers. */
  readonly ms: number;
  readonly attempt: number;
  readonly simulated: boolean;
  /** Answered by a team gateway (its header on the answer): its record of restatements is the team's. */
  readonly gateway?: true;
  /** For a followed redirect: where it points. */
  readonly location?: string;
}

export interface RetryEvent {
  readonly type: "retry";
  readonly operation: string;
  readonly url: string;
  /** The attempt that failed. */
  readonly attempt: number;
  readonly delayMs: number;
  readonly reason: ErrorKind;
  readonly status?: number;
  /** What the server asked for in Retry-After, before capping. */
  readonly retryAfterMs?: number;
}

export interface ErrorEvent {
  readonly type: "error";
  readonly operation: string;
  readonly kind: ErrorKind;
  readonly message: string;
  readonly status?: number;
  readonly attempts?: number;
}

/**
 * Something a call set aside while reading an answer that otherwise served (an unreadable catalogue entry
 * left out, rows dated after any possible day ignored): for the diagnostics, once per call and kind.
 */
export interface NoticeEvent {
  readonly type: "notice";
  readonly operation: string;
  readonly message: string;
}

export type ClientEvent = RequestEvent | ResponseEvent | RetryEvent | ErrorEvent | NoticeEvent;
export type ClientEventType = ClientEvent["type"];
export type ClientEventOf<T extends ClientEventType> = Extract<ClientEvent, { type: T }>;
export type ClientListener = (event: ClientEvent) => void;

const log = createLogger("client.events");

export class ClientEvents {
  private readonly listeners = new Set<ClientListener>();

  constructor(initial: readonly ClientListener[] = []) {
    initial.forEach((l) => this.listeners.add(l));
  }

  /** Listen to every event; returns the function that stops listening. */
  subscribe(listener: ClientListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Listen to one type of event; returns the function that stops listening. */
  on<T extends ClientEventType>(type: T, fn: (event: ClientEventOf<T>) => void): () => void {
    return this.subscribe((event) => {
      if (event.type === type) fn(event as ClientEventOf<T>);
    });
  }

  emit(event: ClientEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        const result: unknown = listener(event);
        // An async listener's rejection is its own business too.
        if (result instanceof Promise) result.catch((e: unknown) => warn(event, e));
      } catch (error) {
        warn(event, error);
      }
    }
  }
}

function warn(event: ClientEvent, error: unknown): void {
  log.warn("a client event listener threw; the call goes on", {
    event: event.type,
    error: messageOf(error),
  });
}
