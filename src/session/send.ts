/**
 * Sending: the application's requests, notifications and log messages.
 *
 * Spec: 2025-11-25 `basic/index`, `basic/lifecycle` (what each phase lets out, Timeouts),
 * `basic/utilities/progress` (the progress token), `server/utilities/logging`; draft
 * `basic/index` (a modern request's `_meta`).
 *
 * Theory of operation. An outbound message passes the mirror image of the checks receive.ts
 * runs on an inbound one: lifecycle gate, method known in the version and sent by this
 * side, capability declared, params an object and valid, limits. A refused request is an
 * `error` output for that request and a refused notification a diagnostic: nothing throws
 * and nothing reaches the wire. An accepted request is recorded with its deadlines
 * (timeouts.ts); in the modern era it carries its version, capabilities and identity in
 * `_meta`, and a copy of its params is kept for the retry of an input round (mrtr.ts), which
 * comes back through `sendRequest` with the call's deadlines. A log message is filtered by
 * the client's level and spends the session's budget (logging.ts); one for a modern request
 * goes with that request (modern/server.ts).
 */
import { jsonCopy } from "../jsonrpc/safe-json.js";
import { ErrorCode } from "../jsonrpc/errors.js";
import type { JsonObject, RequestId } from "../jsonrpc/types.js";
import { hasCapability } from "../model/methods.js";
import { isModernVersion } from "../model/versions.js";
import { withRequestMeta } from "../modern/request-meta.js";
import { logForRequest } from "../modern/server.js";
import { acceptsTaskAugmented } from "../tasks/capabilities.js";
import { filterOf } from "../modern/subscriptions.js";
import { missingCapability, paramsCapabilityError } from "./capabilities.js";
import { gateAdmits, OUTBOUND_GATE } from "./lifecycle.js";
import { countLog, levelRank, logRoom, passesLevel } from "./logging.js";
import { declaredSpecOf, isParamsObject, isTaskAugmented, modernCapabilities, peerOfPhase, sentBy, specOf, versionOf } from "./phase.js";
import { LISTEN_REFUSAL, ownProgressToken, progressTokenInUse, withProgressToken } from "./progress.js";
import { addOutbound, liveOutbound, pushSend } from "./requests.js";
import { deadlineFrom, isClockReading, wakeNoLaterThan } from "./timeouts.js";
import { idKey, isIdLike, type InboundRequest, type LoggingLevel, type OutboundRequest, type SessionInput, type SessionOutput, type SessionState } from "./types.js";

/** How an `elicitationId` the kernel fills in begins: the rest is the request's id. */
const MINTED_ELICITATION_PREFIX = "elicitation-";

/** What is wrong with an input's `related` (the peer's request it goes with), or null: looked up in the request table, it must be a request id. */
export function relatedProblem(related: unknown): string | null {
  return related === undefined || isIdLike(related) ? null : "related must be a request id (a string or a finite number)";
}

/** The `request` input, and an input round's retry (`retry`, mrtr.ts): checked, recorded with its deadlines, and sent; a refusal is an `error` output. */
export function sendRequest(
  state: SessionState,
  input: Extract<SessionInput, { type: "request" }>,
  out: SessionOutput[],
  retry?: { origin: RequestId; round: number; params?: JsonObject; deadline: number | null; hardDeadline: number | null; shownProgress?: number | undefined },
): void {
  const o = state.options;
  const { method, now } = input;
  const id = state.nextId++;
  // Refusals name the request the application knows (the original one of an MRTR retry).
  const eventId = retry?.origin ?? id;
  const phase = state.phase;
  // Before any refusal that names it: a symbol (or an object whose toString throws) threw out of
  // the message's template and closed the session with an internal error. The event's method is
  // a string, so it is left empty.
  if (typeof method !== "string") return refuseRequest(out, eventId, "", ErrorCode.InvalidParams, "method must be a string");
  if (phase.name === "closed") return refuseRequest(out, eventId, method, ErrorCode.ConnectionClosed, `the session is closed: ${phase.reason}`);
  if (method === "initialize") return refuseRequest(out, eventId, method, ErrorCode.InvalidRequest, "the kernel sends initialize itself (input `open`)");
  // Sent for a 2026-07-28 request: refused whatever the phase, which may be a legacy
  // session's sharing the connection (a dual-era stdio process). Such a request is never
  // "before initialization": its server has no channel for requests of its own.
  const forModern = modernOf(state, input.related) !== undefined;
  if (forModern || !gateAdmits(OUTBOUND_GATE[o.role][phase.name].requests, method)) {
    const why = forModern || phase.name === "modern" ? "cannot be sent: a 2026-07-28 server sends no requests (it asks the client for input with input_required)" : "may not be sent before initialization completes";
    return refuseRequest(out, eventId, method, ErrorCode.InvalidRequest, `"${method}" ${why}`);
  }
  const spec = specOf(state, versionOf(state), method);
  if (spec === undefined || spec.kind !== "request" || !sentBy(spec, o.role)) return refuseRequest(out, eventId, method, ErrorCode.MethodNotFound, `${method} is not a ${o.role} request in ${versionOf(state)}`);
  const peer = peerOfPhase(phase);
  const missing = missingCapability(spec, o.role, o.capabilities, peer?.capabilities, o.role);
  if (missing !== null) return refuseRequest(out, eventId, method, ErrorCode.MethodNotFound, `cannot send ${method}: capability ${missing} was not declared`);
  let params = input.params;
  if (!isParamsObject(params)) return refuseRequest(out, eventId, method, ErrorCode.InvalidParams, `${method} params must be an object`);
  const capError = paramsCapabilityError(method, params, o.role === "client" ? o.capabilities : peer?.capabilities, versionOf(state));
  if (capError !== null) return refuseRequest(out, eventId, method, capError.code, `cannot send ${method}: ${capError.message}`, capError.data);
  // 2026-07-28 dropped a URL elicitation's `elicitationId`, which 2025-11-25 requires: a
  // request written for both eras (an input request bridged to a legacy session, mrtr.ts)
  // gets one from its own id, unique in the session (the client treats it as opaque).
  if (method === "elicitation/create" && params?.mode === "url" && params.elicitationId === undefined && !isModernVersion(versionOf(state))) {
    params = { ...params, elicitationId: `${MINTED_ELICITATION_PREFIX}${id}` };
  }
  const original = params;
  // Modern era: every request carries its version, capabilities and identity (draft basic/index, _meta).
  if (phase.name === "modern") params = withRequestMeta(params, phase.version, o.capabilities, o.info, input.logLevel);
  if (o.validateOutgoing) {
    const issues = spec.validateParams(params);
    if (issues) return refuseRequest(out, eventId, method, ErrorCode.InvalidParams, `invalid ${method} params`, { issues });
  }
  // Kept for an MRTR retry: the application's own params, never a previous round's inputs, and
  // a copy, so that the application reusing its object after the call cannot change the retry.
  let kept = retry?.params;
  if (retry === undefined && phase.name === "modern" && spec.inputRequired && original !== undefined) {
    kept = jsonCopy(original);
    if (kept === undefined) return refuseRequest(out, eventId, method, ErrorCode.InvalidParams, `${method} params have no JSON form`);
  }
  if (liveOutbound(state) >= o.maxOutboundRequests) return refuseRequest(out, eventId, method, ErrorCode.InvalidRequest, `too many requests awaiting a response (limit ${o.maxOutboundRequests})`);
  // Non-finite times would put NaN or Infinity into the state (gone in a JSON snapshot, fired at once by a NaN tick).
  if (!isClockReading(now)) return refuseRequest(out, eventId, method, ErrorCode.InvalidParams, "now must be a finite number within ±(2^53−1)");
  if (input.timeoutMs !== undefined && !(Number.isFinite(input.timeoutMs) && input.timeoutMs >= 0)) return refuseRequest(out, eventId, method, ErrorCode.InvalidParams, "timeoutMs must be a finite number of milliseconds (0 for none)");
  const badRelated = relatedProblem(input.related);
  if (badRelated !== null) return refuseRequest(out, eventId, method, ErrorCode.InvalidParams, badRelated);
  // basic/utilities/progress: a token "MUST be a string or integer value" and "MUST be unique
  // across all active requests". The kernel's own (the `progress` input) is the request's id;
  // one the application wrote into `_meta` itself (a proxy forwarding its caller's) went out
  // unchecked and unrecorded, so two requests in flight could carry the same token, or one
  // equal to a later request's id, and the peer's progress for one was handed to the other.
  // Either is held to both rules now, and recorded (its progress reaches the application).
  // The kernel's own is its choice, not the caller's: when the application's token already
  // holds the id, another is taken rather than the request refused for a token it never named.
  const token = input.progress ? freeProgressToken(state, id) : ownProgressToken(params);
  if (token === null) return refuseRequest(out, eventId, method, ErrorCode.InvalidParams, `${method} _meta.progressToken must be a string or an integer`);
  if (token !== undefined && progressTokenInUse(state, token)) return refuseRequest(out, eventId, method, ErrorCode.InvalidParams, `progress token ${JSON.stringify(token)} is already used by a request or task in progress (tokens must be unique among them)`);
  // A subscription is meant to stay open until one side ends it (draft
  // basic/patterns/subscriptions), and a 2025-11-25 tasks/result "MUST block the response
  // until the task reaches a terminal status" (basic/utilities/tasks): no default timeout
  // or cap, only a timeout the caller asks for (0: none).
  const untimed = (method === "subscriptions/listen" || method === "tasks/result") && !((input.timeoutMs ?? 0) > 0);
  const timeoutMs = input.timeoutMs ?? (untimed ? 0 : o.requestTimeoutMs);
  // An MRTR retry goes on with the call's deadlines (see receiveInputRequired).
  const hard = retry !== undefined ? retry.hardDeadline : o.maxRequestTimeoutMs > 0 && !untimed ? now + o.maxRequestTimeoutMs : null;
  const deadline = retry !== undefined ? retry.deadline : deadlineFrom(now, timeoutMs, hard);
  const req: OutboundRequest = { id, method, deadline, hardDeadline: hard, timeoutMs };
  // A task only when the peer declared tasks for the method (`tasks.requests`): one that did
  // not "MUST process requests of that type normally, ignoring any task-augmentation
  // metadata" (2025-11-25 basic/utilities/tasks), so such a request is a plain one, and its
  // cancel is notifications/cancelled (receive.ts flags an inbound one by the same rule).
  // The modern era has no `params.task` (the extension: servers MUST ignore it).
  if (phase.name !== "modern" && isTaskAugmented(spec, params) && acceptsTaskAugmented(peer?.capabilities, method)) req.task = true;
  if (method === "tasks/result" && typeof params?.taskId === "string") req.resultOf = params.taskId;
  if (kept !== undefined) req.params = kept;
  if (phase.name === "modern" && method === "subscriptions/listen") req.listen = { filter: filterOf(original?.notifications) };
  if (phase.name === "modern" && spec.inputRequired && input.logLevel !== undefined) req.logLevel = input.logLevel;
  if (retry !== undefined) {
    req.origin = retry.origin;
    req.round = retry.round;
    if (retry.shownProgress !== undefined) req.shownProgress = retry.shownProgress;
  }
  // Its cancellation goes where it went: on HTTP, that request's stream (2025-11-25
  // transports: messages on a POST's stream relate to its request), not the GET stream a
  // client may not have. Kept only while it names a request in progress (a peer's id, bounded).
  if (relatedRequest(state, input.related) !== undefined) req.related = input.related;
  if (input.progress) params = withProgressToken(params, token!);
  if (token !== undefined) req.progressToken = token;
  addOutbound(state, req);
  wakeNoLaterThan(state, req.deadline);
  pushSend(out, params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params }, input.related);
}

/**
 * The progress token of the kernel's own for request `id`: the id, unless a token the
 * application wrote into `_meta` itself already holds it (a proxy forwarding its caller's,
 * which are often small integers too); then the id with a suffix, the first not in use.
 */
function freeProgressToken(state: SessionState, id: number): string | number {
  if (!progressTokenInUse(state, id)) return id;
  let n = 1;
  while (progressTokenInUse(state, `${id}-${n}`)) n++;
  return `${id}-${n}`;
}

/** Fails a request the application asked to send: an `error` event, nothing on the wire. */
function refuseRequest(out: SessionOutput[], id: RequestId, method: string, code: number, message: string, data?: unknown): void {
  out.push({ type: "error", id, method, error: data === undefined ? { code, message } : { code, message, data } });
}

/** Notifications the kernel sends itself; the application uses the `cancel` and `progress` inputs instead. */
const KERNEL_NOTIFICATIONS = ["notifications/initialized", "notifications/cancelled", "notifications/progress"];

/** The `notify` input: checked and sent; a refusal is a diagnostic. */
export function sendNotification(state: SessionState, method: string, params: JsonObject | undefined, out: SessionOutput[], related?: RequestId): void {
  const o = state.options;
  const refuse = (message: string, detail?: unknown): void => {
    out.push({ type: "diagnostic", code: "notification-refused", message, detail });
  };
  if (!isParamsObject(params)) return refuse(`${method} params must be an object`);
  if (KERNEL_NOTIFICATIONS.includes(method)) return refuse(`${method} is sent by the kernel; use the cancel or progress input`);
  if (isListen(state, related)) return refuse(LISTEN_REFUSAL(method));
  // One for a 2026-07-28 request is an extension's or none: the phase is a legacy session's,
  // whose notifications (list_changed, say) are not that request's to send.
  // The peer of a modern request is described by that request (its `_meta`), not by a handshake.
  const modern = modernOf(state, related);
  if (modern !== undefined && !modernExtensionNotification(state, method, related)) return refuse(`"${method}" is not sent for a 2026-07-28 request`);
  if (!gateAdmits(OUTBOUND_GATE[o.role][state.phase.name].notifications, method) && !modernExtensionNotification(state, method, related)) return refuse(`"${method}" may not be sent in phase ${state.phase.name}`);
  const spec = specOf(state, versionOf(state), method);
  if (spec === undefined || spec.kind !== "notification" || !sentBy(spec, o.role)) return refuse(`${method} is not a ${o.role} notification in ${versionOf(state)}`);
  const missing = modern !== undefined ? missingCapability(spec, o.role, modernCapabilities(state), modern.capabilities, o.role) : missingCapability(spec, o.role, o.capabilities, peerOfPhase(state.phase)?.capabilities, o.role);
  if (missing !== null) return refuse(`cannot send ${method}: capability ${missing} was not declared`);
  if (o.validateOutgoing) {
    const issues = spec.validateParams(params);
    if (issues) return refuse(`invalid ${method} params`, { issues });
  }
  pushSend(out, params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params }, related);
}

/**
 * True when `related` names an open `subscriptions/listen` request. Its stream carries only
 * what the kernel writes there: the acknowledgment, the change notifications its filter asked
 * for, tagged with its subscription id, and its completion result. Draft
 * `basic/patterns/subscriptions`: the server "MUST NOT send notification types the client
 * has not explicitly requested"; `server/utilities/logging`: `notifications/message` MUST NOT
 * be delivered on a listen stream; `streamable-http`: nor is `notifications/progress`.
 */
export function isListen(state: SessionState, related: RequestId | undefined): boolean {
  return relatedRequest(state, related)?.subscription !== undefined;
}

/** Server: the 2026-07-28 request `related` names, if it is one being handled (what is sent for it is held to that era). */
function modernOf(state: SessionState, related: RequestId | undefined): InboundRequest["modern"] {
  return relatedRequest(state, related)?.modern;
}

/** The peer's request in progress that `related` names, if any (an id naming none, or no id at all, names nothing). */
function relatedRequest(state: SessionState, related: RequestId | undefined): InboundRequest | undefined {
  if (!isIdLike(related)) return undefined;
  const key = idKey(related);
  return Object.hasOwn(state.inbound, key) ? state.inbound[key] : undefined;
}

/**
 * Whether `method` is an extension's notification that goes out in the modern era, where the
 * legacy phases do not apply (draft basic/index: notifications go either way): a modern
 * client's, or a server's on the stream of the modern request it relates to.
 */
function modernExtensionNotification(state: SessionState, method: string, related: RequestId | undefined): boolean {
  if (declaredSpecOf(state, method) === undefined) return false;
  if (state.options.role === "client") return state.phase.name === "modern";
  return modernOf(state, related) !== undefined;
}

/** The `log` input (server only): a `notifications/message`, with a modern request when `related` names one, else filtered by the client's level. */
export function log(state: SessionState, level: LoggingLevel, logger: string | undefined, data: unknown, now: number, out: SessionOutput[], related?: RequestId, meta?: JsonObject): void {
  if (state.options.role !== "server") {
    out.push({ type: "diagnostic", code: "notification-refused", message: "only a server sends log messages" });
    return;
  }
  if (isListen(state, related)) {
    out.push({ type: "diagnostic", code: "notification-refused", message: LISTEN_REFUSAL("notifications/message") });
    return;
  }
  const params: JsonObject = { level, data };
  if (logger !== undefined) params.logger = logger;
  if (meta !== undefined) params._meta = meta;
  const req = relatedRequest(state, related);
  if (req?.modern !== undefined) {
    // draft server/utilities/logging: "Servers that emit log message notifications MUST
    // declare the `logging` capability" (the legacy path checks it in sendNotification).
    if (!hasCapability(modernCapabilities(state), "logging")) {
      out.push({ type: "diagnostic", code: "notification-refused", message: "cannot send notifications/message: capability logging was not declared" });
      return;
    }
    return logForRequest(state, req, level, params, now, out);
  }
  if (!passesLevel(level, state.logLevel)) return;
  sendLog(state, params, now, out, related);
}

/**
 * The `notify` input of a `notifications/message` (the official SDKs' way to log: a plain
 * notification): it goes out as the `log` input of its fields would, filtered by the client's
 * `logging/setLevel` (2025-11-25 `SetLevelRequest`: the server sends logs at that level and
 * more severe) and, for a modern request, by that request's own `logLevel` (draft
 * `server/utilities/logging`: the server MUST NOT emit `notifications/message` for a request
 * that does not include it, and sends it on that request's stream). Params that are no log
 * message are left to the checks of any notification, which refuse them.
 */
export function notifyLog(state: SessionState, params: JsonObject | undefined, now: number, out: SessionOutput[], related?: RequestId): void {
  if (isLogMessage(params)) return log(state, params.level as LoggingLevel, params.logger as string | undefined, params.data, now, out, related, params._meta as JsonObject | undefined);
  sendLog(state, params, now, out, related);
}

/** Whether `params` are a log message's fields; params whose getter (or Proxy trap) throws are none (the checks of any notification refuse them, where reading them here closed the session). */
function isLogMessage(params: JsonObject | undefined): params is JsonObject {
  try {
    return params !== undefined && isParamsObject(params) && levelRank(params.level) >= 0 && params.data !== undefined && (params.logger === undefined || typeof params.logger === "string") && (params._meta === undefined || isParamsObject(params._meta));
  } catch {
    return false;
  }
}

/**
 * Sends a legacy `notifications/message` within the session's budget (logging: "Servers
 * SHOULD: ... Rate limit log messages"). Checked before the gate and validation, so a flood
 * past the bound costs no validation; counted only when it went out, so one the gate
 * refused (wrong phase, no `logging` capability, bad params) spends none of it.
 */
export function sendLog(state: SessionState, params: JsonObject | undefined, now: number, out: SessionOutput[], related?: RequestId): void {
  if (!logRoom(state, "outgoing", now, out)) return;
  const before = out.length;
  sendNotification(state, "notifications/message", params, out, related);
  if (out.length > before && out[out.length - 1].type === "send") countLog(state, "outgoing");
}
