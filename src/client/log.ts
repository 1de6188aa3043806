/**
 * Named loggers with one replaceable sink. Library code never writes to the console directly: the
 * CLI and the bench point the sink at stderr, the fault table and the soak silence it, tests collect it.
 * In the add-in the default sink below stays; the taskpane's diagnostics are built from the client's
 * events (events.ts), not from log lines.
 */

export type LogLevel = "debug" | "info" | "warn" | "error";

export interface LogRecord {
  level: LogLevel;
  logger: string;
  message: string;
  data?: Readonly<Record<string, unknown>>;
}

export type LogSink = (record: LogRecord) => void;

interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

// Quiet by default: a library that chatters on the console of someone's Excel is a nuisance. Warnings
// and errors still surface where a console exists, because swallowing them hides real trouble.
const consoleSink: LogSink = (record) => {
  if (record.level !== "warn" && record.level !== "error") return;

  globalThis.console?.[record.level](`[${record.logger}] ${record.message}`, record.data ?? "");
};

let sink: LogSink = consoleSink;

/** Route every logger's output; returns the previous sink so callers can restore it. */
export function setLogSink(next: LogSink | null): LogSink {
  const previous = sink;
  sink = next ?? consoleSink;
  return previous;
}

export function createLogger(name: string): Logger {
  const emit = (level: LogLevel, message: string, data?: Record<string, unknown>): void => {
    try {
      sink({ level, logger: name, message, ...(data ? { data } : {}) });
    } catch {
      // A broken sink must not break the code that logs.
    }
  };
  return {
    debug: (m, d) => emit("debug", m, d),
    info: (m, d) => emit("info", m, d),
    warn: (m, d) => emit("warn", m, d),
    error: (m, d) => emit("error", m, d),
  };
}
