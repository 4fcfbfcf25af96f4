/**
 * Cancellation, both ways.
 *
 * Spec: 2025-11-25 `basic/utilities/cancellation`. A cancellation MUST only reference a
 * request issued in the same direction and believed in progress; `initialize` MUST NOT be
 * cancelled; task-augmented requests use `tasks/cancel` instead. The receiver SHOULD stop,
 * free resources and not respond; it MAY ignore unknown or finished requests, and invalid
 * cancellations SHOULD be ignored. The sender SHOULD ignore a response that arrives after.
 *
 * Draft `basic/patterns/cancellation` adds one server-sent use: a server MUST send
 * `notifications/cancelled` naming a `subscriptions/listen` request when it tears that
 * subscription down, so a client takes it as the end of its listen request.
 *
 * Theory of operation. Cancelling removes the request from the table at once, on both
 * sides, so every race resolves the same way: a response that crosses our cancellation
 * finds no entry and is dropped with a diagnostic; a cancellation that crosses our
 * response finds no entry and is ignored; an application answer to a request the peer
 * cancelled finds no entry and is not sent. A 2025-11-25 task-augmented request is the
 * exception: it fails for the application at once, but the kernel keeps waiting for its
 * `CreateTaskResult`, the only message that names the task `tasks/cancel` needs (see
 * {@link abandonTaskRequest}); so does a cancelled or timed-out extension request the
 * server may have answered with a task already ({@link stopWaiting}).
 */
import { ErrorCode, type JsonRpcErrorObject } from "../jsonrpc/errors.js";
import type { JsonObject } from "../jsonrpc/types.js";
import { mayReturnTask } from "../tasks/modern.js";
import { pushSend, removeInbound, removeOutbound } from "./requests.js";
import { wakeNoLaterThan } from "./timeouts.js";
import { idKey, type OutboundRequest, type SessionOutput, type SessionState } from "./types.js";

/** Handles an inbound `notifications/cancelled` (params already schema-validated). */
export function receiveCancelled(state: SessionState, params: JsonObject, now: number, out: SessionOutput[]): void {
  const requestId = params.requestId;
  if (typeof requestId !== "string" && typeof requestId !== "number") {
    out.push({ type: "diagnostic", code: "cancel-ignored", message: "cancellation without a requestId ignored" });
    return;
  }
  const key = idKey(requestId);
  // An MRTR input request is the client's own, answered locally: no peer can cancel it.
  const req = Object.hasOwn(state.inbound, key) && state.inbound[key].mrtr === undefined ? state.inbound[key] : undefined;
  if (req === undefined) {
    if (state.options.role === "client" && endListen(state, key, params.reason, out)) return;
    // Unknown, or already answered: the race the page describes. Ignore.
    out.push({ type: "diagnostic", code: "cancel-ignored", message: "cancellation of a request not in progress ignored", detail: { requestId } });
    return;
  }
  if (req.task) {
    out.push({ type: "diagnostic", code: "cancel-ignored", message: "task-augmented requests are cancelled with tasks/cancel; notification ignored", detail: { requestId } });
    return;
  }
  removeInbound(state, key);
  // What we asked the peer on this request's behalf (an elicitation, a sampling request) is
  // moot now: cancelled first, so that on HTTP the notification still goes on this
  // request's stream, which closes with it (a client that keeps no GET stream would never
  // learn of it, and its user would be left with an open prompt).
  cancelSentFor(state, req.id, "the request it was sent for was cancelled", now, out);
  const event: SessionOutput = { type: "cancelled", id: req.id };
  if (typeof params.reason === "string") event.reason = params.reason;
  out.push(event);
}

/**
 * Cancels what this side asked the peer on behalf of the peer's request `id` (sent with it as
 * `related`) and is still waiting for: the application's requests only, not the kernel's own.
 */
export function cancelSentFor(state: SessionState, id: string | number, reason: string, now: number, out: SessionOutput[]): void {
  // Every answer asks: most find the table empty (a server rarely asks its client anything).
  if (state.outboundCount === 0) return;
  for (const k in state.outbound) {
    const sent = state.outbound[k];
    if (sent.related === id && sent.internal === undefined) cancelOutbound(state, sent.id, reason, now, out);
  }
}

/**
 * Client: the server tore down the subscription of our `subscriptions/listen` request
 * `key` (draft `basic/patterns/cancellation`). The request ends with a -32800 error naming
 * the server as the one who ended it; nothing is sent back, since a cancellation references
 * only a request "believed to still be in-progress". False when `key` is no listen request
 * of ours (servers MUST NOT send notifications/cancelled for anything else).
 */
function endListen(state: SessionState, key: string, reason: unknown, out: SessionOutput[]): boolean {
  const req = Object.hasOwn(state.outbound, key) ? state.outbound[key] : undefined;
  if (req?.method !== "subscriptions/listen" || req.internal !== undefined) return false;
  removeOutbound(state, key);
  const why = typeof reason === "string" ? `: ${reason}` : "";
  out.push({ type: "error", id: req.id, method: req.method, error: { code: ErrorCode.RequestCancelled, message: `the server ended the subscription${why}` } });
  return true;
}

/** The application cancels a request it sent: tell the peer, fail the request locally. */
export function cancelOutbound(state: SessionState, id: string | number, reason: string | undefined, now: number, out: SessionOutput[]): void {
  let key = idKey(id);
  let req = Object.hasOwn(state.outbound, key) ? state.outbound[key] : undefined;
  if (req === undefined) {
    // An MRTR retry goes out under a new id; the application still names the original.
    for (const k in state.outbound) {
      if (state.outbound[k].origin === id) {
        key = k;
        req = state.outbound[k];
        break;
      }
    }
  }
  // An abandoned task request already failed for the application.
  if (req === undefined || req.internal === "abandoned-task") {
    out.push({ type: "diagnostic", code: "cancel-unknown", message: "no request in flight with this id", detail: { id } });
    return;
  }
  if (req.internal === "initialize") {
    out.push({ type: "diagnostic", code: "cancel-refused", message: "the initialize request MUST NOT be cancelled", detail: { id } });
    return;
  }
  // The kernel's own requests (the server/discover probe, a keep-alive ping) end on their
  // own: the handshake waits on the probe, so cancelling it would leave the session probing.
  if (req.internal !== undefined) {
    out.push({ type: "diagnostic", code: "cancel-refused", message: `the kernel's own ${req.method} request is not the application's to cancel`, detail: { id } });
    return;
  }
  const error = { code: ErrorCode.RequestCancelled, message: reason ?? "request cancelled" };
  if (req.task) return abandonTaskRequest(state, key, req, now, error, out);
  // A task answer that crossed the cancellation is awaited until the request's own deadline.
  stopWaiting(state, key, req, reason, now, error, out, req.deadline);
}

/**
 * We give up on the application's request `req` (cancelled, or timed out: draft
 * `basic/patterns/cancellation`, "Timeouts": the sender SHOULD cancel the request and stop
 * waiting, so a timeout leaves the peer as a cancellation does). The peer is told with
 * `notifications/cancelled` and the request fails for the application with `error`. Tasks
 * extension: the server may have answered with a task before our cancellation reached it;
 * that answer, if one comes before `until`, gets tasks/cancel, as the task's work SHOULD
 * stop, so such a request is kept as {@link abandonTaskRequest} keeps one.
 */
export function stopWaiting(state: SessionState, key: string, req: OutboundRequest, reason: string | undefined, now: number, error: JsonRpcErrorObject, out: SessionOutput[], until: number | null): void {
  const params: JsonObject = { requestId: req.id };
  if (reason !== undefined) params.reason = reason;
  pushSend(out, { jsonrpc: "2.0", method: "notifications/cancelled", params }, req.related);
  if (state.phase.name === "modern" && until !== null && mayReturnTask(req.method, state.options.capabilities)) return abandonTaskRequest(state, key, req, now, error, out, until);
  removeOutbound(state, key);
  out.push({ type: "error", id: req.origin ?? req.id, method: req.method, error });
}

/**
 * The application gives up on a 2025-11-25 task-augmented request (cancel or timeout)
 * before its `CreateTaskResult` came. Such a request "MUST" be cancelled with
 * `tasks/cancel`, not `notifications/cancelled`, and `tasks/cancel` needs the task id,
 * which only that result carries. So the request fails for the application now, its
 * progress stops, and the kernel keeps it as `abandoned-task` until its hard deadline
 * (`until`): the result, if it comes, has its task cancelled by the kernel (receive.ts). A
 * request whose hard deadline has passed too is forgotten; its task, if any, ends with its
 * ttl. A cancelled or timed-out extension request that may be answered with a task is kept
 * the same way.
 */
export function abandonTaskRequest(state: SessionState, key: string, req: OutboundRequest, now: number, error: JsonRpcErrorObject, out: SessionOutput[], until = req.hardDeadline ?? req.deadline): void {
  out.push({ type: "error", id: req.origin ?? req.id, method: req.method, error });
  if (until !== null && until <= now) {
    removeOutbound(state, key);
    return;
  }
  if (req.progressToken !== undefined) {
    delete state.progressTokens[idKey(req.progressToken)];
    delete req.progressToken;
  }
  // Abandoned entries take no slot of maxOutboundRequests (live requests are not refused for
  // them) and are bounded by it on their own: past it the oldest is forgotten, which loses
  // only the courtesy tasks/cancel for a task answer that may never come.
  const abandoned = state.abandonedCount ?? 0;
  if (abandoned >= state.options.maxOutboundRequests) forgetOldestAbandoned(state, out);
  req.internal = "abandoned-task";
  req.deadline = until;
  state.abandonedCount = (state.abandonedCount ?? 0) + 1;
  wakeNoLaterThan(state, until);
  out.push({ type: "diagnostic", code: "task-cancel-pending", message: "a request that was cancelled or timed out is cancelled with tasks/cancel, once a task answer names its task", detail: { id: req.id } });
}

/** Drops the abandoned request sent first (ids are a counter, and integer keys iterate in ascending order). */
function forgetOldestAbandoned(state: SessionState, out: SessionOutput[]): void {
  for (const key in state.outbound) {
    const req = state.outbound[key];
    if (req.internal !== "abandoned-task") continue;
    removeOutbound(state, key);
    out.push({ type: "diagnostic", code: "task-cancel-abandoned", message: "too many cancelled or timed-out requests await a possible task answer: the oldest is forgotten; its task, if any, ends with its ttl", detail: { id: req.id } });
    return;
  }
}
