/**
 * Request bookkeeping: the two tables of requests in flight, and the messages that answer
 * them.
 *
 * Spec: `basic/index` ("Requests", "Responses"). An id MUST NOT repeat one the sender
 * still awaits a response for, and a response MUST carry its request's id. Outbound ids
 * come from a counter in the state, so they are unique for the session's lifetime and
 * identical on every replay. Each table has a count beside it, so limits cost O(1).
 */
import { ErrorCode, rpcError, type JsonRpcErrorObject } from "../jsonrpc/errors.js";
import type { JsonObject, JsonRpcMessage, RequestId } from "../jsonrpc/types.js";
import { deadlineFrom, wakeNoLaterThan } from "./timeouts.js";
import { idKey, tableKey, type InboundRequest, type OutboundRequest, type SessionOutput, type SessionState } from "./types.js";

/** Records a request we sent. */
export function addOutbound(state: SessionState, req: OutboundRequest): void {
  state.outbound[tableKey(req.id)] = req;
  state.outboundCount++;
  if (req.progressToken !== undefined) state.progressTokens[idKey(req.progressToken)] = idKey(req.id);
}

/** Forgets a request we sent (answered, timed out, cancelled); its progress token dies with it. */
export function removeOutbound(state: SessionState, key: string | number): OutboundRequest | undefined {
  if (!Object.hasOwn(state.outbound, key)) return undefined;
  const req = state.outbound[key];
  delete state.outbound[key];
  state.outboundCount--;
  if (req.internal === "abandoned-task" && (state.abandonedCount ?? 0) > 0) state.abandonedCount!--;
  if (req.progressToken !== undefined) delete state.progressTokens[idKey(req.progressToken)];
  return req;
}

/** Records a request the kernel sends itself (`internal` says which) and returns its id. `deadline`, when given, replaces the one `timeoutMs` would set (a re-sent probe keeps the first one's). */
export function internalRequest(state: SessionState, now: number, method: string, internal: OutboundRequest["internal"], timeoutMs = state.options.requestTimeoutMs, deadline?: number | null): number {
  const o = state.options;
  const id = state.nextId++;
  const hard = o.maxRequestTimeoutMs > 0 ? now + o.maxRequestTimeoutMs : null;
  const req: OutboundRequest = { id, method, internal, deadline: deadline !== undefined ? deadline : deadlineFrom(now, timeoutMs, hard), hardDeadline: hard, timeoutMs };
  addOutbound(state, req);
  wakeNoLaterThan(state, req.deadline);
  return id;
}

/** How many requests we sent await a response, not counting those kept only to cancel a task (`abandoned-task`). */
export function liveOutbound(state: SessionState): number {
  return state.outboundCount - (state.abandonedCount ?? 0);
}

/** Records a request the peer sent. */
export function addInbound(state: SessionState, req: InboundRequest): void {
  state.inbound[tableKey(req.id)] = req;
  state.inboundCount++;
}

/** Forgets a request the peer sent (answered or cancelled); a subscription ends with its request. */
export function removeInbound(state: SessionState, key: string | number): InboundRequest | undefined {
  if (!Object.hasOwn(state.inbound, key)) return undefined;
  const req = state.inbound[key];
  delete state.inbound[key];
  state.inboundCount--;
  if (req.subscription !== undefined) {
    delete state.subscriptions[key];
    state.subscriptionCount--;
  }
  return req;
}

/** A send output, with `related` only when there is one (outputs stay minimal and stable for transcripts). */
export function pushSend(out: SessionOutput[], message: JsonRpcMessage, related: RequestId | undefined): void {
  out.push(related === undefined ? { type: "send", message } : { type: "send", message, related });
}

/** Sends a result response. */
export function sendResult(out: SessionOutput[], id: RequestId, result: JsonObject): void {
  out.push({ type: "send", message: { jsonrpc: "2.0", id, result } });
}

/** Sends an error response carrying `error` as built (by `rpcError` or the kernel's error constructors). */
export function sendErrorObject(out: SessionOutput[], id: RequestId | null, error: JsonRpcErrorObject): void {
  out.push({ type: "send", message: { jsonrpc: "2.0", id, error } });
}

/**
 * Refuses a request because a bound of the session is reached, and tells the application
 * too (`limit-reached`): the peer sees only its error, and a server that refuses work
 * because it is full should not be the last to know.
 */
export function refuseAtLimit(out: SessionOutput[], id: RequestId, method: string, what: string, limit: number, option: string): void {
  const message = `too many ${what} (limit ${limit})`;
  sendError(out, id, ErrorCode.InvalidRequest, message);
  out.push({ type: "diagnostic", code: "limit-reached", message: `${method} refused: ${message}`, detail: { id, method, limit, option } });
}

/** Sends an error response (`id` null when the request's id could not be read). */
export function sendError(out: SessionOutput[], id: RequestId | null, code: number, message: string, data?: unknown): void {
  out.push({ type: "send", message: { jsonrpc: "2.0", id, error: rpcError(code, message, data) } });
}
