/**
 * The legacy-era session: one reducer for both roles.
 *
 * Spec: 2025-11-25 `basic/lifecycle`, `basic/utilities/{cancellation,ping,progress}`,
 * `server/utilities/logging`, `client/{elicitation,sampling,roots}` (and the same pages of
 * 2025-06-18 and 2025-03-26, which the method tables encode per version).
 *
 * Theory of operation. `step(state, input)` is the only entry point. It routes the input
 * to the module that owns the concept (lifecycle, requests, cancellation, progress,
 * timeouts, logging, capabilities) and collects what they emit into one output array.
 * Checks run in a fixed order for every inbound request: duplicate id, lifecycle gate,
 * method known in the negotiated version and sent in this direction, capability declared,
 * params valid, limits; the first that fails answers the peer with the spec's error and
 * the application never sees the request. Outbound requests pass the mirror-image checks
 * and a failure is an `error` output for that request, never a throw. After a fatal
 * error the phase is `closed`, which is final.
 *
 * The role is data (`options.role`): client and server share every line except the two
 * halves of the handshake.
 */
import { decode, decodeValue, malformedResponseAnswer, UNENCODABLE_RESPONSE, type Decoded } from "../jsonrpc/codec.js";
import { jsonCopy, merged } from "../jsonrpc/safe-json.js";
import { ErrorCode } from "../jsonrpc/errors.js";
import type { JsonObject, JsonRpcErrorResponse, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResultResponse, RequestId } from "../jsonrpc/types.js";
import { hasCapability, methodSpec, type MethodSpec, type Side } from "../model/methods.js";
import { MODERN_ERROR_CODES } from "../model/error-codes.js";
import { allowsBatches, isLegacyVersion, isModernVersion, LEGACY_VERSIONS, PROTOCOL_VERSIONS, type LegacyVersion, type ModernVersion, type ProtocolVersion } from "../model/versions.js";
import { MetaKey } from "../model/meta.js";
import { taskMetadataOf } from "../tasks/capabilities.js";
import { declaresTasksExtension } from "../tasks/modern.js";
import { createdTaskIdOf, modernTaskIdOf } from "../tasks/wire.js";
import { isModernRequest, readCacheHints, stampResult, withRequestMeta } from "../modern/request-meta.js";
import { escapeSegment, type Issue } from "../schema/validate.js";
import { applyChange, changeOf, endSubscription, endSubscriptions, inputRequiredProblem, logForRequest, receiveModernRequest, respondModern } from "../modern/server.js";
import { abandonTaskRequest, cancelOutbound, receiveCancelled, stopWaiting } from "./cancellation.js";
import { missingCapability, paramsCapabilityError } from "./capabilities.js";
import { gateAdmits, INBOUND_GATE, legacyVersionsOf, negotiateVersion, nextPhase, OUTBOUND_GATE, type LifecycleEvent } from "./lifecycle.js";
import { closeLogWindows, countLog, flushLogWindows, logRoom, passesLevel } from "./logging.js";
import { flushProgress, progressTokenOf, receiveProgress, sendProgress, withProgressToken } from "./progress.js";
import { endTaskProgress, observeAnswer, observeStatus, sendTaskProgress } from "./task-progress.js";
import { addInbound, addOutbound, liveOutbound, pushSend, removeInbound, removeOutbound, sendError, sendResult } from "./requests.js";
import { copyOf, MAX_KEPT_ID_LENGTH, notKept, oversizedPeerIssues, retainedStringIssues, tooLong } from "./retained.js";
import { deadlineFrom, recomputeWake, wakeNoLaterThan } from "./timeouts.js";
import { decideVersionRetry } from "./version-retry.js";
import {
  idKey,
  type Implementation,
  type InboundRequest,
  type LoggingLevel,
  type MrtrRound,
  type OutboundRequest,
  type PeerInfo,
  type Phase,
  type ResolvedOptions,
  type SessionInput,
  type SessionOptions,
  type SessionOutput,
  type SessionState,
  type StepResult,
} from "./types.js";

/** Most URL elicitations a client remembers awaiting completion; the oldest is forgotten first. */
const MAX_URL_ELICITATIONS = 256;

/**
 * Fills in defaults. The objects are copies: the application editing its options object
 * after `createSession` must not change the session (README: the state changes only
 * through `step`).
 */
export function resolveOptions(options: SessionOptions): ResolvedOptions {
  const resolved: ResolvedOptions = {
    role: options.role,
    info: copyOf(options.info),
    capabilities: copyOf(options.capabilities),
    versions: options.versions === undefined ? [...LEGACY_VERSIONS] : copyOf(options.versions),
    requestTimeoutMs: options.requestTimeoutMs ?? 60_000,
    discoverTimeoutMs: options.discoverTimeoutMs ?? 10_000,
    maxRequestTimeoutMs: options.maxRequestTimeoutMs ?? 600_000,
    resetTimeoutOnProgress: options.resetTimeoutOnProgress ?? true,
    keepAliveMs: options.keepAliveMs ?? 0,
    keepAliveMaxMissed: options.keepAliveMaxMissed ?? (options.role === "client" ? 1 : 0),
    progressIntervalMs: options.progressIntervalMs ?? 0,
    maxInboundRequests: options.maxInboundRequests ?? 1024,
    maxOutboundRequests: options.maxOutboundRequests ?? 1024,
    maxMessageBytes: options.maxMessageBytes ?? 4 * 1024 * 1024,
    maxDepth: options.maxDepth ?? 64,
    validateOutgoing: options.validateOutgoing ?? true,
    cacheTtlMs: options.cacheTtlMs ?? 0,
    cacheScope: options.cacheScope ?? "private",
    maxSubscriptions: options.maxSubscriptions ?? 64,
    maxInputRounds: options.maxInputRounds ?? 8,
    maxProgressPerSecond: options.maxProgressPerSecond ?? 100,
    maxLogMessagesPerSecond: options.maxLogMessagesPerSecond ?? 100,
  };
  if (options.era !== undefined) resolved.era = options.era;
  if (options.instructions !== undefined) resolved.instructions = options.instructions;
  return resolved;
}

/** A new session in phase `new`. */
export function createSession(options: SessionOptions): SessionState {
  return {
    options: resolveOptions(options),
    phase: { name: "new" },
    nextId: 0,
    outbound: {},
    outboundCount: 0,
    inbound: {},
    inboundCount: 0,
    progressTokens: {},
    taskProgress: {},
    logLevel: null,
    urlElicitations: {},
    keepAlive: { dueAt: null, missed: 0 },
    wakeAt: null,
    subscriptions: {},
    subscriptionCount: 0,
    mrtr: {},
    resourceSubscriptions: {},
  };
}

/** Feeds one input; returns the (same, updated) state and what to do. Never throws on any input. */
export function step(state: SessionState, input: SessionInput): StepResult {
  const out: SessionOutput[] = [];
  try {
    dispatch(state, input, out);
  } catch (e) {
    // A bug, not a protocol event: make it fatal and visible rather than corrupting state.
    const reason = `internal error: ${e instanceof Error ? e.message : String(e)}`;
    try {
      fail(state, reason, out);
    } catch {
      // The state itself is unusable (options no createSession would make): closed, still without a throw.
      state.phase = { name: "closed", reason };
      out.push({ type: "close", reason });
    }
  }
  return { state, outputs: out };
}

/**
 * What is wrong with an application input whose fields are not what the kernel can use,
 * or null. Such an input is refused with a diagnostic and changes nothing: a clock reading
 * that is not a finite number would put NaN into every deadline (and out of a JSON
 * snapshot), and a progress, log or change with fields of the wrong type would go out as
 * a message the schema forbids, or fail in the middle of a step.
 */
function malformedInput(input: SessionInput): string | null {
  if (input === null || typeof input !== "object") return "an input must be an object";
  // A request is refused by sendRequest, as an error for the caller that awaits it.
  if (input.type === "request") return null;
  // Missing, null or a string is no clock reading either: a string would make every deadline a string.
  if (typeof input.now !== "number" || !Number.isFinite(input.now)) return "now must be a finite number";
  const finite = (v: unknown): boolean => typeof v === "number" && Number.isFinite(v);
  switch (input.type) {
    case "progress":
    case "task-progress":
      if (!finite(input.progress) || (input.total !== undefined && !finite(input.total)) || (input.message !== undefined && typeof input.message !== "string")) {
        return "progress and total must be finite numbers, message a string";
      }
      return null;
    case "log":
      return input.data === undefined ? "a log message needs data" : null;
    case "changed":
      return CHANGES.includes(input.what) ? null : `changed needs what: one of ${CHANGES.join(", ")}`;
    case "unsendable":
      return input.message !== null && typeof input.message === "object" ? null : "unsendable needs the message";
    case "declare":
      return input.capabilities !== undefined && isParamsObject(input.capabilities) ? null : "declare needs capabilities (an object)";
    case "renewed":
      return input.result !== undefined && isParamsObject(input.result) ? null : "renewed needs the InitializeResult (an object)";
  }
  return null;
}

/** The `what` of a `changed` input. */
const CHANGES: readonly unknown[] = ["tools", "prompts", "resources", "resource", "task"];

function dispatch(state: SessionState, input: SessionInput, out: SessionOutput[]): void {
  const problem = malformedInput(input);
  if (problem !== null) {
    out.push({ type: "diagnostic", code: "input-refused", message: problem, detail: { type: (input as { type?: unknown } | null)?.type } });
    return;
  }
  const now = input.now;
  switch (input.type) {
    case "open":
      return open(state, now, out);
    case "receive":
      return receive(state, input, out);
    case "request":
      return sendRequest(state, input, out);
    case "notify":
      // A log message sent as a plain notification spends the same budget as a `log` input.
      if (input.method === "notifications/message") return sendLog(state, input.params, now, out, input.related);
      return sendNotification(state, input.method, input.params, out, input.related);
    case "respond":
      return respond(state, input.id, input.result, input.error, now, out);
    case "cancel": {
      const reason = input.reason ?? "request cancelled";
      const waiting = dropInputRound(state, idKey(input.id), reason, out);
      if (waiting === undefined) return cancelOutbound(state, input.id, input.reason, now, out);
      // Still gathering input: nothing is on the wire to cancel.
      out.push({ type: "error", id: waiting.origin, method: waiting.method, error: { code: ErrorCode.RequestCancelled, message: reason } });
      return;
    }
    case "progress": {
      const key = idKey(input.id);
      const req = Object.hasOwn(state.inbound, key) ? state.inbound[key] : undefined;
      if (req === undefined) {
        out.push({ type: "diagnostic", code: "progress-unknown", message: "no request being handled with this id; progress dropped", detail: { id: input.id } });
        return;
      }
      return sendProgress(state, req, input, now, out);
    }
    case "task-progress":
      // Closed is final: nothing more goes on the wire (a task can outlive its connection).
      if (state.phase.name === "closed") return void out.push({ type: "diagnostic", code: "task-progress-after-close", message: "the session is closed; task progress dropped", detail: { token: input.token } });
      return sendTaskProgress(input.token, input, out);
    case "log":
      return log(state, input.level, input.logger, input.data, now, out, input.related, input.meta);
    case "changed":
      return applyChange(state, changeOf(input), state.phase.name === "operating", out);
    case "declare":
      return declare(state, input.capabilities, out);
    case "renewed":
      return renewed(state, input.result, out);
    case "end-subscription":
      return endSubscription(state, input.id, out);
    case "end-subscriptions":
      return endSubscriptions(state, out);
    case "tick":
      return tick(state, now, out);
    case "unsendable":
      return unsendable(state, input.message, input.reason, out);
    case "closed":
      return closeSession(state, input.reason ?? "transport closed", out, false);
    default:
      out.push({ type: "diagnostic", code: "unknown-input", message: "input of unknown type ignored", detail: { type: (input as { type?: unknown }).type } });
  }
}

// ---------------------------------------------------------------------------------------
// Helpers over the phase

const peerOf = (role: Side): Side => (role === "client" ? "server" : "client");

/** The version messages are checked against: the negotiated one, or before that our preferred legacy version. */
function versionOf(state: SessionState): ProtocolVersion {
  const p = state.phase;
  if ((p.name === "operating" || p.name === "awaiting-initialized" || p.name === "modern" || p.name === "closed") && p.version !== undefined) return p.version;
  return legacyVersionsOf(state.options.versions)[0] ?? "2025-11-25";
}

function peerOfPhase(phase: Phase): PeerInfo | undefined {
  return phase.name === "operating" || phase.name === "awaiting-initialized" || phase.name === "modern" || phase.name === "closed" ? phase.peer : undefined;
}

function moveTo(state: SessionState, event: LifecycleEvent, phase: Phase): void {
  const expected = nextPhase(state.options.role, state.phase.name, event);
  if (expected !== phase.name) throw new Error(`lifecycle: ${state.phase.name} --${event}--> ${phase.name} is not in the table`);
  state.phase = phase;
}

/** JSON-RPC params, when present, are an object in MCP (never an array, null or a scalar). */
function isParamsObject(params: unknown): params is JsonObject | undefined {
  return params === undefined || (typeof params === "object" && params !== null && !Array.isArray(params));
}

function sentBy(spec: MethodSpec, side: Side): boolean {
  return spec.from === side || spec.from === "both";
}

/**
 * A 2025-11-25 task-augmented request (`basic/utilities/tasks`): `params.task` on a method
 * that may carry it. Such a request is cancelled with `tasks/cancel`, never with
 * `notifications/cancelled` (`basic/utilities/cancellation`). The extension of the modern
 * era has no such field: there the server decides, and the caller checks the era.
 */
function isTaskAugmented(spec: MethodSpec, params: JsonObject | undefined): boolean {
  return spec.taskAugmentable && taskMetadataOf(params) !== undefined;
}

/**
 * New capabilities from the application. Before a legacy handshake they are what this side
 * declares: in `server/discover` and each modern request's checks (draft `basic/index`:
 * every modern request stands alone, so it sees the capabilities of now) and in the
 * `initialize` still to come. A legacy handshake fixed what its session declared
 * (2025-11-25 `basic/lifecycle`: capabilities are negotiated at initialization), so it keeps
 * them, and a closed session has none to change.
 */
function declare(state: SessionState, capabilities: JsonObject, out: SessionOutput[]): void {
  const phase = state.phase.name;
  if (phase !== "new" && phase !== "probing" && phase !== "modern") {
    out.push({ type: "diagnostic", code: "declare-refused", message: `capabilities are fixed for this session (${phase}): a legacy handshake declared them`, detail: { phase } });
    return;
  }
  // A copy: McpServer gives every connection the same object, and the application may edit it later.
  const copy = jsonCopy(capabilities);
  if (copy === undefined) {
    out.push({ type: "diagnostic", code: "declare-refused", message: "the capabilities have no JSON form", detail: { phase } });
    return;
  }
  state.options.capabilities = copy;
}

/**
 * Client: the transport's new session (see the `renewed` input). Its result is checked as
 * the first one was; one that is invalid, or of another version, ends the session (the
 * requests of the old version cannot go on under it). Refused outside a legacy client
 * session that is operating: only those have an HTTP session to renew.
 */
function renewed(state: SessionState, result: JsonObject, out: SessionOutput[]): void {
  const phase = state.phase;
  if (state.options.role !== "client" || phase.name !== "operating") {
    out.push({ type: "diagnostic", code: "renew-refused", message: `only an operating legacy client session is renewed (this is a ${state.options.role} in phase ${phase.name})` });
    return;
  }
  if (result.protocolVersion !== phase.version) {
    fail(state, `the renewed session has protocol version ${JSON.stringify(result.protocolVersion)}, not this session's ${phase.version}`, out);
    return;
  }
  const server = serverOf(state, phase.version, result, "initialize result of the renewed session", out);
  if (server === undefined) return;
  phase.peer = server.kept;
  out.push({ type: "renewed", peer: server.peer });
}

/** A fatal protocol error: close the session and ask the driver to close the transport. */
function fail(state: SessionState, reason: string, out: SessionOutput[]): void {
  closeSession(state, reason, out, true);
}

// ---------------------------------------------------------------------------------------
// Lifecycle: the client's half of the handshake

function open(state: SessionState, now: number, out: SessionOutput[]): void {
  const o = state.options;
  if (o.role !== "client" || state.phase.name !== "new") {
    out.push({ type: "diagnostic", code: "open-ignored", message: `open is for a new client session (this is a ${o.role} in phase ${state.phase.name})` });
    return;
  }
  // draft basic/versioning: a client that may meet a modern server probes with
  // server/discover first; one that knows (or only speaks) legacy goes straight to initialize.
  const modern = o.versions.find(isModernVersion);
  if (modern !== undefined && o.era !== "legacy") return probe(state, modern, now, out);
  startInitialize(state, now, out, "open");
}

/** `deadline`, when given, replaces the one `timeoutMs` would set (a re-sent probe keeps the first one's). */
function internalRequest(state: SessionState, now: number, method: string, internal: OutboundRequest["internal"], timeoutMs = state.options.requestTimeoutMs, deadline?: number | null): number {
  const o = state.options;
  const id = state.nextId++;
  const hard = o.maxRequestTimeoutMs > 0 ? now + o.maxRequestTimeoutMs : null;
  const req: OutboundRequest = { id, method, internal, deadline: deadline !== undefined ? deadline : deadlineFrom(now, timeoutMs, hard), hardDeadline: hard, timeoutMs };
  addOutbound(state, req);
  wakeNoLaterThan(state, req.deadline);
  return id;
}

/** `probed`: what the probe got, for a modern-only client's failure (a transport error reads as "not modern" too). */
function startInitialize(state: SessionState, now: number, out: SessionOutput[], event: "open" | "fallback", probed?: string): void {
  const o = state.options;
  const version = legacyVersionsOf(o.versions)[0];
  if (version === undefined) {
    const why = probed === undefined ? "" : ` (server/discover: ${probed})`;
    // A transport's own answer (-32000 "connection closed: …": the POST failed) says nothing
    // of the server's era; a -32000 the server sent itself does (it answered, not modern).
    const unreachable = probed?.startsWith(`${ErrorCode.ConnectionClosed} connection closed: `) === true;
    const reason = unreachable ? `the server could not be reached${why}` : `the server is not a modern server this client can talk to${why}, and this client speaks no legacy version`;
    fail(state, event === "open" ? "no legacy protocol version configured" : reason, out);
    return;
  }
  const params: JsonObject = { protocolVersion: version, capabilities: copyOf(o.capabilities), clientInfo: copyOf(o.info) };
  // The kernel's own request is held to the schema like the application's (sendRequest):
  // a clientInfo the server must refuse (an icon `src` without a scheme) ends the session here.
  const issues = o.validateOutgoing ? methodSpec(version, "initialize")!.validateParams(params) : null;
  if (issues) return fail(state, `invalid initialize params: ${issuesLine(issues)}`, out);
  const id = internalRequest(state, now, "initialize", "initialize");
  moveTo(state, event, { name: "initializing", requestKey: idKey(id) });
  out.push({ type: "send", message: { jsonrpc: "2.0", id, method: "initialize", params } });
}

/** Issues on one line, as the session's failures name them. */
function issuesLine(issues: Issue[]): string {
  return issues.map((i) => `${i.path || "/"} ${i.reason}`).join("; ");
}

/**
 * What the schema finds wrong with `info` as the `Implementation` a `role` sends
 * (`clientInfo` / `serverInfo`), paths relative to `info`; null when valid. It is checked
 * inside the message of the newest of `versions` that carries it (initialize params or
 * result; 2026-07-28: a request's or `server/discover` result's `_meta`), so the rule is
 * the schema's own and the newest one this side speaks (older schemas, open objects, only
 * know fewer fields). For the API constructors, which refuse a bad identity up front.
 */
export function implementationIssues(role: Side, info: unknown, versions: readonly unknown[] = LEGACY_VERSIONS): Issue[] | null {
  if (typeof info !== "object" || info === null || Array.isArray(info)) return [{ path: "", reason: "must be an object" }];
  const version = PROTOCOL_VERSIONS.find((v) => versions.includes(v)) ?? LEGACY_VERSIONS[0];
  let issues: Issue[] | null;
  let at: string;
  if (isModernVersion(version)) {
    const spec = methodSpec(version, "server/discover")!;
    const key = role === "client" ? MetaKey.clientInfo : MetaKey.serverInfo;
    at = `/_meta/${escapeSegment(key)}`;
    issues =
      role === "client"
        ? spec.validateParams(withRequestMeta(undefined, version, {}, info as Implementation, undefined))
        : spec.validateResult!(stampResult("server/discover", { supportedVersions: [version], capabilities: {} }, info as Implementation, { ttlMs: 0, scope: "private" }));
  } else {
    at = role === "client" ? "/clientInfo" : "/serverInfo";
    const spec = methodSpec(version, "initialize")!;
    const base: JsonObject = { protocolVersion: version, capabilities: {} };
    issues = role === "client" ? spec.validateParams({ ...base, clientInfo: info as JsonObject }) : spec.validateResult!({ ...base, serverInfo: info as JsonObject });
  }
  // The rest of the message is built here and valid: every issue is under `at`.
  return issues && issues.map((i) => ({ path: i.path.startsWith(at) ? i.path.slice(at.length) : i.path, reason: i.reason }));
}

/** The shorter of two timeouts, where 0 is none. */
function shorterTimeout(a: number, b: number): number {
  return a > 0 && b > 0 ? Math.min(a, b) : Math.max(a, b);
}

/**
 * Sends the `server/discover` probe; `retries` counts the -32022 retries so far (bounded by
 * version-retry.ts). A legacy server may answer it "not at all" (draft stdio, Backward
 * Compatibility), so `discoverTimeoutMs`, not the general request timeout, bounds the
 * wait before the fallback to initialize: for the first probe and its retries together
 * (`until`, the first probe's deadline).
 */
function probe(state: SessionState, version: ModernVersion, now: number, out: SessionOutput[], retries = 0, until?: number | null): void {
  const o = state.options;
  const params = withRequestMeta(undefined, version, o.capabilities, o.info, undefined);
  // Held to the schema as initialize is (startInitialize): its _meta carries the clientInfo.
  const issues = o.validateOutgoing ? methodSpec(version, "server/discover")!.validateParams(params) : null;
  if (issues) return fail(state, `invalid server/discover params: ${issuesLine(issues)}`, out);
  const id = internalRequest(state, now, "server/discover", "discover", shorterTimeout(o.discoverTimeoutMs, o.requestTimeoutMs), until);
  moveTo(state, "probe", { name: "probing", requestKey: idKey(id), version, retries });
  out.push({ type: "send", message: { jsonrpc: "2.0", id, method: "server/discover", params } });
}

/**
 * The probe's verdict. A DiscoverResult, or a recognized modern error, means a modern
 * server: stay modern (retrying with a mutually supported version after -32022). Any
 * other answer, or none before the timeout, means a legacy server: fall back to
 * initialize.
 */
function receiveDiscoverResponse(state: SessionState, msg: JsonRpcResultResponse | JsonRpcErrorResponse, now: number, out: SessionOutput[], deadline: number | null): void {
  const o = state.options;
  const phase = state.phase as Extract<Phase, { name: "probing" }>;
  if ("error" in msg) {
    if (!MODERN_ERROR_CODES.includes(msg.error.code)) return startInitialize(state, now, out, "fallback", `${msg.error.code} ${msg.error.message}`);
    if (msg.error.code !== ErrorCode.UnsupportedProtocolVersion) {
      fail(state, `the modern server refused discovery: ${msg.error.code} ${msg.error.message}`, out);
      return;
    }
    const retries = phase.retries ?? 0;
    const decision = decideVersionRetry(o.versions, phase.version, (msg.error.data as { supported?: unknown } | undefined)?.supported, retries);
    if (decision.kind === "retry") return probe(state, decision.version, now, out, retries + 1, deadline);
    if (decision.kind === "fallback") return startInitialize(state, now, out, "fallback");
    fail(state, decision.reason, out);
    return;
  }
  // Hints a client reads leniently (caching page) do not make a DiscoverResult legacy.
  const result = readCacheHints("server/discover", msg.result);
  const issues = methodSpec(phase.version, "server/discover")!.validateResult!(result.resultType === undefined ? { ...result, resultType: "complete" } : result);
  if (issues) return startInitialize(state, now, out, "fallback", "not a DiscoverResult");
  const versions = result.supportedVersions as string[];
  const version = o.versions.find((v): v is ModernVersion => isModernVersion(v) && versions.includes(v));
  if (version === undefined) {
    if (o.versions.some((v) => versions.includes(v))) return startInitialize(state, now, out, "fallback");
    fail(state, `no protocol version in common (server: ${versions.join(", ")}; client: ${o.versions.join(", ")})`, out);
    return;
  }
  const meta = result._meta as JsonObject | undefined;
  const info = (meta?.[MetaKey.serverInfo] as PeerInfo["info"] | undefined) ?? { name: "unknown", version: "unknown" };
  const peer: PeerInfo = { info, capabilities: result.capabilities as JsonObject };
  if (typeof result.instructions === "string") peer.instructions = result.instructions;
  const kept = keptPeer(state, peer, out);
  if (kept === undefined) return;
  moveTo(state, "discovered", { name: "modern", version, peer: kept });
  out.push({ type: "initialized", version, peer });
}

function receiveInitializeResponse(state: SessionState, msg: JsonRpcResultResponse | JsonRpcErrorResponse, now: number, out: SessionOutput[]): void {
  if ("error" in msg) {
    fail(state, `initialize failed: ${msg.error.code} ${msg.error.message}`, out);
    return;
  }
  const result = msg.result;
  const version = result.protocolVersion;
  const ours = legacyVersionsOf(state.options.versions);
  if (!ours.includes(version as LegacyVersion)) {
    // Lifecycle: "If the client does not support the version in the server's response, it SHOULD disconnect."
    fail(state, `server chose protocol version ${JSON.stringify(version)}, which this client does not support (supported: ${ours.join(", ")})`, out);
    return;
  }
  const v = version as LegacyVersion;
  const server = serverOf(state, v, result, "initialize result", out);
  if (server === undefined) return;
  moveTo(state, "initialize-result", { name: "operating", version: v, peer: server.kept });
  out.push({ type: "send", message: { jsonrpc: "2.0", method: "notifications/initialized" } });
  out.push({ type: "initialized", version: v, peer: server.peer });
  startKeepAlive(state, now);
}

/**
 * The server an `InitializeResult` of `version` describes (`what` names it in the failure):
 * the peer as the result gives it (for the event) and the copy the state keeps; undefined
 * when the result is invalid or has no JSON form, and the session then ends.
 */
function serverOf(state: SessionState, version: ProtocolVersion, result: JsonObject, what: string, out: SessionOutput[]): { peer: PeerInfo; kept: PeerInfo } | undefined {
  const issues = methodSpec(version, "initialize")?.validateResult?.(result);
  if (issues) {
    fail(state, `invalid ${what}: ${issues.map((i) => `${i.path || "/"} ${i.reason}`).join("; ")}`, out);
    return undefined;
  }
  const peer: PeerInfo = { info: result.serverInfo as PeerInfo["info"], capabilities: result.capabilities as JsonObject };
  if (typeof result.instructions === "string") peer.instructions = result.instructions;
  const kept = keptPeer(state, peer, out);
  return kept === undefined ? undefined : { peer, kept };
}

/**
 * What the state keeps of the peer: a copy, so that the `initialized` event's peer (the
 * application's) and the message's objects stay apart from the session. A value received
 * in process with no JSON form (a BigInt) ends the handshake: no wire could carry it.
 */
function keptPeer(state: SessionState, peer: PeerInfo, out: SessionOutput[]): PeerInfo | undefined {
  const kept = jsonCopy(peer);
  if (kept === undefined) fail(state, "the peer's info or capabilities have no JSON form", out);
  return kept;
}

// ---------------------------------------------------------------------------------------
// Lifecycle: the server's half

function receiveInitialize(state: SessionState, msg: JsonRpcRequest, out: SessionOutput[]): void {
  if (state.phase.name !== "new") {
    sendError(out, msg.id, ErrorCode.InvalidRequest, "the session is already initialized; initialize may be sent only once");
    return;
  }
  const o = state.options;
  const params = msg.params;
  const version = negotiateVersion(params?.protocolVersion, o.versions);
  if (version === undefined) {
    // Versioning: a modern-only server SHOULD name the versions it supports in any error to initialize.
    sendError(out, msg.id, ErrorCode.UnsupportedProtocolVersion, `this server speaks only ${o.versions.join(", ")}`, { supported: o.versions, requested: params?.protocolVersion });
    return;
  }
  const issues = methodSpec(version, "initialize")!.validateParams(params) ?? oversizedPeerIssues(params!.capabilities, "/capabilities") ?? oversizedPeerIssues(params!.clientInfo, "/clientInfo");
  if (issues) {
    sendError(out, msg.id, ErrorCode.InvalidParams, "Invalid params", { issues });
    return;
  }
  // A copy (see keptPeer); the peer is handed out with notifications/initialized.
  const peer = jsonCopy<PeerInfo>({ info: params!.clientInfo as PeerInfo["info"], capabilities: params!.capabilities as JsonObject });
  if (peer === undefined) {
    sendError(out, msg.id, ErrorCode.InvalidParams, "Invalid params: clientInfo or capabilities have no JSON form");
    return;
  }
  const result: JsonObject = { protocolVersion: version, capabilities: copyOf(o.capabilities), serverInfo: copyOf(o.info) };
  if (o.instructions !== undefined) result.instructions = o.instructions;
  // The kernel's own answer is held to the schema like a handler's (respond): a serverInfo
  // the client must refuse (an icon `src` without a scheme) gets -32603, and the session
  // stays new rather than half-open.
  const invalid = o.validateOutgoing ? methodSpec(version, "initialize")!.validateResult!(result) : null;
  if (invalid) {
    sendError(out, msg.id, ErrorCode.InternalError, "the server's initialize result is invalid");
    out.push({ type: "diagnostic", code: "invalid-result", message: `this server's initialize result does not match the schema (its info or capabilities); the peer got -32603`, detail: { id: msg.id, issues: invalid } });
    return;
  }
  moveTo(state, "initialize", { name: "awaiting-initialized", version, peer });
  sendResult(out, msg.id, result);
}

function receiveInitialized(state: SessionState, now: number, out: SessionOutput[]): void {
  const p = state.phase;
  if (p.name !== "awaiting-initialized") {
    out.push({ type: "diagnostic", code: "unexpected-initialized", message: `notifications/initialized in phase ${p.name} ignored` });
    return;
  }
  moveTo(state, "initialized", { name: "operating", version: p.version, peer: p.peer });
  // A copy: the application's event must not be the session's own object.
  out.push({ type: "initialized", version: p.version, peer: copyOf(p.peer) });
  startKeepAlive(state, now);
}

// ---------------------------------------------------------------------------------------
// Receiving

function receive(state: SessionState, input: { now: number; data?: string; value?: unknown }, out: SessionOutput[]): void {
  if (state.phase.name === "closed") {
    out.push({ type: "diagnostic", code: "receive-after-close", message: "message received after the session closed was dropped" });
    return;
  }
  const o = state.options;
  const opts = { maxBytes: o.maxMessageBytes, maxDepth: o.maxDepth, allowBatch: acceptsBatches(state) };
  const decoded = input.data !== undefined ? decode(input.data, opts) : decodeValue(input.value, opts);
  handleDecoded(state, decoded, input.now, out);
}

function handleDecoded(state: SessionState, d: Decoded, now: number, out: SessionOutput[]): void {
  switch (d.kind) {
    case "request":
      return receiveRequest(state, d.message, now, out);
    case "notification":
      return receiveNotification(state, d.message, now, out);
    case "result":
    case "error":
      return receiveResponse(state, d.message, now, out);
    case "batch":
      // 2025-03-26 batches: each member is handled as if it came alone; answers go out one by one.
      for (const item of d.items) handleDecoded(state, item, now, out);
      return;
    case "invalid":
      // A malformed response gets no reply (a refused array holding a request still does);
      // the requests it names fail now, as if answered with an error.
      if ((d.answers === undefined || d.holdsRequest) && !writesNoResponses(state)) out.push({ type: "send", message: d.reply });
      out.push({ type: "diagnostic", code: "invalid-message", message: d.reason });
      if (Array.isArray(d.answers)) failAnswered(state, d.answers, d.reason, now, out);
      else if (d.answers !== undefined && d.answers !== null) receiveResponse(state, malformedResponseAnswer(d.answers, d.reason), now, out);
  }
}

/**
 * The requests in flight that the responses of a refused batch answer (a batch after
 * 2025-03-26, basic/index): each fails now with `-32603`, as a malformed response's does.
 * Ids naming no request in flight are skipped: a long array of them would otherwise give
 * a diagnostic each.
 */
function failAnswered(state: SessionState, ids: RequestId[], reason: string, now: number, out: SessionOutput[]): void {
  for (const id of ids) if (Object.hasOwn(state.outbound, idKey(id))) receiveResponse(state, malformedResponseAnswer(id, reason), now, out);
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
  const key = idKey(id);
  if (Object.hasOwn(state.inbound, key)) {
    // basic/index: "The request ID MUST NOT match the ID of any other request the sender has issued and not yet received a response for."
    sendError(out, id, ErrorCode.InvalidRequest, "duplicate request id: a request with this id is still in progress");
    out.push({ type: "diagnostic", code: "duplicate-request-id", message: "peer reused the id of a request still in progress", detail: { id } });
    return;
  }
  const o = state.options;
  // Dual-era: a request that names its version in _meta is served statelessly, whatever the
  // legacy phase; so is every request to a server that speaks no legacy version.
  if (o.role === "server" && (isModernRequest(msg.params) || (method !== "initialize" && !o.versions.some(isLegacyVersion)))) return receiveModernRequest(state, msg, out);
  const phase = state.phase;
  if (!gateAdmits(INBOUND_GATE[o.role][phase.name].requests, method)) {
    const why = phase.name === "closed" ? "the session is closed" : `"${method}" is not allowed before initialization completes`;
    sendError(out, id, ErrorCode.InvalidRequest, why);
    return;
  }
  if (method === "initialize" && o.role === "server") return receiveInitialize(state, msg, out);
  const version = versionOf(state);
  const spec = methodSpec(version, method);
  if (spec === undefined || spec.kind !== "request" || !sentBy(spec, peerOf(o.role))) {
    sendError(out, id, ErrorCode.MethodNotFound, `Method not found: ${method}`);
    return;
  }
  const peer = peerOfPhase(phase);
  const missing = missingCapability(spec, o.role, o.capabilities, peer?.capabilities, peerOf(o.role));
  if (missing !== null) {
    sendError(out, id, ErrorCode.MethodNotFound, `Method not found: ${method} (capability ${missing} not declared)`);
    return;
  }
  const params = msg.params;
  const issues = spec.validateParams(params) ?? retainedStringIssues(method, params);
  if (issues) {
    sendError(out, id, ErrorCode.InvalidParams, "Invalid params", { issues });
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
  if (state.inboundCount >= o.maxInboundRequests) {
    sendError(out, id, ErrorCode.InvalidRequest, `too many requests in progress (limit ${o.maxInboundRequests})`);
    return;
  }
  if (method === "elicitation/create" && params?.mode === "url" && typeof params.elicitationId === "string") rememberUrlElicitation(state, params.elicitationId);
  const token = progressTokenOf(params);
  const req: InboundRequest = token === undefined ? { id, method } : { id, method, progressToken: token };
  if (isTaskAugmented(spec, params)) req.task = true;
  addInbound(state, req);
  out.push({ type: "request", id, method, params });
}

function receiveNotification(state: SessionState, msg: JsonRpcNotification, now: number, out: SessionOutput[]): void {
  const o = state.options;
  const { method, params } = msg;
  if (method === "notifications/initialized" && o.role === "server") return receiveInitialized(state, now, out);
  // Cancellation is per request, not per phase: a server takes it whatever the legacy phase
  // (a modern request can be cancelled before any handshake), until the session closes.
  const anyPhase = method === "notifications/cancelled" && o.role === "server" && state.phase.name !== "closed";
  if (!anyPhase && !gateAdmits(INBOUND_GATE[o.role][state.phase.name].notifications, method)) {
    out.push({ type: "diagnostic", code: "notification-dropped", message: `"${method}" is not allowed in phase ${state.phase.name}; dropped` });
    return;
  }
  const spec = methodSpec(versionOf(state), method);
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
  const missing = missingCapability(spec, o.role, o.capabilities, peerOfPhase(state.phase)?.capabilities, peerOf(o.role));
  if (missing !== null) {
    out.push({ type: "diagnostic", code: "notification-dropped", message: `"${method}" needs capability ${missing}, which the peer did not declare; dropped` });
    return;
  }
  if (method === "notifications/elicitation/complete") {
    // client/elicitation: clients MUST ignore notifications referencing unknown or already-completed IDs.
    const eid = params!.elicitationId as string;
    if (!Object.hasOwn(state.urlElicitations, eid)) {
      out.push({ type: "diagnostic", code: "unknown-elicitation", message: "completion of an unknown or finished elicitation ignored", detail: { elicitationId: eid } });
      return;
    }
    delete state.urlElicitations[eid];
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

function receiveResponse(state: SessionState, msg: JsonRpcResultResponse | JsonRpcErrorResponse, now: number, out: SessionOutput[]): void {
  if (msg.id === null) {
    out.push({ type: "diagnostic", code: "peer-error", message: "the peer reported an error about a message it could not read", detail: (msg as JsonRpcErrorResponse).error });
    return;
  }
  const req = removeOutbound(state, idKey(msg.id));
  if (req === undefined) {
    // Unknown id, or a late answer to a request we cancelled or timed out: the sender SHOULD ignore it.
    out.push({ type: "diagnostic", code: "unknown-response-id", message: "response to no request in flight dropped", detail: { id: msg.id } });
    return;
  }
  if (req.internal === "initialize") return receiveInitializeResponse(state, msg, now, out);
  if (req.internal === "discover") return receiveDiscoverResponse(state, msg, now, out, req.deadline);
  if (req.internal === "keepalive") {
    state.keepAlive.missed = 0;
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
    out.push({ type: "error", id: eventId, method: req.method, error: msg.error });
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
    else if (kind !== "complete" && !(kind === "task" && methodSpec(versionOf(state), req.method)?.taskAugmentable === true && declaresTasksExtension(state.options.capabilities))) {
      const why = kind === "task" ? `a task answer to ${req.method}, which did not declare the tasks extension` : `unrecognized resultType ${JSON.stringify(kind)}`;
      out.push({ type: "error", id: eventId, method: req.method, error: { code: ErrorCode.InternalError, message: `${why} from the peer` } });
      return;
    }
    result = readCacheHints(req.method, result);
  }
  const issues = methodSpec(versionOf(state), req.method)?.validateResult?.(result);
  if (issues) {
    out.push({ type: "error", id: eventId, method: req.method, error: { code: ErrorCode.InternalError, message: `invalid ${req.method} result from the peer`, data: { issues } } });
    return;
  }
  observeAnswer(state, req, result, out);
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
    if (Object.keys(subs).length >= MAX_RESOURCE_SUBSCRIPTIONS) return sendError(out, id, ErrorCode.InvalidRequest, `too many resource subscriptions (limit ${MAX_RESOURCE_SUBSCRIPTIONS})`);
    Object.defineProperty(subs, uri, { value: true, enumerable: true, writable: true, configurable: true });
  }
  out.push({ type: "diagnostic", code: method === "resources/subscribe" ? "resource-subscribed" : "resource-unsubscribed", message: `${method} ${uri}`, detail: { uri } });
  sendResult(out, id, {});
}

// ---------------------------------------------------------------------------------------
// Multi round-trip requests, client side (draft basic/patterns/mrtr)

/**
 * An `input_required` answer: each input request goes to the application as a `request`
 * event (ids `mrtr:<origin>:<round>:<key>`, answered locally, never on the wire); when all
 * are answered the original request is retried under a new id with `inputResponses` and
 * the exact `requestState` (none if none was given). Events keep naming the original id.
 *
 * The call's timeout covers every round, the time the application takes to answer
 * included: the round keeps the deadline of the attempt it ends and the retry inherits it.
 * This is the legacy era's wait: there a server asks (`elicitation/create`) while its
 * `tools/call` is in flight, and the call's timeout keeps running while the user answers;
 * only the server's progress resets it, never past `maxRequestTimeoutMs` (2025-11-25
 * `basic/lifecycle`, Timeouts). A modern server sends no progress while the round is with
 * the client (no request of it is in flight), so none resets it here either; progress on
 * an attempt does, as on any request. Starting afresh each round would let a server (or an
 * unanswered input) keep a call waiting without any bound the caller set.
 */
function receiveInputRequired(state: SessionState, req: OutboundRequest, result: JsonObject, now: number, out: SessionOutput[]): void {
  const origin = req.origin ?? req.id;
  const version = versionOf(state);
  const spec = methodSpec(version, req.method);
  const invalid = (message: string, data?: unknown): void => {
    out.push({ type: "error", id: origin, method: req.method, error: data === undefined ? { code: ErrorCode.InternalError, message } : { code: ErrorCode.InternalError, message, data } });
  };
  if (!spec?.inputRequired) return invalid(`the server answered ${req.method} with input_required, which it MUST NOT`);
  const issues = spec.validateResult!(result);
  if (issues) return invalid("invalid input_required result from the peer", { issues });
  // draft basic/patterns/mrtr: servers MUST include at least one; a retry of the same request would only get the same answer.
  if (result.inputRequests === undefined && typeof result.requestState !== "string") return invalid("an input_required result from the peer with neither inputRequests nor requestState, which it MUST include");
  // Servers MUST NOT ask for input this client did not declare (draft mrtr), and each entry
  // is treated as the standalone request would be (SEP-2663), which gets -32602 (2025-11-25
  // client/elicitation): the call fails and no handler runs for it.
  const undeclared = inputRequiredProblem(true, req.method, result, state.options.capabilities);
  if (undeclared) return invalid(`an input_required result from the peer asking for client capabilities this client did not declare, which it MUST NOT`, undeclared.data);
  const round = (req.round ?? 0) + 1;
  if (round > state.options.maxInputRounds) return invalid(`gave up after ${state.options.maxInputRounds} input_required rounds`);
  const inputs = (result.inputRequests ?? {}) as Record<string, { method: string; params?: JsonObject }>;
  const keys = Object.keys(inputs);
  // The keys are kept until the application answers (retained.ts): a longer one is no real key.
  if (keys.some((key) => tooLong(key, MAX_KEPT_ID_LENGTH))) return invalid(`an input_required result from the peer with an inputRequests key longer than ${MAX_KEPT_ID_LENGTH} characters`);
  const originKey = idKey(origin);
  const entry: MrtrRound = { origin, method: req.method, timeoutMs: req.timeoutMs, deadline: req.deadline, hardDeadline: req.hardDeadline, progress: req.progressToken !== undefined, round, keys, waiting: [...keys], responses: {} };
  if (req.params !== undefined) entry.params = req.params;
  if (req.logLevel !== undefined) entry.logLevel = req.logLevel;
  if (typeof result.requestState === "string") entry.requestState = result.requestState;
  state.mrtr[originKey] = entry;
  wakeNoLaterThan(state, entry.deadline);
  for (const key of entry.waiting) {
    const id = inputRequestId(originKey, round, key);
    addInbound(state, { id, method: inputs[key].method, mrtr: { origin: originKey, key } });
    out.push({ type: "request", id, method: inputs[key].method, params: inputs[key].params });
  }
  if (entry.waiting.length === 0) retryInput(state, originKey, now, out);
}

/** The application answered one input request; once all are in, the original request is retried with them. */
function answerInput(state: SessionState, ref: { origin: string; key: string }, method: string, result: JsonObject, now: number, out: SessionOutput[]): void {
  const entry = Object.hasOwn(state.mrtr, ref.origin) ? state.mrtr[ref.origin] : undefined;
  if (entry === undefined) return;
  // A copy: the answer may wait in the state for the round's other answers.
  const kept = jsonCopy(result);
  if (kept === undefined) return failInput(state, ref, method, { code: ErrorCode.InternalError, message: "the result has no JSON form" }, out);
  Object.defineProperty(entry.responses, ref.key, { value: kept, enumerable: true, writable: true, configurable: true });
  entry.waiting = entry.waiting.filter((k) => k !== ref.key);
  if (entry.waiting.length === 0) retryInput(state, ref.origin, now, out);
}

/**
 * The application could not construct one input (its handler failed): the original request
 * fails with that error. A retry without it breaks "the client MUST construct the requested
 * inputs before retrying" (draft `basic/patterns/mrtr`), and the server would only ask
 * again, round after round, until the bound; answers still coming for the round are dropped.
 */
function failInput(state: SessionState, ref: { origin: string; key: string }, method: string, error: { code: number; message: string; data?: unknown }, out: SessionOutput[]): void {
  const code = Number.isInteger(error.code) ? error.code : ErrorCode.InternalError;
  const message = `the ${method} input could not be provided: ${typeof error.message === "string" ? error.message : "the handler failed"}`;
  const entry = dropInputRound(state, ref.origin, message, out);
  if (entry === undefined) return;
  out.push({ type: "error", id: entry.origin, method: entry.method, error: error.data === undefined ? { code, message } : { code, message, data: error.data } });
}

function retryInput(state: SessionState, originKey: string, now: number, out: SessionOutput[]): void {
  const entry = state.mrtr[originKey];
  // The call's time ran out before the tick that would have said so: no retry to send and cancel at once.
  const deadline = entry.deadline ?? null;
  if (deadline !== null && deadline <= now) return timeOutInputRound(state, originKey, out);
  delete state.mrtr[originKey];
  // In the order asked, whichever handler answered first: the retry is the same bytes on every run.
  const inputResponses: JsonObject = {};
  for (const key of entry.keys) {
    if (Object.hasOwn(entry.responses, key)) Object.defineProperty(inputResponses, key, { value: entry.responses[key], enumerable: true, writable: true, configurable: true });
  }
  // The params stay in the state for the next round: the message gets a copy of them.
  const params: JsonObject = { ...copyOf(entry.params), inputResponses };
  if (entry.requestState !== undefined) params.requestState = entry.requestState;
  sendRequest(state, { type: "request", now, method: entry.method, params, timeoutMs: entry.timeoutMs, progress: entry.progress, logLevel: entry.logLevel }, out, { origin: entry.origin, round: entry.round, params: entry.params, deadline, hardDeadline: entry.hardDeadline ?? null });
}

/** The id of an input request the application is handed: unique per call, round and key, and never a wire id. */
function inputRequestId(originKey: string, round: number, key: string): string {
  return `mrtr:${originKey}:${round}:${key}`;
}

/**
 * Drops a round that is still gathering input (cancelled, timed out, or an input failed).
 * Each input request still unanswered is `cancelled`, so the handler asking the user learns
 * the answer is no longer wanted (its signal aborts) and the driver forgets it.
 */
function dropInputRound(state: SessionState, originKey: string, reason: string, out: SessionOutput[]): MrtrRound | undefined {
  if (!Object.hasOwn(state.mrtr, originKey)) return undefined;
  const entry = state.mrtr[originKey];
  delete state.mrtr[originKey];
  for (const key of entry.waiting) {
    const id = inputRequestId(originKey, entry.round, key);
    if (removeInbound(state, idKey(id)) !== undefined) out.push({ type: "cancelled", id, reason });
  }
  return entry;
}

/** The call's deadline passed while its inputs were gathered: it fails with -32001, as a request timing out on the wire does. Nothing is in flight, so nothing is sent. */
function timeOutInputRound(state: SessionState, originKey: string, out: SessionOutput[]): void {
  const entry = state.mrtr[originKey];
  const message = timeoutMessage(state, entry);
  dropInputRound(state, originKey, message, out);
  out.push({ type: "error", id: entry.origin, method: entry.method, error: { code: ErrorCode.RequestTimeout, message } });
}

function rememberUrlElicitation(state: SessionState, elicitationId: string): void {
  const table = state.urlElicitations;
  if (Object.hasOwn(table, elicitationId)) return;
  const keys = Object.keys(table);
  if (keys.length >= MAX_URL_ELICITATIONS) delete table[keys[0]];
  // defineProperty: an id such as "__proto__" stays an own key (assignment would hit the prototype setter and be lost).
  Object.defineProperty(table, elicitationId, { value: true, enumerable: true, writable: true, configurable: true });
}

/**
 * A URLElicitationRequiredError (-32042) announces URL elicitations the client may wait on:
 * 2025-11-25 `client/elicitation` lets it "wait for this notification to automatically retry
 * requests that received a URLElicitationRequiredError", and the error's elicitations MUST be
 * URL mode with an `elicitationId`. Those ids are remembered like an `elicitation/create`'s,
 * so their `notifications/elicitation/complete` reaches the application; entries of any
 * other shape are skipped, and at most the table's bound is taken from one error. An id
 * longer than an `elicitation/create` may carry (retained.ts) is skipped too, with a
 * diagnostic: the error cannot be refused, and the table would hold it until completion.
 */
function rememberRequiredElicitations(state: SessionState, data: unknown, out: SessionOutput[]): void {
  const list = (data as { elicitations?: unknown } | null | undefined)?.elicitations;
  if (!Array.isArray(list)) return;
  for (const e of list.slice(0, MAX_URL_ELICITATIONS)) {
    const { mode, elicitationId } = (e ?? {}) as { mode?: unknown; elicitationId?: unknown };
    if (mode !== "url" || typeof elicitationId !== "string") continue;
    if (tooLong(elicitationId, MAX_KEPT_ID_LENGTH)) notKept(out, "an elicitationId of a -32042 error", MAX_KEPT_ID_LENGTH, elicitationId.length);
    else rememberUrlElicitation(state, elicitationId);
  }
}

// ---------------------------------------------------------------------------------------
// Sending

function sendRequest(
  state: SessionState,
  input: Extract<SessionInput, { type: "request" }>,
  out: SessionOutput[],
  retry?: { origin: RequestId; round: number; params?: JsonObject; deadline: number | null; hardDeadline: number | null },
): void {
  const o = state.options;
  const { method, now } = input;
  const id = state.nextId++;
  // Refusals name the request the application knows (the original one of an MRTR retry).
  const eventId = retry?.origin ?? id;
  const phase = state.phase;
  if (phase.name === "closed") return refuseRequest(out, eventId, method, ErrorCode.ConnectionClosed, `the session is closed: ${phase.reason}`);
  if (method === "initialize") return refuseRequest(out, eventId, method, ErrorCode.InvalidRequest, "the kernel sends initialize itself (input `open`)");
  if (!gateAdmits(OUTBOUND_GATE[o.role][phase.name].requests, method)) return refuseRequest(out, eventId, method, ErrorCode.InvalidRequest, `"${method}" may not be sent before initialization completes`);
  const spec = methodSpec(versionOf(state), method);
  if (spec === undefined || spec.kind !== "request" || !sentBy(spec, o.role)) return refuseRequest(out, eventId, method, ErrorCode.MethodNotFound, `${method} is not a ${o.role} request in ${versionOf(state)}`);
  const peer = peerOfPhase(phase);
  const missing = missingCapability(spec, o.role, o.capabilities, peer?.capabilities, o.role);
  if (missing !== null) return refuseRequest(out, eventId, method, ErrorCode.MethodNotFound, `cannot send ${method}: capability ${missing} was not declared`);
  let params = input.params;
  if (!isParamsObject(params)) return refuseRequest(out, eventId, method, ErrorCode.InvalidParams, `${method} params must be an object`);
  const capError = paramsCapabilityError(method, params, o.role === "client" ? o.capabilities : peer?.capabilities, versionOf(state));
  if (capError !== null) return refuseRequest(out, eventId, method, capError.code, `cannot send ${method}: ${capError.message}`, capError.data);
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
  if (!Number.isFinite(now)) return refuseRequest(out, eventId, method, ErrorCode.InvalidParams, "now must be a finite number");
  if (input.timeoutMs !== undefined && !(Number.isFinite(input.timeoutMs) && input.timeoutMs >= 0)) return refuseRequest(out, eventId, method, ErrorCode.InvalidParams, "timeoutMs must be a finite number of milliseconds (0 for none)");
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
  if (phase.name !== "modern" && isTaskAugmented(spec, params)) req.task = true;
  if (method === "tasks/result" && typeof params?.taskId === "string") req.resultOf = params.taskId;
  if (kept !== undefined) req.params = kept;
  if (phase.name === "modern" && spec.inputRequired && input.logLevel !== undefined) req.logLevel = input.logLevel;
  if (retry !== undefined) {
    req.origin = retry.origin;
    req.round = retry.round;
  }
  // Its cancellation goes where it went: on HTTP, that request's stream (2025-11-25
  // transports: messages on a POST's stream relate to its request), not the GET stream a
  // client may not have. Kept only while it names a request in progress (a peer's id, bounded).
  if (input.related !== undefined && Object.hasOwn(state.inbound, idKey(input.related))) req.related = input.related;
  if (input.progress) {
    params = withProgressToken(params, id);
    req.progressToken = id;
  }
  addOutbound(state, req);
  wakeNoLaterThan(state, req.deadline);
  pushSend(out, params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params }, input.related);
}

/** Fails a request the application asked to send: an `error` event, nothing on the wire. */
function refuseRequest(out: SessionOutput[], id: RequestId, method: string, code: number, message: string, data?: unknown): void {
  out.push({ type: "error", id, method, error: data === undefined ? { code, message } : { code, message, data } });
}

/** Notifications the kernel sends itself; the application uses the `cancel` and `progress` inputs instead. */
const KERNEL_NOTIFICATIONS = ["notifications/initialized", "notifications/cancelled", "notifications/progress"];

function sendNotification(state: SessionState, method: string, params: JsonObject | undefined, out: SessionOutput[], related?: RequestId): void {
  const o = state.options;
  const refuse = (message: string, detail?: unknown): void => {
    out.push({ type: "diagnostic", code: "notification-refused", message, detail });
  };
  if (!isParamsObject(params)) return refuse(`${method} params must be an object`);
  if (KERNEL_NOTIFICATIONS.includes(method)) return refuse(`${method} is sent by the kernel; use the cancel or progress input`);
  if (!gateAdmits(OUTBOUND_GATE[o.role][state.phase.name].notifications, method)) return refuse(`"${method}" may not be sent in phase ${state.phase.name}`);
  const spec = methodSpec(versionOf(state), method);
  if (spec === undefined || spec.kind !== "notification" || !sentBy(spec, o.role)) return refuse(`${method} is not a ${o.role} notification in ${versionOf(state)}`);
  const missing = missingCapability(spec, o.role, o.capabilities, peerOfPhase(state.phase)?.capabilities, o.role);
  if (missing !== null) return refuse(`cannot send ${method}: capability ${missing} was not declared`);
  if (o.validateOutgoing) {
    const issues = spec.validateParams(params);
    if (issues) return refuse(`invalid ${method} params`, { issues });
  }
  pushSend(out, params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params }, related);
}

function respond(state: SessionState, id: RequestId, result: JsonObject | undefined, error: { code: number; message: string; data?: unknown } | undefined, now: number, out: SessionOutput[]): void {
  const req = removeInbound(state, idKey(id));
  if (req === undefined) {
    // Cancelled by the peer (receivers SHOULD NOT respond then), already answered, or never received.
    out.push({ type: "diagnostic", code: "respond-unknown", message: "no request in progress with this id; answer not sent", detail: { id } });
    return;
  }
  // An error of null is no error (as a caller writing `error: null` for "none" means).
  if (error === null) error = undefined;
  if (req.mrtr !== undefined) return error === undefined ? answerInput(state, req.mrtr, req.method, result ?? {}, now, out) : failInput(state, req.mrtr, req.method, error, out);
  if (error !== undefined) {
    if (!Number.isInteger(error.code) || typeof error.message !== "string") {
      sendError(out, id, ErrorCode.InternalError, "the handler failed with a malformed error");
      out.push({ type: "diagnostic", code: "invalid-error", message: "the application's error needs an integer code and a string message", detail: { id } });
      return;
    }
    sendError(out, id, error.code, error.message, error.data);
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
    const issues = methodSpec(versionOf(state), req.method)?.validateResult?.(value);
    if (issues) {
      sendError(out, id, ErrorCode.InternalError, `the handler produced an invalid ${req.method} result`);
      out.push({ type: "diagnostic", code: "invalid-result", message: `the application's ${req.method} result does not match the schema; the peer got -32603`, detail: { id, issues } });
      return;
    }
  }
  sendResult(out, id, value);
}

function log(state: SessionState, level: LoggingLevel, logger: string | undefined, data: unknown, now: number, out: SessionOutput[], related?: RequestId, meta?: JsonObject): void {
  if (state.options.role !== "server") {
    out.push({ type: "diagnostic", code: "notification-refused", message: "only a server sends log messages" });
    return;
  }
  const params: JsonObject = { level, data };
  if (logger !== undefined) params.logger = logger;
  if (meta !== undefined) params._meta = meta;
  const req = related === undefined ? undefined : state.inbound[idKey(related)];
  if (req?.modern !== undefined && Object.hasOwn(state.inbound, idKey(related!))) {
    // draft server/utilities/logging: "Servers that emit log message notifications MUST
    // declare the `logging` capability" (the legacy path checks it in sendNotification).
    if (!hasCapability(state.options.capabilities, "logging")) {
      out.push({ type: "diagnostic", code: "notification-refused", message: "cannot send notifications/message: capability logging was not declared" });
      return;
    }
    return logForRequest(state, req, level, params, now, out);
  }
  if (!passesLevel(level, state.logLevel)) return;
  sendLog(state, params, now, out, related);
}

/**
 * Sends a legacy `notifications/message` within the session's budget (logging: "Servers
 * SHOULD: ... Rate limit log messages"). Checked before the gate and validation, so a flood
 * past the bound costs no validation; counted only when it went out, so one the gate
 * refused (wrong phase, no `logging` capability, bad params) spends none of it.
 */
function sendLog(state: SessionState, params: JsonObject | undefined, now: number, out: SessionOutput[], related?: RequestId): void {
  if (!logRoom(state, "outgoing", now, out)) return;
  const before = out.length;
  sendNotification(state, "notifications/message", params, out, related);
  if (out.length > before && out[out.length - 1].type === "send") countLog(state, "outgoing");
}

// ---------------------------------------------------------------------------------------
// Time

function startKeepAlive(state: SessionState, now: number): void {
  const every = state.options.keepAliveMs;
  if (every <= 0) return;
  state.keepAlive.dueAt = now + every;
  wakeNoLaterThan(state, state.keepAlive.dueAt);
}

/** Which limit ended `req` (or an input round): its own timeout, or the cap on every request's lifetime (which also ends one with no timeout, or one progress kept alive). */
function timeoutMessage(state: SessionState, req: Pick<OutboundRequest, "deadline" | "hardDeadline" | "timeoutMs">): string {
  if (req.deadline !== null && req.deadline === req.hardDeadline) return `request timed out: it reached maxRequestTimeoutMs (${state.options.maxRequestTimeoutMs} ms), the longest any request may wait`;
  return `request timed out after ${req.timeoutMs} ms`;
}

function tick(state: SessionState, now: number, out: SessionOutput[]): void {
  if (state.wakeAt === null || now < state.wakeAt) return;
  const o = state.options;
  for (const key of Object.keys(state.outbound)) {
    const req = state.outbound[key];
    // Gone already: an abandonment earlier in this loop forgot it (cancellation.ts).
    if (req === undefined || req.deadline === null || req.deadline > now) continue;
    if (req.internal === undefined) {
      const error = { code: ErrorCode.RequestTimeout, message: timeoutMessage(state, req) };
      // No notifications/cancelled for a task-augmented request: see abandonTaskRequest.
      if (req.task) abandonTaskRequest(state, key, req, now, error, out);
      // Cancelled as the application's cancel does; a crossing task answer is awaited until the hard deadline.
      else stopWaiting(state, key, req, "timeout", now, error, out, req.hardDeadline);
      continue;
    }
    removeOutbound(state, key);
    if (req.internal === "initialize") {
      // initialize MUST NOT be cancelled: no notification, the handshake simply failed.
      fail(state, "initialize timed out", out);
      return;
    }
    if (req.internal === "discover") {
      // stdio: "the probe ... times out, and the client falls back to initialize".
      startInitialize(state, now, out, "fallback", "timed out");
      continue;
    }
    if (req.internal === "abandoned-task") {
      out.push({ type: "diagnostic", code: "task-cancel-abandoned", message: "no task answer came for a request that was cancelled or timed out; its task, if any, ends with its ttl", detail: { id: req.id } });
      continue;
    }
    pushSend(out, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: req.id, reason: "timeout" } }, req.related);
    if (req.internal === "keepalive") {
      const missed = ++state.keepAlive.missed;
      out.push({ type: "stale", missed });
      // basic/utilities/ping: "Timeouts SHOULD be treated as connection failures".
      if (o.keepAliveMaxMissed > 0 && missed >= o.keepAliveMaxMissed) {
        fail(state, `the peer answered no keep-alive ping for ${missed * o.keepAliveMs} ms (${missed} in a row, ${o.keepAliveMs} ms each): the connection is treated as failed`, out);
        return;
      }
    }
  }
  for (const key of Object.keys(state.mrtr)) {
    const d = state.mrtr[key].deadline ?? null;
    if (d !== null && d <= now) timeOutInputRound(state, key, out);
  }
  for (const key in state.inbound) flushProgress(state.inbound[key], now, out);
  flushLogWindows(state, now, out);
  const ka = state.keepAlive;
  if (ka.dueAt !== null && ka.dueAt <= now && state.phase.name === "operating") {
    const id = state.nextId++;
    const req: OutboundRequest = { id, method: "ping", internal: "keepalive", deadline: now + o.keepAliveMs, hardDeadline: null, timeoutMs: o.keepAliveMs };
    addOutbound(state, req);
    out.push({ type: "send", message: { jsonrpc: "2.0", id, method: "ping" } });
    ka.dueAt = now + o.keepAliveMs;
  }
  recomputeWake(state);
}

// ---------------------------------------------------------------------------------------
// Messages the driver could not send

/**
 * A message the driver could not encode: application data in it has no JSON form (a
 * BigInt, a cycle, a `toJSON` that throws). Nothing reached the peer, so nothing is
 * waited for: a request we sent fails now with `-32603` (not after its timeout; the
 * peer never saw it, so no cancellation goes out), and a response still answers its
 * request, with `-32603` (basic/index: every request MUST get a response). A
 * notification is dropped and reported. The handshake's own requests carry the
 * application's info and capabilities: failing those ends the session.
 */
function unsendable(state: SessionState, message: JsonRpcMessage, reason: string, out: SessionOutput[]): void {
  const m = message as { id?: RequestId | null; method?: unknown };
  const detail = { reason };
  if (typeof m.method !== "string") {
    // Once closed, no stand-in answer goes out either (closed is final; the peer is gone).
    const closed = state.phase.name === "closed";
    if (m.id !== undefined && m.id !== null && !closed) sendError(out, m.id, ErrorCode.InternalError, UNENCODABLE_RESPONSE);
    out.push({ type: "diagnostic", code: "unsendable-response", message: closed ? "a response could not be encoded; the session is closed" : "a response could not be encoded; the peer got -32603", detail });
    return;
  }
  const req = m.id !== undefined && m.id !== null ? removeOutbound(state, idKey(m.id)) : undefined;
  if (req === undefined) {
    out.push({ type: "diagnostic", code: "unsendable-notification", message: `${m.method} could not be encoded and was not sent`, detail });
    return;
  }
  if (req.internal === "initialize" || req.internal === "discover") return fail(state, `${req.method} could not be encoded: ${reason}`, out);
  if (req.internal === undefined) {
    out.push({ type: "error", id: req.origin ?? req.id, method: req.method, error: { code: ErrorCode.InternalError, message: `Internal error: the ${req.method} request was not sent: ${reason}` } });
  }
}

// ---------------------------------------------------------------------------------------
// Closing

function closeSession(state: SessionState, reason: string, out: SessionOutput[], fatal: boolean): void {
  const phase = state.phase;
  if (phase.name === "closed") return;
  for (const key of Object.keys(state.outbound)) {
    const req = state.outbound[key];
    if (req.internal === undefined) out.push({ type: "error", id: req.origin ?? req.id, method: req.method, error: { code: ErrorCode.ConnectionClosed, message: `connection closed: ${reason}` } });
  }
  for (const key of Object.keys(state.mrtr)) {
    const entry = state.mrtr[key];
    out.push({ type: "error", id: entry.origin, method: entry.method, error: { code: ErrorCode.ConnectionClosed, message: `connection closed: ${reason}` } });
  }
  state.mrtr = {};
  // The input requests of those rounds too: their handlers are asking for a call that is over.
  for (const key of Object.keys(state.inbound)) out.push({ type: "cancelled", id: state.inbound[key].id, reason: `connection closed: ${reason}` });
  state.outbound = {};
  state.outboundCount = 0;
  state.abandonedCount = 0;
  state.inbound = {};
  state.inboundCount = 0;
  state.progressTokens = {};
  state.taskProgress = {};
  state.subscriptions = {};
  state.subscriptionCount = 0;
  state.keepAlive.dueAt = null;
  state.wakeAt = null;
  // No tick comes after the close: the drops of a second still open are reported now.
  closeLogWindows(state, out);
  const closed: Phase = { name: "closed", reason };
  const peer = peerOfPhase(phase);
  if (peer !== undefined) closed.peer = peer;
  if (phase.name === "operating" || phase.name === "awaiting-initialized" || phase.name === "modern") closed.version = phase.version;
  const event: LifecycleEvent = (phase.name === "initializing" || phase.name === "probing") && fatal ? "initialize-failed" : "close";
  moveTo(state, event, closed);
  if (fatal) out.push({ type: "close", reason });
}

/**
 * Whether a JSON-RPC batch is read now: once `2025-03-26` is negotiated, including before
 * `notifications/initialized`, which a batch may itself carry (2025-03-26 basic/index:
 * implementations "MUST support receiving JSON-RPC batches"; lifecycle forbids only the
 * initialize request in one). Refused in phase "new", which keeps `initialize` out. A
 * client that asked for `2025-03-26` reads one while it awaits the initialize result too:
 * the server's answer to that request MAY come batched (2025-03-26 transports: "These
 * responses MAY be batched"), and `versionOf` is the version it asked for.
 */
export function acceptsBatches(state: SessionState): boolean {
  const p = state.phase;
  if (p.name === "initializing") return state.options.role === "client" && allowsBatches(versionOf(state));
  return (p.name === "awaiting-initialized" || p.name === "operating") && allowsBatches(p.version);
}

/** The protocol version in force, once negotiated. */
export function negotiatedVersion(state: SessionState): ProtocolVersion | undefined {
  const p = state.phase;
  return p.name === "operating" || p.name === "awaiting-initialized" || p.name === "modern" || p.name === "closed" ? p.version : undefined;
}

