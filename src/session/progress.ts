/**
 * Progress: tokens, monotonic values, and coalescing of what we send.
 *
 * Spec: 2025-11-25 `basic/utilities/progress`. A request opts in with
 * `_meta.progressToken`; tokens MUST be unique across active requests (we use the request's
 * own id, which already is); progress MUST increase with each notification and MUST stop
 * when the operation completes; notifications MUST only reference active tokens. Both
 * parties SHOULD rate-limit: outgoing updates for one request are coalesced to at most one
 * per `progressIntervalMs`, the latest value winning, so a fast producer cannot flood the
 * peer. Inbound progress for an unknown or finished token, or one that does not increase,
 * is dropped with a diagnostic.
 */
import type { JsonObject, JsonRpcNotification } from "../jsonrpc/types.js";
import { merged } from "../jsonrpc/safe-json.js";
import { deadlineFrom, rateWindowOver, wakeNoLaterThan } from "./timeouts.js";
import { idKey, type InboundRequest, type SessionOutput, type SessionState } from "./types.js";

/** Reads a progress token from request params, if it is a valid one (string or integer). */
export function progressTokenOf(params: JsonObject | undefined): string | number | undefined {
  const meta = params?._meta as JsonObject | undefined;
  const t = meta !== undefined && typeof meta === "object" && meta !== null ? meta.progressToken : undefined;
  return typeof t === "string" || (typeof t === "number" && Number.isInteger(t)) ? t : undefined;
}

/** The progress token the application wrote into outgoing `params` itself: undefined when none (an undefined one is none in JSON), null when it is no string or safe integer. */
export function ownProgressToken(params: JsonObject | undefined): string | number | null | undefined {
  const meta = params?._meta;
  if (typeof meta !== "object" || meta === null || !Object.hasOwn(meta, "progressToken")) return undefined;
  const t = (meta as JsonObject).progressToken;
  if (t === undefined) return undefined;
  return typeof t === "string" || Number.isSafeInteger(t) ? (t as string | number) : null;
}

/** Whether `token` is that of a request of ours in flight, or of a task whose creating request was answered (task-progress.ts). */
export function progressTokenInUse(state: SessionState, token: string | number): boolean {
  const key = idKey(token);
  return Object.hasOwn(state.progressTokens, key) || Object.hasOwn(state.taskProgress, key);
}

/** Params with `_meta.progressToken` set, leaving the caller's object untouched. */
export function withProgressToken(params: JsonObject | undefined, token: string | number): JsonObject {
  const meta = (params?._meta as JsonObject | undefined) ?? {};
  return merged(params, { _meta: merged(meta, { progressToken: token }) }) as JsonObject;
}

/**
 * Handles an inbound `notifications/progress` (params already schema-validated). The token
 * names a request in flight, or a task whose creating request was answered
 * (`state.taskProgress`, see task-progress.ts); either way the same rules apply.
 */
export function receiveProgress(state: SessionState, params: JsonObject, now: number, out: SessionOutput[]): void {
  const token = params.progressToken as string | number;
  const key = idKey(token);
  const req = Object.hasOwn(state.progressTokens, key) ? state.outbound[state.progressTokens[key]] : undefined;
  const holder = req ?? (Object.hasOwn(state.taskProgress, key) ? state.taskProgress[key] : undefined);
  if (holder === undefined) {
    out.push({ type: "diagnostic", code: "unknown-progress-token", message: "progress for a token of no active request was dropped", detail: { progressToken: token } });
    return;
  }
  if (!withinProgressRate(state, holder, now, token, out)) return;
  const value = params.progress as number;
  if (holder.progress !== undefined && !(value > holder.progress)) {
    out.push({ type: "diagnostic", code: "progress-not-increasing", message: "progress that did not increase was dropped", detail: { progressToken: token, progress: value, previous: holder.progress } });
    return;
  }
  holder.progress = value;
  if (req !== undefined && state.options.resetTimeoutOnProgress && req.timeoutMs > 0) {
    req.deadline = deadlineFrom(now, req.timeoutMs, req.hardDeadline);
    wakeNoLaterThan(state, req.deadline);
  }
  // An MRTR retry's progress is legal on its own token (and resets its timeout above), but
  // the application sees one call, whose progress MUST increase (basic/utilities/progress):
  // what an earlier round already passed is not handed on again.
  if (req?.shownProgress !== undefined && !(value > req.shownProgress)) {
    out.push({ type: "diagnostic", code: "progress-not-increasing", message: "progress not past what an earlier input round of the call reported was not handed on", detail: { progressToken: token, progress: value, previous: req.shownProgress } });
    return;
  }
  const event: SessionOutput = { type: "progress", id: req === undefined ? holder.id : (req.origin ?? req.id), progress: value };
  if (params.total !== undefined) event.total = params.total as number;
  if (params.message !== undefined) event.message = params.message as string;
  out.push(event);
}

/**
 * The inbound progress rate limit: true when one more notification for `holder` (a request
 * or a task token) fits in the current one-second window.
 */
function withinProgressRate(state: SessionState, holder: { progressWindow?: [number, number] }, now: number, token: string | number, out: SessionOutput[]): boolean {
  const max = state.options.maxProgressPerSecond;
  if (!(max > 0)) return true;
  const w = holder.progressWindow;
  if (w === undefined || rateWindowOver(w[0], now)) {
    holder.progressWindow = [now, 1];
    return true;
  }
  if (w[1] >= max) {
    // One diagnostic per window, not one per dropped notification.
    if (w[1] === max) out.push({ type: "diagnostic", code: "progress-rate-limited", message: `more than ${max} progress notifications in a second for one request; the rest of this second's are dropped`, detail: { progressToken: token } });
    w[1] = max + 1;
    return false;
  }
  w[1]++;
  return true;
}

/** The refusal of a message the application relates to a listen request (send.ts `isListen`). */
export const LISTEN_REFUSAL = (method: string): string => `"${method}" is not sent on a subscriptions/listen stream: it carries only the notifications its filter asked for`;

/** Handles the application's progress report for a request it is handling. */
export function sendProgress(
  state: SessionState,
  req: InboundRequest,
  update: { progress: number; total?: number; message?: string },
  now: number,
  out: SessionOutput[],
): void {
  if (req.subscription !== undefined) {
    // Request-scoped notifications are not delivered on a listen stream (draft streamable-http,
    // Receiving Messages); it carries only the notifications its filter asked for (send.ts isListen).
    out.push({ type: "diagnostic", code: "notification-refused", message: LISTEN_REFUSAL("notifications/progress") });
    return;
  }
  if (req.progressToken === undefined) {
    out.push({ type: "diagnostic", code: "no-progress-token", message: "the peer did not ask for progress on this request; update dropped", detail: { id: req.id } });
    return;
  }
  if (typeof update.progress !== "number" || !Number.isFinite(update.progress) || (req.progress !== undefined && !(update.progress > req.progress))) {
    out.push({ type: "diagnostic", code: "progress-not-increasing", message: "progress MUST increase with each notification; update dropped", detail: { id: req.id, progress: update.progress, previous: req.progress } });
    return;
  }
  req.progress = update.progress;
  const interval = state.options.progressIntervalMs;
  // (A reading before the last send is a clock stepped back: not a reason to hold this one.)
  if (interval > 0 && req.progressSentAt !== undefined && now < req.progressSentAt + interval && now >= req.progressSentAt) {
    const at = req.progressSentAt + interval;
    // Only the update's own fields: `update` is the whole input (its type, now and id), and a
    // driver passes `total: undefined` when there is none, which the plain-JSON state must not hold.
    const pending: NonNullable<InboundRequest["pendingProgress"]> = { progress: update.progress, at };
    if (update.total !== undefined) pending.total = update.total;
    if (update.message !== undefined) pending.message = update.message;
    req.pendingProgress = pending;
    wakeNoLaterThan(state, at);
    return;
  }
  emitProgress(req, update, now, out);
}

/**
 * Sends a coalesced update whose slot has come, or, when the request is being `answered`,
 * the one still held whatever its slot: it goes out before the response, as the latest value
 * wins and after completion progress MUST stop (dropped, a tool's last "10 of 10" was lost).
 */
export function flushProgress(req: InboundRequest, now: number, out: SessionOutput[], answered = false): void {
  const p = req.pendingProgress;
  if (p === undefined || (p.at > now && !answered)) return;
  delete req.pendingProgress;
  emitProgress(req, p, now, out);
}

function emitProgress(req: InboundRequest, update: { progress: number; total?: number; message?: string }, now: number, out: SessionOutput[]): void {
  req.progressSentAt = now;
  // A held update this one overtakes (its slot came, the tick not yet) would follow it, lower.
  delete req.pendingProgress;
  out.push({ type: "send", message: progressNotification(req.progressToken!, update), related: req.id });
}

/** The `notifications/progress` message for `update` under `token`. */
export function progressNotification(token: string | number, update: { progress: number; total?: number; message?: string; meta?: JsonObject }): JsonRpcNotification {
  const params: JsonObject = { progressToken: token, progress: update.progress };
  if (update.total !== undefined) params.total = update.total;
  if (update.message !== undefined) params.message = update.message;
  if (update.meta !== undefined) params._meta = update.meta;
  return { jsonrpc: "2.0", method: "notifications/progress", params };
}
