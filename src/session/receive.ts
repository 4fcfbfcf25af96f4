/**
 * Receiving: every message from the peer, and the application's answer to a request it sent.
 *
 * Spec: 2025-11-25 `basic/index` (requests, responses, notifications; 2025-03-26 batches),
 * `basic/lifecycle` (what each phase admits), `basic/utilities/ping`,
 * `server/utilities/logging` (`logging/setLevel`, rate limits), `server/resources`
 * (legacy subscriptions), `client/elicitation` (completions).
 *
 * Theory of operation. `receive` decodes one message or batch (codec.ts, bounded by
 * `maxMessageBytes` and `maxDepth`) and routes each by kind. An inbound request passes the
 * checks in a fixed order: duplicate id, lifecycle gate, method known in the negotiated
 * version and sent in this direction, capability declared, params valid, limits; the first
 * that fails answers the peer with the spec's error and the application never sees the
 * request. A modern request goes to modern/server.ts; `initialize` to handshake.ts; pings,
 * `logging/setLevel` and legacy resource subscriptions the kernel answers itself. A
 * notification that fails a check is dropped with a diagnostic. A response settles the
 * request it names: the handshake's own (handshake.ts), a keep-alive ping, a cancelled
 * task's (which may now be cancelled with `tasks/cancel`), or the application's, checked
 * against the schema; in the modern era an `input_required` answer opens an input round
 * (mrtr.ts). `respond` is the other half of an inbound request: the application's answer,
 * checked and sent, or, for an input request of a round, handed back to mrtr.ts.
 */
import { decode, decodeValue, malformedResponseAnswer, type Decoded } from "../jsonrpc/codec.js";
import { jsonCopy, merged } from "../jsonrpc/safe-json.js";
import { echoed, ErrorCode, isRpcError, MALFORMED_ERROR_ANSWER, MALFORMED_ERROR_DIAGNOSTIC, thrownMessage } from "../jsonrpc/errors.js";
import type { JsonObject, JsonRpcErrorResponse, JsonRpcNotification, JsonRpcRequest, JsonRpcResultResponse, RequestId } from "../jsonrpc/types.js";
import { answerableError } from "../model/error-codes.js";
import { MetaKey } from "../model/meta.js";
import { methodSpec, requestResultIssues } from "../model/methods.js";
import { invalidParamsError, invalidResultError } from "../model/schema-errors.js";
import { isLegacyVersion, isModernVersion } from "../model/versions.js";
import { declaresTasksExtension } from "../tasks/modern.js";
import { acceptsTaskAugmented } from "../tasks/capabilities.js";
import { createdTaskIdOf, modernTaskIdOf } from "../tasks/wire.js";
import { isModernRequest, readCacheHints, withRequestMeta } from "../modern/request-meta.js";
import { receiveModernRequest, respondModern } from "../modern/server.js";
import { filterCovers, filterOf } from "../modern/subscriptions.js";
import { cancelSentFor, receiveCancelled } from "./cancellation.js";
import { missingCapability, paramsCapabilityError } from "./capabilities.js";
import { receiveDiscoverResponse, receiveInitialize, receiveInitialized, receiveInitializeResponse, rediscovered } from "./handshake.js";
import { gateAdmits, INBOUND_GATE } from "./lifecycle.js";
import { countLog, logRoom } from "./logging.js";
import { answerInput, failInput, receiveInputRequired } from "./mrtr.js";
import { acceptsBatches, declaredSpecOf, isParamsObject, isTaskAugmented, negotiatedVersion, peerOf, peerOfPhase, sentBy, specOf, versionOf } from "./phase.js";
import { flushProgress, progressTokenOf, receiveProgress } from "./progress.js";
import { addInbound, internalRequest, refuseAtLimit, removeInbound, removeOutbound, sendError, sendErrorObject, sendResult } from "./requests.js";
import { retainedStringIssues } from "./retained.js";
import { completionRefused } from "./completion-rate.js";
import { pingMissed } from "./timeouts.js";
import { endTaskProgress, observeAnswer, observeStatus } from "./task-progress.js";
import { idKey, isIdLike, tableKey, type InboundRequest, type LoggingLevel, type OutboundRequest, type SessionOutput, type SessionState } from "./types.js";
import { completeUrlElicitation, rememberRequiredElicitations, rememberUrlElicitation } from "./url-elicitations.js";

/**
 * Whether invalid message `d` is one of neither shape (no method, no answer) naming a request
 * of ours in flight (`orAnswers`): most likely that request's answer, which lost its result,
 * taken as its malformed answer. The HTTP servers, which answer a refused body themselves,
 * decide it as the session does.
 */
export function lostAnswer(state: SessionState, d: Extract<Decoded, { kind: "invalid" }>): boolean {
  return d.orAnswers !== undefined && Object.hasOwn(state.outbound, idKey(d.orAnswers));
}

/** The `receive` input: one message (text, or a value received in process), decoded and handled. Dropped once closed. */
export function receive(state: SessionState, input: { now: number; data?: string; value?: unknown; local?: boolean }, out: SessionOutput[]): void {
  if (state.phase.name === "closed") {
    out.push({ type: "diagnostic", code: "receive-after-close", message: "message received after the session closed was dropped" });
    return;
  }
  const o = state.options;
  const opts = { maxBytes: o.maxMessageBytes, maxDepth: o.maxDepth, allowBatch: acceptsBatches(state) };
  const decoded = input.data !== undefined ? decode(input.data, opts) : decodeValue(input.value, opts);
  handleDecoded(state, decoded, input.now, out, input.local !== true);
}

/** `fromPeer`: the peer wrote the message (not this side's transport, for a request it could not carry). */
function handleDecoded(state: SessionState, d: Decoded, now: number, out: SessionOutput[], fromPeer: boolean): void {
  switch (d.kind) {
    case "request":
      return receiveRequest(state, d.message, now, out);
    case "notification":
      return receiveNotification(state, d.message, now, out);
    case "result":
    case "error":
      return receiveResponse(state, d.message, now, out, fromPeer);
    case "batch":
      // 2025-03-26 batches: each member is handled as if it came alone; answers go out one
      // by one, after a `batch` output that lets a driver gather them into one array.
      out.push({ type: "batch" });
      for (const item of d.items) handleDecoded(state, item, now, out, fromPeer);
      return;
    case "invalid":
      // Neither a request nor an answer, with the id of a request of ours in flight: most
      // likely its answer, which lost its result. Taken as that malformed answer (no reply):
      // the -32600 echoing the id would read to the peer as the answer to its own request
      // of that id, and ours would wait for its timeout.
      if (lostAnswer(state, d)) d = { ...d, answers: d.orAnswers };
      // A malformed response gets no reply (a refused array holding a request still does);
      // the requests it names fail now, as if answered with an error.
      if ((d.answers === undefined || d.holdsRequest) && !writesNoResponses(state)) out.push({ type: "send", message: d.reply });
      out.push({ type: "diagnostic", code: "invalid-message", message: d.reason });
      if (Array.isArray(d.answers)) failAnswered(state, d.answers, d.reason, now, out);
      else if (d.answers !== undefined && d.answers !== null) receiveResponse(state, malformedResponseAnswer(d.answers, d.reason), now, out, false);
  }
}

/**
 * The requests in flight that the responses of a refused batch answer (a batch after
 * 2025-03-26, basic/index): each fails now with `-32603`, as a malformed response's does.
 * Ids naming no request in flight are skipped: a long array of them would otherwise give
 * a diagnostic each.
 */
function failAnswered(state: SessionState, ids: RequestId[], reason: string, now: number, out: SessionOutput[]): void {
  for (const id of ids) if (Object.hasOwn(state.outbound, idKey(id))) receiveResponse(state, malformedResponseAnswer(id, reason), now, out, false);
}

/**
 * A client probing or in the modern era writes no JSON-RPC response at all, not even an
 * error: draft stdio, "The client MUST NOT write JSON-RPC responses"; streamable-http, it
 * "MUST NOT send JSON-RPC responses" (a modern server asks through input_required
 * instead). While probing the server may yet prove legacy, but one that has seen no
 * initialize has nothing to ask, and a modern one must get no answer.
 */
function writesNoResponses(state: SessionState): boolean {
  return state.options.role === "client" && (state.phase.name === "modern" || state.phase.name === "probing");
}

function receiveRequest(state: SessionState, msg: JsonRpcRequest, now: number, out: SessionOutput[]): void {
  const { id, method } = msg;
  if (writesNoResponses(state)) {
    out.push({ type: "diagnostic", code: "server-request-dropped", message: `the server sent a "${method}" request, which a modern server does not send; dropped without an answer`, detail: { id, method } });
    return;
  }
  if (Object.hasOwn(state.inbound, tableKey(id))) {
    // basic/index: "The request ID MUST NOT match the ID of any other request the sender has issued and not yet received a response for."
    sendError(out, id, ErrorCode.InvalidRequest, "duplicate request id: a request with this id is still in progress");
    out.push({ type: "diagnostic", code: "duplicate-request-id", message: "peer reused the id of a request still in progress", detail: { id } });
    return;
  }
  const o = state.options;
  // Dual-era: a request that names its version in _meta is served statelessly, whatever the
  // legacy phase; so is every request to a server that speaks no legacy version.
  if (o.role === "server" && (isModernRequest(msg.params) || (method !== "initialize" && !o.versions.some(isLegacyVersion)))) return receiveModernRequest(state, msg, now, out);
  const phase = state.phase;
  if (!gateAdmits(INBOUND_GATE[o.role][phase.name].requests, method)) {
    const why = phase.name === "closed" ? "the session is closed" : `"${method}" is not allowed before initialization completes`;
    sendError(out, id, ErrorCode.InvalidRequest, why);
    return;
  }
  if (method === "initialize" && o.role === "server") return receiveInitialize(state, msg, out);
  const version = versionOf(state);
  const spec = specOf(state, version, method);
  if (spec === undefined || spec.kind !== "request" || !sentBy(spec, peerOf(o.role))) {
    sendError(out, id, ErrorCode.MethodNotFound, `Method not found: ${echoed(method)}`);
    return;
  }
  const peer = peerOfPhase(phase);
  const missing = missingCapability(spec, o.role, o.capabilities, peer?.capabilities, peerOf(o.role));
  if (missing !== null) {
    sendError(out, id, ErrorCode.MethodNotFound, `Method not found: ${echoed(method)} (capability ${missing} not declared)`);
    return;
  }
  const params = msg.params;
  const issues = spec.validateParams(params) ?? retainedStringIssues(method, params);
  if (issues) {
    sendErrorObject(out, id, invalidParamsError(method, issues));
    return;
  }
  const clientCaps = o.role === "client" ? o.capabilities : peer?.capabilities;
  const capError = paramsCapabilityError(method, params, clientCaps);
  if (capError !== null) {
    sendError(out, id, capError.code, capError.message, capError.data);
    return;
  }
  // Built-ins the kernel answers itself.
  if (method === "ping") return sendResult(out, id, {});
  if (method === "logging/setLevel") {
    state.logLevel = params!.level as LoggingLevel;
    sendResult(out, id, {});
    return;
  }
  if (method === "resources/subscribe" || method === "resources/unsubscribe") return legacySubscribe(state, id, method, params!.uri as string, out);
  if (state.inboundCount >= o.maxInboundRequests) return refuseAtLimit(out, id, method, "requests in progress", o.maxInboundRequests, "maxInboundRequests");
  if (method === "completion/complete" && completionRefused(state, id, now, out)) return;
  if (method === "elicitation/create" && params?.mode === "url" && typeof params.elicitationId === "string") rememberUrlElicitation(state, params.elicitationId);
  const token = progressTokenOf(params);
  const req: InboundRequest = token === undefined ? { id, method } : { id, method, progressToken: token };
  // Only when this side declared tasks for the method: a receiver that did not "MUST process
  // requests of that type normally, ignoring any task-augmentation metadata" (2025-11-25
  // basic/utilities/tasks), so such a request is a plain one, cancelled as plain ones are.
  if (isTaskAugmented(spec, params) && acceptsTaskAugmented(o.capabilities, method)) req.task = true;
  addInbound(state, req);
  out.push({ type: "request", id, method, params });
}

function receiveNotification(state: SessionState, msg: JsonRpcNotification, now: number, out: SessionOutput[]): void {
  const o = state.options;
  const { method, params } = msg;
  if (method === "notifications/initialized" && o.role === "server") return receiveInitialized(state, now, out);
  // Cancellation is per request, not per phase: a server takes it whatever the legacy phase
  // (a modern request can be cancelled before any handshake), until the session closes.
  // So is an extension's notification to a server that speaks 2026-07-28, whose clients
  // send notifications with no handshake (draft basic/index: notifications go either way).
  const anyPhase =
    o.role === "server" &&
    ((method === "notifications/cancelled" && state.phase.name !== "closed") || (state.phase.name === "new" && declaredSpecOf(state, method) !== undefined && o.versions.some(isModernVersion)));
  if (!anyPhase && !gateAdmits(INBOUND_GATE[o.role][state.phase.name].notifications, method)) {
    out.push({ type: "diagnostic", code: "notification-dropped", message: `"${method}" is not allowed in phase ${state.phase.name}; dropped` });
    return;
  }
  const spec = specOf(state, versionOf(state), method);
  if (spec === undefined || spec.kind !== "notification" || !sentBy(spec, peerOf(o.role))) {
    out.push({ type: "diagnostic", code: "unknown-notification", message: `unknown notification "${method}" dropped` });
    return;
  }
  const issues = spec.validateParams(params);
  if (issues) {
    // cancellation: "Invalid cancellation notifications SHOULD be ignored"; likewise every malformed notification.
    out.push({ type: "diagnostic", code: "invalid-notification", message: `malformed "${method}" dropped`, detail: { issues } });
    return;
  }
  if (method === "notifications/cancelled") return receiveCancelled(state, params!, now, out);
  if (method === "notifications/progress") return receiveProgress(state, params!, now, out);
  // A client awaiting the initialize result has no server capabilities to check yet, and the
  // server may log before it (lifecycle: it "SHOULD NOT send requests other than pings and
  // logging" before initialized): the gate admits only that, so it is not held to a
  // declaration still to come (else every such log message was dropped).
  const undeclaredYet = o.role === "client" && state.phase.name === "initializing";
  const listen = onOpenListen(state, method, params);
  if (listen === "dropped") {
    out.push({ type: "diagnostic", code: "notification-dropped", message: `"${method}" is not what its subscription acknowledged (or came before the acknowledgment); dropped` });
    return;
  }
  const missing = undeclaredYet || listen === "admitted" ? null : missingCapability(spec, o.role, o.capabilities, peerOfPhase(state.phase)?.capabilities, peerOf(o.role));
  if (missing !== null) {
    out.push({ type: "diagnostic", code: "notification-dropped", message: `"${method}" needs capability ${missing}, which the peer did not declare; dropped` });
    return;
  }
  if (method === "notifications/elicitation/complete") {
    // client/elicitation: clients MUST ignore notifications referencing unknown or already-completed IDs.
    const eid = params!.elicitationId as string;
    if (!completeUrlElicitation(state, eid)) {
      out.push({ type: "diagnostic", code: "unknown-elicitation", message: "completion of an unknown or finished elicitation ignored", detail: { elicitationId: eid } });
      return;
    }
  }
  if (method === "notifications/tasks/status") observeStatus(state, params!, out);
  // logging: "Implementations SHOULD: Rate limit messages": a flooding server does not reach
  // the application's listener past the session's budget (the diagnostic says how many did not).
  if (method === "notifications/message") {
    if (!logRoom(state, "incoming", now, out)) return;
    countLog(state, "incoming");
  }
  out.push({ type: "notification", method, params });
}

/**
 * Client, 2026-07-28: what a notification tagged with one of our open `subscriptions/listen`
 * requests is. Its acknowledgment records the filter the server agreed to (draft
 * basic/patterns/subscriptions), which no later notification of the listen may go beyond,
 * nor come before: such a one is `dropped`. One the filter covers is `admitted` with the
 * capabilities the server has now, which may be more than the `server/discover` answer this
 * session keeps declared (a resource or prompt registered since). `untagged`: anything else,
 * judged as any notification is.
 */
function onOpenListen(state: SessionState, method: string, params: JsonObject | undefined): "admitted" | "dropped" | "untagged" {
  if (state.options.role !== "client" || state.phase.name !== "modern") return "untagged";
  const id = (params?._meta as JsonObject | undefined)?.[MetaKey.subscriptionId];
  const listen = isIdLike(id) && Object.hasOwn(state.outbound, idKey(id)) ? state.outbound[idKey(id)].listen : undefined;
  if (listen === undefined) return "untagged";
  if (method === "notifications/subscriptions/acknowledged") {
    if (listen.acknowledged) return "dropped";
    listen.filter = filterOf(params?.notifications, listen.filter);
    listen.acknowledged = true;
    return "admitted";
  }
  const covered = filterCovers(listen.filter, method, params);
  if (covered === null) return "untagged";
  return covered && listen.acknowledged === true ? "admitted" : "dropped";
}

/**
 * Settles the request `msg` answers. `fromPeer` is false for an error this side made in
 * the peer's place (a malformed answer's, a transport's for a request it could not carry):
 * the application is told it is local, and a probe's failure reads as "not reached".
 */
function receiveResponse(state: SessionState, msg: JsonRpcResultResponse | JsonRpcErrorResponse, now: number, out: SessionOutput[], fromPeer: boolean): void {
  if (msg.id === null) {
    out.push({ type: "diagnostic", code: "peer-error", message: "the peer reported an error about a message it could not read", detail: (msg as JsonRpcErrorResponse).error });
    return;
  }
  const req = removeOutbound(state, tableKey(msg.id));
  if (req === undefined) {
    // Unknown id, or a late answer to a request we cancelled or timed out: the sender SHOULD ignore it.
    out.push({ type: "diagnostic", code: "unknown-response-id", message: "response to no request in flight dropped", detail: { id: msg.id } });
    return;
  }
  if (req.internal === "initialize") return receiveInitializeResponse(state, msg, now, out, fromPeer);
  if (req.internal === "discover") return receiveDiscoverResponse(state, msg, now, out, req.deadline, fromPeer);
  if (req.internal === "keepalive") {
    // Any answer, an error too, shows the peer alive; this side's transport failing to carry
    // the ping at all (-32000: the server unreachable) is a ping missed, or a dead server
    // would never be noticed. (A malformed answer, or an HTTP error status, came from somewhere.)
    if (!fromPeer && "error" in msg && msg.error.code === ErrorCode.ConnectionClosed) pingMissed(state, out);
    else state.keepAlive.missed = 0;
    return;
  }
  if (req.internal === "abandoned-task") return cancelAbandonedTask(state, req, msg, now, out);
  if (req.internal === "task-cancel") {
    if ("error" in msg) out.push({ type: "diagnostic", code: "task-cancel-failed", message: "the peer refused the kernel's tasks/cancel for a cancelled request's task", detail: msg.error });
    return;
  }
  const eventId = req.origin ?? req.id;
  if ("error" in msg) {
    if (msg.error.code === ErrorCode.UrlElicitationRequired && state.options.role === "client") rememberRequiredElicitations(state, msg.error.data, out);
    // tasks/result answers with the task's own error once it failed (or -32602 for a task unknown): either way it is over.
    if (req.resultOf !== undefined) endTaskProgress(state, req.resultOf, out);
    const failed: Extract<SessionOutput, { type: "error" }> = { type: "error", id: eventId, method: req.method, error: msg.error };
    if (fromPeer) failed.fromPeer = true;
    out.push(failed);
    return;
  }
  let result = msg.result;
  if (state.phase.name === "modern") {
    // draft basic/index: an absent resultType MUST be treated as "complete"; an unrecognized one MUST be considered invalid.
    const kind = result.resultType;
    if (kind === undefined) result = merged(result, { resultType: "complete" }) as JsonObject;
    else if (kind === "input_required") return receiveInputRequired(state, req, result, now, out);
    // The tasks extension: a supported request may be answered with a task (SEP-2663 "Polymorphic Results"),
    // and only when the request declared the extension (the server MUST NOT otherwise), so an
    // application that never asked for tasks never receives one in place of its result.
    else if (kind !== "complete") {
      const augmentable = kind === "task" && methodSpec(versionOf(state), req.method)?.taskAugmentable === true;
      if (!augmentable || !declaresTasksExtension(state.options.capabilities)) {
        const why =
          kind !== "task" ? `unrecognized resultType ${JSON.stringify(kind)}`
          : augmentable ? `a task answer to ${req.method}, which did not declare the tasks extension`
          : `a task answer to ${req.method}, which cannot be answered with a task`;
        out.push({ type: "error", id: eventId, method: req.method, error: { code: ErrorCode.InternalError, message: `${why} from the peer` } });
        return;
      }
    }
    result = readCacheHints(req.method, result);
  }
  const spec = specOf(state, versionOf(state), req.method);
  const issues = spec === undefined ? null : requestResultIssues(versionOf(state), spec, result, req.task === true);
  if (issues) {
    out.push({ type: "error", id: eventId, method: req.method, error: { code: ErrorCode.InternalError, message: `invalid ${req.method} result from the peer`, data: { issues } } });
    return;
  }
  observeAnswer(state, req, result, out);
  if (req.method === "server/discover") rediscovered(state, result, out);
  out.push({ type: "response", id: eventId, method: req.method, result });
}

/**
 * The answer to a task-augmented request the application gave up on (cancellation.ts
 * `abandonTaskRequest`). A `CreateTaskResult` names the task, now cancelled the way the
 * spec requires, with `tasks/cancel` (when the peer declared `tasks.cancel`; otherwise the
 * task runs until its ttl). Any other answer is dropped like every late answer.
 */
function cancelAbandonedTask(state: SessionState, req: OutboundRequest, msg: JsonRpcResultResponse | JsonRpcErrorResponse, now: number, out: SessionOutput[]): void {
  const modern = state.phase.name === "modern" ? state.phase : undefined;
  const taskId = !("result" in msg) ? undefined : modern !== undefined ? modernTaskIdOf(msg.result) : createdTaskIdOf(msg.result);
  if (taskId === undefined) {
    out.push({ type: "diagnostic", code: "unknown-response-id", message: "answer to a cancelled request dropped", detail: { id: req.id } });
    return;
  }
  const o = state.options;
  const spec = methodSpec(versionOf(state), "tasks/cancel");
  if (spec === undefined || missingCapability(spec, o.role, o.capabilities, peerOfPhase(state.phase)?.capabilities, o.role) !== null) {
    out.push({ type: "diagnostic", code: "task-not-cancellable", message: "the task of a cancelled request cannot be cancelled: the peer did not declare tasks.cancel; it runs until its ttl", detail: { id: req.id, taskId } });
    return;
  }
  const id = internalRequest(state, now, "tasks/cancel", "task-cancel");
  // A modern request declares its version and capabilities (the tasks extension) itself.
  const params = modern === undefined ? { taskId } : withRequestMeta({ taskId }, modern.version, o.capabilities, o.info, undefined);
  out.push({ type: "send", message: { jsonrpc: "2.0", id, method: "tasks/cancel", params } });
}

/** Most URIs a legacy client may hold subscriptions to. */
const MAX_RESOURCE_SUBSCRIPTIONS = 1024;

/**
 * Legacy `resources/subscribe` / `unsubscribe` (2025-11-25 `server/resources`): the kernel
 * keeps the URI set, so one `changed` input serves both eras. Each URI is of bounded length
 * (checked with the params, retained.ts), so the set is bounded in bytes, not only entries.
 */
function legacySubscribe(state: SessionState, id: RequestId, method: string, uri: string, out: SessionOutput[]): void {
  const subs = state.resourceSubscriptions;
  if (method === "resources/unsubscribe") delete subs[uri];
  else if (!Object.hasOwn(subs, uri)) {
    if (Object.keys(subs).length >= MAX_RESOURCE_SUBSCRIPTIONS) return refuseAtLimit(out, id, method, "resource subscriptions", MAX_RESOURCE_SUBSCRIPTIONS, "MAX_RESOURCE_SUBSCRIPTIONS");
    Object.defineProperty(subs, uri, { value: true, enumerable: true, writable: true, configurable: true });
  }
  out.push({ type: "diagnostic", code: method === "resources/subscribe" ? "resource-subscribed" : "resource-unsubscribed", message: `${method} ${uri}`, detail: { uri } });
  sendResult(out, id, {});
}

// ---------------------------------------------------------------------------------------
// The application's answers

/** The `respond` input: the application's answer to a request of the peer (or to an input request of a round, mrtr.ts), checked and sent. */
export function respond(state: SessionState, id: RequestId, result: JsonObject | undefined, error: { code: number; message: string; data?: unknown } | undefined, now: number, out: SessionOutput[]): void {
  const req = removeInbound(state, tableKey(id));
  if (req === undefined) {
    // Cancelled by the peer (receivers SHOULD NOT respond then), already answered, or never received.
    out.push({ type: "diagnostic", code: "respond-unknown", message: "no request in progress with this id; answer not sent", detail: { id } });
    return;
  }
  // An error of null is no error (as a caller writing `error: null` for "none" means).
  if (error === null) error = undefined;
  if (req.mrtr !== undefined) return error === undefined ? answerInput(state, req.mrtr, req.method, result ?? {}, now, out) : failInput(state, req.mrtr, req.method, error, out);
  flushProgress(req, now, out, true);
  try {
    answer(state, req, id, result, error, now, out);
  } catch (e) {
    // An answer whose getter (or Proxy trap) throws: the request is already out of the table,
    // so it is answered as one the schema refuses is (basic/index: every request MUST get a
    // response), rather than the session closed. One that can be read threw for a bug: fatal.
    if (jsonCopy({ result, error }) !== undefined) throw e;
    sendError(out, id, ErrorCode.InternalError, "the handler produced an answer that could not be read");
    out.push({ type: "diagnostic", code: "invalid-result", message: `the application's ${req.method} answer could not be read (${thrownMessage(e)}); the peer got -32603`, detail: { id } });
  }
}

/** The rest of {@link respond}: the application's answer to `req`, out of the table, checked and sent. */
function answer(state: SessionState, req: InboundRequest, id: RequestId, result: JsonObject | undefined, error: { code: number; message: string; data?: unknown } | undefined, now: number, out: SessionOutput[]): void {
  // What this side asked the peer on the request's behalf and still waits for (an elicitation
  // or a sampling request the handler raced against its own timeout, or left behind as it
  // failed) is moot once the request is answered: nobody is left to take its answer, yet the
  // client would keep showing the question to its user. Cancelled before the answer goes, so
  // that on HTTP the notification still goes on this request's stream, which closes with it.
  // Not when the answer is a task's CreateTaskResult: the task's work goes on, its asks too.
  if (error !== undefined || req.task !== true || createdTaskIdOf(result ?? {}) === undefined) cancelSentFor(state, req.id, "the request it was sent for is answered", now, out);
  if (error !== undefined) {
    if (!isRpcError(error)) {
      sendError(out, id, ErrorCode.InternalError, MALFORMED_ERROR_ANSWER);
      out.push({ type: "diagnostic", code: "invalid-error", message: MALFORMED_ERROR_DIAGNOSTIC, detail: { id } });
      return;
    }
    // A server's error is held to what the era and the client allow (draft basic/index, Error
    // Codes: 2026-07-28 "MUST NOT emit" -32002 or -32042, nor an undefined code of
    // -32020..-32099), whoever made it: Endpoint applies the same rule to a handler's throw,
    // and this is the kernel's own `respond` input.
    const sent = state.options.role === "server" ? answerableError(error, req.modern?.version ?? negotiatedVersion(state), req.modern !== undefined ? req.modern.capabilities : peerOfPhase(state.phase)?.capabilities) : error;
    sendError(out, id, sent.code, sent.message, sent.data);
    return;
  }
  const value = result ?? {};
  if (!isParamsObject(value)) {
    sendError(out, id, ErrorCode.InternalError, "the handler produced a result that is not an object");
    out.push({ type: "diagnostic", code: "invalid-result", message: "a result must be a JSON object", detail: { id } });
    return;
  }
  if (req.modern !== undefined) return respondModern(state, req, value, out);
  if (state.options.validateOutgoing) {
    const spec = specOf(state, versionOf(state), req.method);
    const issues = spec === undefined ? null : requestResultIssues(versionOf(state), spec, value, req.task === true);
    if (issues) {
      sendErrorObject(out, id, invalidResultError(req.method, issues));
      out.push({ type: "diagnostic", code: "invalid-result", message: `the application's ${req.method} result does not match the schema; the peer got -32603`, detail: { id, issues } });
      return;
    }
  }
  sendResult(out, id, value);
}
