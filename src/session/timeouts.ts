/**
 * Timeouts and the session's single timer.
 *
 * Spec: 2025-11-25 `basic/lifecycle` ("Timeouts"): implementations SHOULD time out every
 * request they send, issue a cancellation when one expires and stop waiting; they MAY reset
 * the clock on progress but SHOULD enforce a maximum regardless.
 *
 * Theory of operation. The kernel owns no timer. Each outbound request carries a
 * `deadline` (reset by progress, never beyond its `hardDeadline`), and so does a modern
 * call while the client gathers the inputs of an `input_required` round; keep-alive and progress
 * coalescing add their own due times, and so does the end of a second in which log messages
 * were dropped (its diagnostic, logging.ts). `state.wakeAt` is a lower bound on the earliest of
 * them, kept in O(1) as things are added; the driver arms one timer for it (see
 * {@link nextDeadline}) and feeds a `tick`. A tick at or after `wakeAt` scans once, fires
 * what is due and computes the exact next wake time. A bound that is too early only
 * costs a spurious tick; it is never too late.
 */
import { fail } from "./phase.js";
import type { OutboundRequest, SessionOutput, SessionState } from "./types.js";

/** The window of the per-second rate limits (`maxProgressPerSecond`, `maxLogMessagesPerSecond`), in the inputs' ms. */
export const RATE_WINDOW_MS = 1000;

/**
 * Whether the rate window that started at `start` is over at `now`: a second has passed,
 * or `now` is before its start (a clock stepped back; else nothing would be let through
 * until the clock caught up with the window again).
 */
export function rateWindowOver(start: number, now: number): boolean {
  return now >= start + RATE_WINDOW_MS || now < start;
}

/** A `now` the session can compute deadlines from: a finite number within ±(2^53−1). */
export function isClockReading(now: unknown): now is number {
  return typeof now === "number" && Math.abs(now) <= Number.MAX_SAFE_INTEGER;
}

/** The time at which the driver must next feed a `tick`, or null when nothing is pending. */
export function nextDeadline(state: SessionState): number | null {
  // A state that is no session (or whose getter throws) has nothing due: null, as step closes it rather than throw (the kernel never throws across its boundary).
  if (typeof state !== "object" || state === null) return null;
  try {
    const at = state.wakeAt;
    return typeof at === "number" ? at : null;
  } catch {
    return null;
  }
}

/** Lowers `wakeAt` to `at` if that is earlier. */
export function wakeNoLaterThan(state: SessionState, at: number | null): void {
  if (at !== null && (state.wakeAt === null || at < state.wakeAt)) state.wakeAt = at;
}

/** The deadline of a request sent at `now` with `timeoutMs` (0 = none), capped by `hardDeadline`. */
export function deadlineFrom(now: number, timeoutMs: number, hardDeadline: number | null): number | null {
  if (timeoutMs <= 0) return hardDeadline;
  const d = now + timeoutMs;
  return hardDeadline !== null && hardDeadline < d ? hardDeadline : d;
}

/** Recomputes the exact `wakeAt` from everything that is pending. O(pending). */
export function recomputeWake(state: SessionState): void {
  let at: number | null = state.keepAlive.dueAt;
  for (const key in state.outbound) {
    const d = state.outbound[key].deadline;
    if (d !== null && (at === null || d < at)) at = d;
  }
  for (const key in state.mrtr) {
    const d = state.mrtr[key].deadline ?? null;
    if (d !== null && (at === null || d < at)) at = d;
  }
  for (const key in state.inbound) {
    const p = state.inbound[key].pendingProgress;
    if (p !== undefined && (at === null || p.at < at)) at = p.at;
  }
  // A log window with drops reports them at its end (logging.ts).
  for (const w of [state.logWindows?.outgoing, state.logWindows?.incoming]) {
    if (w !== undefined && w.dropped > 0 && (at === null || w.start + RATE_WINDOW_MS < at)) at = w.start + RATE_WINDOW_MS;
  }
  state.wakeAt = at;
}

/**
 * A keep-alive ping got no answer from the peer: it timed out, or this side's transport
 * failed it (an HTTP POST that could not reach the server). Counted, reported (`stale`),
 * and past `keepAliveMaxMissed` in a row the session fails (basic/utilities/ping:
 * "Timeouts SHOULD be treated as connection failures"). True when it failed.
 */
export function pingMissed(state: SessionState, out: SessionOutput[]): boolean {
  const o = state.options;
  const missed = ++state.keepAlive.missed;
  out.push({ type: "stale", missed });
  if (o.keepAliveMaxMissed <= 0 || missed < o.keepAliveMaxMissed) return false;
  fail(state, `the peer answered no keep-alive ping, ${missed} in a row (one every ${o.keepAliveMs} ms): the connection is treated as failed`, out);
  return true;
}

/** Arms the first keep-alive ping (basic/utilities/ping), once the session is operating; `keepAliveMs` 0 is none. */
export function startKeepAlive(state: SessionState, now: number): void {
  const every = state.options.keepAliveMs;
  if (every <= 0) return;
  state.keepAlive.dueAt = now + every;
  wakeNoLaterThan(state, state.keepAlive.dueAt);
}

/** Which limit ended `req` (or an input round): its own timeout, or the cap on every request's lifetime (which also ends one with no timeout, or one progress kept alive). */
export function timeoutMessage(state: SessionState, req: Pick<OutboundRequest, "deadline" | "hardDeadline" | "timeoutMs">): string {
  if (req.deadline !== null && req.deadline === req.hardDeadline) return `request timed out: it reached maxRequestTimeoutMs (${state.options.maxRequestTimeoutMs} ms), the longest any request may wait`;
  return `request timed out after ${req.timeoutMs} ms`;
}
