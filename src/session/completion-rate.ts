/**
 * The rate limit on `completion/complete` requests a server takes.
 *
 * Spec: 2025-11-25 and draft `server/utilities/completion`, Security: implementations
 * MUST "implement appropriate rate limiting". A client asks once per keystroke, and each
 * ask runs the application's completer (often a query): past `maxCompletionsPerSecond` in
 * one second (the window that began with the first request after the last one ended, on
 * the inputs' clock) the rest are refused with `-32600` and a `limit-reached` diagnostic,
 * as the session's other bounds are. A window lives in the state as plain data.
 *
 * The bound is per session: stdio, in-process and legacy HTTP sessions. Over Streamable
 * HTTP a 2026-07-28 request has a session of its own, so a stateless endpoint limits its
 * clients at its front (per address or per token).
 */
import type { RequestId } from "../jsonrpc/types.js";
import { refuseAtLimit } from "./requests.js";
import { rateWindowOver } from "./timeouts.js";
import type { SessionOutput, SessionState } from "./types.js";

/**
 * Whether the completion request `id` is past this second's budget: then it is refused
 * (`-32600`, `limit-reached`) and true is returned; else it is counted.
 */
export function completionRefused(state: SessionState, id: RequestId, now: number, out: SessionOutput[]): boolean {
  const max = state.options.maxCompletionsPerSecond;
  // Not a positive number: 0 (no limit), or options saved before the limit existed.
  if (!(max > 0)) return false;
  const w = state.completionWindow;
  if (w === undefined || rateWindowOver(w.start, now)) {
    state.completionWindow = { start: now, count: 1 };
    return false;
  }
  if (w.count < max) {
    w.count++;
    return false;
  }
  refuseAtLimit(out, id, "completion/complete", "completion requests this second", max, "maxCompletionsPerSecond");
  return true;
}
