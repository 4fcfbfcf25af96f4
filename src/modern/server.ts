/**
 * The modern-era server: stateless requests.
 *
 * Spec: draft `basic/index` (per-request `_meta`, `resultType`), `basic/versioning`,
 * `server/discover`, `basic/patterns/{mrtr,subscriptions,cancellation,progress}`,
 * `server/utilities/{logging,caching}`.
 *
 * Theory of operation. A request whose `_meta` names a protocol version is served on its
 * own terms: its version, capabilities and log level travel with it and are stored on its
 * inbound entry, never on the session. The checks run in order — per-request fields,
 * method known in that version, server capability, params — and the first failure is the
 * answer. `server/discover` and `subscriptions/listen` the kernel answers itself; every
 * other request goes to the application. On the way out a result is stamped with
 * `resultType`, `serverInfo` and caching hints, and an `input_required` answer is checked
 * against the MRTR rules: only for the methods that allow it, with at least one of
 * `inputRequests` and `requestState`, and only asking for what the request's client
 * capabilities declared (else `-32021`). A task answer (SEP-2663 `resultType: "task"`) is
 * held to the extension's rules the same way: only on a task-augmentable method of a
 * server that declared the extension, and only to a request that declared it (else `-32021`).
 *
 * A dual-era server reaches this module per request, so legacy sessions and modern
 * requests share one endpoint or process (`basic/versioning`, "MAY serve both eras
 * concurrently").
 */
import { echoed, ErrorCode } from "../jsonrpc/errors.js";
import { jsonCopy } from "../jsonrpc/safe-json.js";
import type { JsonObject, JsonRpcRequest, RequestId } from "../jsonrpc/types.js";
import { MetaKey } from "../model/meta.js";
import { hasCapability, INPUT_REQUESTS, methodSpec } from "../model/methods.js";
import type { ProtocolVersion } from "../model/versions.js";
import { addCapabilityPath, missingCapability, missingParamsCapability, undeclaredContext } from "../session/capabilities.js";
import { countLog, logRoom, passesLevel } from "../session/logging.js";
import { progressTokenOf } from "../session/progress.js";
import { completionRefused } from "../session/completion-rate.js";
import { copyOf, oversizedPeerIssues, retainedStringIssues } from "../session/retained.js";
import { addInbound, refuseAtLimit, removeInbound, sendError, sendErrorObject, sendResult } from "../session/requests.js";
import { invalidParamsError, invalidResultError } from "../model/schema-errors.js";
import { idKey, type InboundRequest, type LoggingLevel, type SessionInput, type SessionOutput, type SessionState } from "../session/types.js";
import { modernCapabilities, specOf } from "../session/phase.js";
import { readRequestMeta, stampResult } from "./request-meta.js";
import { declaresTasksExtension, missingTasksExtension } from "../tasks/modern.js";
import { agreedFilter, legacyFilter, notificationFor, tagged, type Change, type SubscriptionFilter } from "./subscriptions.js";

/** Where a request's client capabilities are ({@link MetaKey.clientCapabilities}), as a JSON pointer: `/` in a member name is `~1`. (A literal: a top-level call would be kept by every bundle of the package root.) */
const CAPABILITIES_PATH = "/_meta/io.modelcontextprotocol~1clientCapabilities";

/** Handles a request that declared a protocol version in `_meta` (duplicate ids already checked). */
export function receiveModernRequest(state: SessionState, msg: JsonRpcRequest, now: number, out: SessionOutput[]): void {
  const o = state.options;
  const { id, method, params } = msg;
  const read = readRequestMeta(params, o.versions);
  if (!read.ok) return sendError(out, id, read.error.code, read.error.message, read.error.data);
  const { version, capabilities, logLevel } = read.meta;
  const spec = specOf(state, version, method);
  if (spec === undefined || spec.kind !== "request" || spec.from === "server") return sendError(out, id, ErrorCode.MethodNotFound, `Method not found: ${echoed(method)}`);
  const missing = missingCapability(spec, "server", modernCapabilities(state), capabilities, "client");
  if (missing !== null) return sendError(out, id, ErrorCode.MethodNotFound, `Method not found: ${echoed(method)} (capability ${missing} not declared)`);
  const issues = spec.validateParams(params) ?? retainedStringIssues(method, params);
  if (issues) return sendErrorObject(out, id, invalidParamsError(method, issues));
  if (method === "server/discover") return answerDiscover(state, id, version, out);
  if (state.inboundCount >= o.maxInboundRequests) return refuseAtLimit(out, id, method, "requests in progress", o.maxInboundRequests, "maxInboundRequests");
  if (method === "completion/complete" && completionRefused(state, id, now, out)) return;
  const oversized = oversizedPeerIssues(capabilities, CAPABILITIES_PATH);
  if (oversized) return sendErrorObject(out, id, invalidParamsError(method, oversized));
  // The state keeps a copy of the capabilities: the request's params, _meta included, are the application's.
  const kept = jsonCopy(capabilities);
  if (kept === undefined) return sendError(out, id, ErrorCode.InvalidParams, "Invalid params: the client capabilities have no JSON form");
  const req: InboundRequest = { id, method, modern: logLevel === undefined ? { version, capabilities: kept } : { version, capabilities: kept, logLevel } };
  const token = progressTokenOf(params);
  if (token !== undefined) req.progressToken = token;
  if (method === "subscriptions/listen") return openSubscription(state, req, params!.notifications as SubscriptionFilter, out);
  addInbound(state, req);
  out.push({ type: "request", id, method, params });
}

/** The `server/discover` answer: supported versions, capabilities, identity, caching hints. */
function discoverResult(state: SessionState): JsonObject {
  const o = state.options;
  // The 2026-07-28 ServerCapabilities has no `tasks` slot: tasks are the extension there
  // (SEP-2663: the extension MUST NOT use the v1 slot), so a dual-era server's legacy
  // declaration stays out of discovery.
  // Copies: the result is the application's to pass on (see retained.ts).
  const { tasks: _v1Tasks, ...capabilities } = copyOf(modernCapabilities(state));
  const result: JsonObject = { supportedVersions: [...o.versions], capabilities };
  if (o.instructions !== undefined) result.instructions = o.instructions;
  return stampResult("server/discover", result, copyOf(o.info), { ttlMs: o.cacheTtlMs, scope: o.cacheScope });
}

/**
 * Sends the `server/discover` answer, held to the schema like a handler's result
 * (respondModern): a serverInfo the client must refuse (an icon `src` without a scheme)
 * gets -32603 and a diagnostic instead.
 */
function answerDiscover(state: SessionState, id: RequestId, version: ProtocolVersion, out: SessionOutput[]): void {
  const result = discoverResult(state);
  const issues = state.options.validateOutgoing ? methodSpec(version, "server/discover")!.validateResult!(result) : null;
  if (issues) {
    sendError(out, id, ErrorCode.InternalError, "the server's server/discover result is invalid");
    out.push({ type: "diagnostic", code: "invalid-result", message: "this server's server/discover result does not match the schema (its info or capabilities); the peer got -32603", detail: { id, issues } });
    return;
  }
  sendResult(out, id, result);
}

/** Answers a modern request the application handled. */
export function respondModern(state: SessionState, req: InboundRequest, result: JsonObject, out: SessionOutput[]): void {
  const o = state.options;
  const modern = req.modern!;
  if (result.resultType === "input_required") {
    const problem = inputRequiredProblem(methodSpec(modern.version, req.method)?.inputRequired === true, req.method, result, modern.capabilities, true);
    if (problem !== null) {
      if (problem.code === ErrorCode.MissingRequiredClientCapability) return sendError(out, req.id, problem.code, problem.message, problem.data);
      // Said to the client as an invalid result of any other kind is (invalidResultError): what is wrong with it.
      sendError(out, req.id, ErrorCode.InternalError, `the handler produced an invalid input_required result: ${echoed(problem.message)}`);
      out.push({ type: "diagnostic", code: "invalid-result", message: problem.message, detail: { id: req.id } });
      return;
    }
  }
  if (result.resultType === "task") {
    // SEP-2663: a server that negotiated the extension MAY answer a supported request with a
    // task; it MUST NOT return one to a client that did not declare the extension on this
    // request, and a server that can only answer with a task MUST then return -32021.
    const augmentable = methodSpec(modern.version, req.method)?.taskAugmentable === true;
    if (!augmentable || !declaresTasksExtension(modernCapabilities(state))) {
      sendError(out, req.id, ErrorCode.InternalError, "the handler produced an invalid task result");
      const why = augmentable ? "this server did not declare the tasks extension" : `${req.method} cannot be answered with a task`;
      out.push({ type: "diagnostic", code: "invalid-result", message: `a task result, but ${why}`, detail: { id: req.id } });
      return;
    }
    if (!declaresTasksExtension(modern.capabilities)) {
      sendErrorObject(out, req.id, missingTasksExtension());
      out.push({ type: "diagnostic", code: "invalid-result", message: "a task result for a request that did not declare the tasks extension; the client got -32021", detail: { id: req.id } });
      return;
    }
  }
  const stamped = stampResult(req.method, result, o.info, { ttlMs: o.cacheTtlMs, scope: o.cacheScope });
  if (o.validateOutgoing) {
    const issues = specOf(state, modern.version, req.method)?.validateResult?.(stamped);
    if (issues) {
      sendErrorObject(out, req.id, invalidResultError(req.method, issues));
      out.push({ type: "diagnostic", code: "invalid-result", message: `the application's ${req.method} result does not match the schema; the peer got -32603`, detail: { id: req.id, issues } });
      return;
    }
  }
  sendResult(out, req.id, stamped);
}

/** Why an `input_required` answer breaks the MRTR rules, as the error to send instead. */
export interface InputRequiredProblem {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * MRTR server requirements (draft `basic/patterns/mrtr`): `input_required` only on the
 * methods that support it; at least one of `inputRequests` and `requestState`; each input
 * request one of elicitation/sampling/roots with valid params; none the client's
 * capabilities did not declare (`-32021`, data.requiredCapabilities). Exported for the
 * legacy bridge (`api/mrtr.ts`), which holds a handler's answer to the same rules with
 * the capabilities of the session's handshake, and for clients checking what a server
 * asks of them. `sending`: a server about to send these, held to its own `SHOULD NOT`
 * too (`undeclaredContext`).
 */
export function inputRequiredProblem(methodAllows: boolean, method: string, result: JsonObject, caps: JsonObject | undefined, sending = false): InputRequiredProblem | null {
  if (!methodAllows) return { code: ErrorCode.InternalError, message: `servers MUST NOT send input_required on ${method}` };
  const inputs = result.inputRequests;
  if (inputs === undefined && typeof result.requestState !== "string") return { code: ErrorCode.InternalError, message: "an input_required result MUST include inputRequests or requestState" };
  if (inputs === undefined) return null;
  if (inputs === null || typeof inputs !== "object" || Array.isArray(inputs)) return { code: ErrorCode.InternalError, message: "inputRequests must be an object" };
  const required: JsonObject = {};
  for (const key of Object.keys(inputs)) {
    const input = (inputs as JsonObject)[key] as { method?: unknown; params?: JsonObject } | null;
    const inputMethod = typeof input?.method === "string" ? input.method : "";
    const inputSpec = Object.hasOwn(INPUT_REQUESTS, inputMethod) ? INPUT_REQUESTS[inputMethod] : undefined;
    if (inputSpec === undefined) return { code: ErrorCode.InternalError, message: `inputRequests.${key}: ${JSON.stringify(inputMethod)} is not an input request` };
    const issues = inputSpec.validateParams(input!.params);
    if (issues) return { code: ErrorCode.InternalError, message: `inputRequests.${key}: invalid ${inputMethod} params (${issues[0].path} ${issues[0].reason})` };
    const need = inputSpec.capability;
    const missing = need !== null && !hasCapability(caps, need.path) ? need.path : (missingParamsCapability(inputMethod, input!.params, caps) ?? (sending ? undeclaredContext(inputMethod, input!.params, caps) : null));
    if (missing !== null) addCapabilityPath(required, missing);
  }
  if (Object.keys(required).length > 0) {
    return { code: ErrorCode.MissingRequiredClientCapability, message: "this request needs client capabilities it did not declare", data: { requiredCapabilities: required } };
  }
  return null;
}

/**
 * Server-side logging for a modern request: only when it asked, at or above its level, on
 * its own stream, and within the session's `maxLogMessagesPerSecond`, which the modern
 * requests one session serves share (logging: "Servers SHOULD: ... Rate limit log
 * messages"; a budget per request would let a burst of requests multiply it). Over
 * Streamable HTTP each modern request has a session of its own.
 */
export function logForRequest(state: SessionState, req: InboundRequest, level: LoggingLevel, params: JsonObject, now: number, out: SessionOutput[]): void {
  const wanted = req.modern?.logLevel;
  if (wanted === undefined || !passesLevel(level, wanted)) return;
  if (!logRoom(state, "outgoing", now, out)) return;
  // Checked as the legacy path's sendNotification checks it: a `data` JSON has no form for
  // (a function), or a `logger` that is no string, would go out as a message the client drops.
  const issues = state.options.validateOutgoing ? methodSpec(req.modern!.version, "notifications/message")?.validateParams(params) : null;
  if (issues) {
    out.push({ type: "diagnostic", code: "notification-refused", message: "invalid notifications/message params", detail: { issues } });
    return;
  }
  countLog(state, "outgoing");
  out.push({ type: "send", message: { jsonrpc: "2.0", method: "notifications/message", params }, related: req.id });
}

// ---------------------------------------------------------------------------------------
// Subscriptions

function openSubscription(state: SessionState, req: InboundRequest, requested: SubscriptionFilter, out: SessionOutput[]): void {
  const o = state.options;
  if (state.subscriptionCount >= o.maxSubscriptions) return refuseAtLimit(out, req.id, req.method, "open subscriptions", o.maxSubscriptions, "maxSubscriptions");
  // SEP-2663: asking for task status without declaring the extension MUST be -32021.
  if (Array.isArray(requested?.taskIds) && !declaresTasksExtension(req.modern?.capabilities)) {
    return sendErrorObject(out, req.id, missingTasksExtension());
  }
  req.subscription = agreedFilter(requested ?? {}, modernCapabilities(state), 1024);
  addInbound(state, req);
  state.subscriptions[idKey(req.id)] = true;
  state.subscriptionCount++;
  // The outputs get a copy of the filter the state keeps (plain data: strings and booleans).
  const agreed = copyOf(req.subscription) as JsonObject;
  // The acknowledgment MUST be the subscription's first message.
  out.push({ type: "send", message: { jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { _meta: { [MetaKey.subscriptionId]: req.id }, notifications: agreed } }, related: req.id });
  out.push({ type: "diagnostic", code: "subscription-opened", message: "a subscriptions/listen stream opened", detail: { id: req.id, notifications: agreed } });
}

/** The application ends a subscription: its graceful completion result, tagged with its id (and, as every modern result, the server's info). */
export function endSubscription(state: SessionState, id: RequestId, out: SessionOutput[]): void {
  const key = idKey(id);
  if (!Object.hasOwn(state.subscriptions, key)) {
    out.push({ type: "diagnostic", code: "end-subscription-unknown", message: "no open subscription with this id", detail: { id } });
    return;
  }
  removeInbound(state, key);
  const o = state.options;
  sendResult(out, id, stampResult("subscriptions/listen", { resultType: "complete", _meta: { [MetaKey.subscriptionId]: id } }, o.info, { ttlMs: o.cacheTtlMs, scope: o.cacheScope }));
}

/**
 * The server is closing the connection: every open subscription ends as `endSubscription`
 * ends one. Draft `basic/patterns/subscriptions`, Graceful Closure: the server SHOULD
 * respond to the listen request with a completion result before closing the stream.
 */
export function endSubscriptions(state: SessionState, out: SessionOutput[]): void {
  for (const key of Object.keys(state.subscriptions)) endSubscription(state, state.inbound[key].id, out);
}

/** The change a `changed` input reports (the input without its envelope). */
export function changeOf(input: Extract<SessionInput, { type: "changed" }>): Change {
  const { type: _type, now: _now, ...change } = input;
  return change;
}

/**
 * One change, fanned out: to every modern subscription that asked for it (tagged with its
 * id, on its stream), and to the legacy session when its capabilities or subscriptions
 * ask for it. Never a notification type that was not requested.
 */
export function applyChange(state: SessionState, change: Change, legacyOperating: boolean, out: SessionOutput[]): void {
  for (const key in state.subscriptions) {
    const req = state.inbound[key];
    const note = notificationFor(change, req.subscription!);
    if (note !== null) out.push({ type: "send", message: { jsonrpc: "2.0", method: note.method, params: tagged(note.params, req.id) }, related: req.id });
  }
  if (!legacyOperating) return;
  const note = notificationFor(change, legacyFilter(state.options.capabilities, state.resourceSubscriptions));
  if (note !== null) out.push({ type: "send", message: note.params === undefined ? { jsonrpc: "2.0", method: note.method } : { jsonrpc: "2.0", method: note.method, params: note.params } });
}
