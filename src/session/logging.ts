/**
 * Logging: the client's chosen level, and the server's filtered log messages.
 *
 * Spec: 2025-11-25 `server/utilities/logging`. Servers that emit `notifications/message`
 * MUST declare `logging`; the client MAY set a minimum level with `logging/setLevel`
 * (an invalid level is `-32602`, which schema validation answers before this code runs);
 * the server then sends only messages at that level or more severe. Before any
 * `setLevel`, the server sends every level (the page leaves the default to the server).
 *
 * The same page: "Servers SHOULD: ... Rate limit log messages", and under Security,
 * "Implementations SHOULD: Rate limit messages". A handler logging in a loop would
 * otherwise put every message on the wire, and a flooding server would reach a client's
 * listener as often as it liked. So each session has a budget of `maxLogMessagesPerSecond`
 * per direction, on the inputs' clock (never a real one: the state replays): past it, the
 * rest of that second's messages are dropped. Each direction's window starts with its first
 * message after the last window ended, as progress's does (progress.ts).
 */
import { RATE_WINDOW_MS, rateWindowOver, wakeNoLaterThan } from "./timeouts.js";
import { LOGGING_LEVELS, type LoggingLevel, type LogWindow, type SessionOutput, type SessionState } from "./types.js";

/** Severity rank: debug = 0 … emergency = 7; unknown levels rank as -1. */
export function levelRank(level: unknown): number {
  return LOGGING_LEVELS.indexOf(level as LoggingLevel);
}

/** True when a message at `level` passes a threshold (null threshold: everything passes). */
export function passesLevel(level: LoggingLevel, threshold: LoggingLevel | null): boolean {
  return threshold === null || levelRank(level) >= levelRank(threshold);
}

/** Which budget: a server's log messages to the peer, or the peer's delivered to a client application. */
export type LogDirection = "outgoing" | "incoming";

/**
 * Whether one more `notifications/message` fits in `direction`'s window at `now`. It does
 * not count the message ({@link countLog} does, once it is sent or delivered: one the gate
 * refuses spends nothing); a message that does not fit is counted as dropped here.
 */
export function logRoom(state: SessionState, direction: LogDirection, now: number, out: SessionOutput[]): boolean {
  const max = state.options.maxLogMessagesPerSecond;
  // Not a positive number: 0 (no limit), or options saved before the limit existed.
  if (!(max > 0)) return true;
  const windows = (state.logWindows ??= {});
  const w = windows[direction];
  if (w === undefined || rateWindowOver(w.start, now)) {
    // The last window is over (the tick at its end may not have come yet): report it first, so its diagnostic precedes this window's messages.
    if (w !== undefined) endLogWindow(state, direction, out);
    windows[direction] = { start: now, count: 0, dropped: 0 };
    return true;
  }
  if (w.count < max) return true;
  // Reported once the window ends, with the count: one diagnostic per window, never one per
  // dropped message (that would be the flood again). The tick at the window's end says it.
  if (w.dropped++ === 0) wakeNoLaterThan(state, w.start + RATE_WINDOW_MS);
  return false;
}

/** Counts a message {@link logRoom} admitted and that went on the wire (or to the application). */
export function countLog(state: SessionState, direction: LogDirection): void {
  const w = state.logWindows?.[direction];
  if (w !== undefined) w.count++;
}

/** The tick: ends the windows whose second is over, reporting their drops. */
export function flushLogWindows(state: SessionState, now: number, out: SessionOutput[]): void {
  const windows = state.logWindows;
  if (windows === undefined) return;
  for (const direction of ["outgoing", "incoming"] as const) {
    const w = windows[direction];
    if (w !== undefined && rateWindowOver(w.start, now)) endLogWindow(state, direction, out);
  }
}

/** The session closes: what the open windows dropped is reported now, as no tick will come. */
export function closeLogWindows(state: SessionState, out: SessionOutput[]): void {
  if (state.logWindows === undefined) return;
  endLogWindow(state, "outgoing", out);
  endLogWindow(state, "incoming", out);
}

function endLogWindow(state: SessionState, direction: LogDirection, out: SessionOutput[]): void {
  const windows = state.logWindows!;
  const w: LogWindow | undefined = windows[direction];
  if (w === undefined) return;
  delete windows[direction];
  if (w.dropped === 0) return;
  const max = state.options.maxLogMessagesPerSecond;
  const what = direction === "outgoing" ? "log messages (notifications/message) were not sent" : "log messages (notifications/message) from the peer were not delivered";
  out.push({
    type: "diagnostic",
    code: "log-rate-limited",
    message: `${w.dropped} ${what}: more than maxLogMessagesPerSecond (${max}) in one second`,
    detail: { direction, dropped: w.dropped, limit: max, windowStart: w.start },
  });
}
