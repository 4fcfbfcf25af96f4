/**
 * The handshake, both halves: how a session comes to be `operating` (legacy) or `modern`.
 *
 * Spec: 2025-11-25 `basic/lifecycle` (Initialization, Version Negotiation, Capability
 * Negotiation; the same page of 2025-06-18 and 2025-03-26), and for the client's probe
 * draft `server/discover` and `basic/versioning`.
 *
 * Theory of operation. The client's `open` starts it. A client that may meet a modern
 * server probes with `server/discover`, bounded by `discoverTimeoutMs`: a DiscoverResult,
 * or a recognized modern error, makes the session `modern` (retrying with a mutually
 * supported version after -32022, version-retry.ts); any other answer, or none in time,
 * falls back to `initialize`. The initialize result moves the client to `operating`, which
 * it confirms with `notifications/initialized`. The server's half answers `initialize` with
 * the negotiated version (lifecycle.ts) and waits in `awaiting-initialized` for that
 * notification. Either side starts its keep-alive once operating. The kernel's own
 * handshake messages are held to the schema like the application's, and what the state
 * keeps of the peer is a copy. A renewed HTTP session (the `renewed` input) is checked as
 * the first initialize result was. Each move goes through `moveTo` (phase.ts); a failure
 * ends a client's session (`fail`), while a server answers the bad `initialize` with an
 * error and stays `new`.
 */
import { jsonCopy } from "../jsonrpc/safe-json.js";
import { ErrorCode } from "../jsonrpc/errors.js";
import type { JsonObject, JsonRpcErrorResponse, JsonRpcRequest, JsonRpcResultResponse } from "../jsonrpc/types.js";
import { methodSpec, type Side } from "../model/methods.js";
import { MODERN_ERROR_CODES } from "../model/error-codes.js";
import { isModernVersion, LEGACY_VERSIONS, PROTOCOL_VERSIONS, type LegacyVersion, type ModernVersion, type ProtocolVersion } from "../model/versions.js";
import { MetaKey } from "../model/meta.js";
import { readCacheHints, withRequestMeta } from "../modern/request-meta.js";
import { validatorFor, type Issue } from "../schema/validate.js";
import { issuesText } from "../schema/json-type.js";
import { legacyVersionsOf, negotiateVersion } from "./lifecycle.js";
import { fail, moveTo } from "./phase.js";
import { internalRequest, removeInbound, sendError, sendErrorObject, sendResult } from "./requests.js";
import { invalidParamsError } from "../model/schema-errors.js";
import { copyOf, oversizedPeerIssues } from "./retained.js";
import { startKeepAlive } from "./timeouts.js";
import { idKey, type PeerInfo, type Phase, type SessionOutput, type SessionState } from "./types.js";
import { decideVersionRetry } from "./version-retry.js";

// ---------------------------------------------------------------------------------------
// Lifecycle: the client's half of the handshake

/** Client: starts the handshake (the `open` input), with a `server/discover` probe or `initialize`. */
export function open(state: SessionState, now: number, out: SessionOutput[]): void {
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

/**
 * Client: sends `initialize` and moves to `initializing`. `probed`: what the probe got, for a
 * modern-only client's failure (a transport error reads as "not modern" too); `unreached`:
 * the probe got no answer at all (its transport's own "connection closed").
 */
export function startInitialize(state: SessionState, now: number, out: SessionOutput[], event: "open" | "fallback", probed?: string, unreached = false): void {
  const o = state.options;
  const version = legacyVersionsOf(o.versions)[0];
  if (version === undefined) {
    const why = probed === undefined ? "" : ` (server/discover: ${probed})`;
    // A probe this side's transport could not carry says nothing of the server's era; any
    // answer does (not modern), and so does none in time (a legacy server may ignore it).
    const reason = unreached ? `the server could not be reached${why}` : `the server is not a modern server this client can talk to${why}, and this client speaks no legacy version`;
    fail(state, event === "open" ? "no legacy protocol version configured" : reason, out);
    return;
  }
  const params: JsonObject = { protocolVersion: version, capabilities: copyOf(o.capabilities), clientInfo: copyOf(o.info) };
  // The kernel's own request is held to the schema like the application's (sendRequest):
  // a clientInfo the server must refuse (an icon `src` without a scheme) ends the session here.
  const issues = o.validateOutgoing ? methodSpec(version, "initialize")!.validateParams(params) : null;
  if (issues) return fail(state, `invalid initialize params: ${issuesText(issues)}`, out);
  const id = internalRequest(state, now, "initialize", "initialize");
  const phase: Phase = { name: "initializing", requestKey: idKey(id) };
  // No probe went out only because the era was given in as legacy (cached): draft
  // basic/versioning has such a client re-probe "if the cached assumption later fails".
  if (event === "open" && o.era === "legacy" && o.versions.some(isModernVersion)) phase.cached = true;
  moveTo(state, event, phase);
  out.push({ type: "send", message: { jsonrpc: "2.0", id, method: "initialize", params } });
}

/**
 * What the schema finds wrong with `info` as the `Implementation` a `role` sends
 * (`clientInfo` / `serverInfo`, the same type for both), paths relative to `info`; null
 * when valid. The newest of `versions` decides (initialize params or result; 2026-07-28: a
 * request's or `server/discover` result's `_meta`), so the rule is the schema's own and
 * the newest one this side speaks (older schemas, open objects, only know fewer fields).
 * For the API constructors, which refuse a bad identity up front.
 *
 * Checked as the type itself, not inside a message built around it: each of those
 * messages holds it as a plain member, so the issues are the same, and a constructor
 * neither builds that version's method table nor decodes the rest of the message's
 * schema (a third of a server's start-up validation work, when its clients speak an
 * older version).
 */
export function implementationIssues(_role: Side, info: unknown, versions: readonly unknown[] = LEGACY_VERSIONS): Issue[] | null {
  if (typeof info !== "object" || info === null || Array.isArray(info)) return [{ path: "", reason: "must be an object" }];
  const version = PROTOCOL_VERSIONS.find((v) => versions.includes(v)) ?? LEGACY_VERSIONS[0];
  return validatorFor(version, "Implementation")!(info);
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
  if (issues) return fail(state, `invalid server/discover params: ${issuesText(issues)}`, out);
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
export function receiveDiscoverResponse(state: SessionState, msg: JsonRpcResultResponse | JsonRpcErrorResponse, now: number, out: SessionOutput[], deadline: number | null, fromPeer: boolean): void {
  const o = state.options;
  const phase = state.phase as Extract<Phase, { name: "probing" }>;
  if ("error" in msg) {
    // This side's -32000 is a transport that got no answer at all (the POST failed): the
    // server was not reached. Its other errors (an HTTP 400, a malformed body) are answers.
    const unreached = !fromPeer && msg.error.code === ErrorCode.ConnectionClosed;
    if (!fromPeer || !MODERN_ERROR_CODES.includes(msg.error.code)) return startInitialize(state, now, out, "fallback", `${msg.error.code} ${msg.error.message}`, unreached);
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
  const peer = discoveredPeer(result);
  const kept = keptPeer(state, peer, out);
  if (kept === undefined) return;
  moveTo(state, "discovered", { name: "modern", version, peer: kept });
  out.push({ type: "initialized", version, peer });
}

/** The server as a (valid) `DiscoverResult` declares it. */
function discoveredPeer(result: JsonObject): PeerInfo {
  const meta = result._meta as JsonObject | undefined;
  const info = (meta?.[MetaKey.serverInfo] as PeerInfo["info"] | undefined) ?? { name: "unknown", version: "unknown" };
  const peer: PeerInfo = { info, capabilities: result.capabilities as JsonObject };
  if (typeof result.instructions === "string") peer.instructions = result.instructions;
  return peer;
}

/**
 * Client, 2026-07-28: the application asked `server/discover` again, and the (valid)
 * answer is what the server declares now: it replaces what the session kept, so requests
 * are checked against today's capabilities (draft caching: a `DiscoverResult` with
 * `ttlMs` 0 is stale at once; a server may declare more once it registered more). An
 * answer without this session's version changes nothing: the server will refuse what it
 * no longer speaks.
 */
export function rediscovered(state: SessionState, result: JsonObject, out: SessionOutput[]): void {
  const phase = state.phase;
  if (phase.name !== "modern" || state.options.role !== "client") return;
  if (!(result.supportedVersions as unknown[]).includes(phase.version)) return;
  const peer = discoveredPeer(result);
  const kept = keptPeer(state, peer, out);
  if (kept === undefined) return;
  phase.peer = kept;
  out.push({ type: "rediscovered", peer });
}

/**
 * Client: the initialize result moves the session to `operating` (confirmed with
 * `notifications/initialized`); an error, or a version this client does not speak, ends
 * it. A recognized modern error refutes a cached legacy verdict: the client probes instead.
 */
export function receiveInitializeResponse(state: SessionState, msg: JsonRpcResultResponse | JsonRpcErrorResponse, now: number, out: SessionOutput[], fromPeer: boolean): void {
  if ("error" in msg) {
    const phase = state.phase as Extract<Phase, { name: "initializing" }>;
    // draft basic/versioning: the era MAY be persisted, "re-probing if the cached assumption
    // later fails"; a recognized modern error (-32022 to initialize, say) identifies a modern
    // server, which the probe then negotiates with. Once only: the initialize of a fallback
    // is not cached, so a server that refuses both cannot make the client loop.
    const modern = state.options.versions.find(isModernVersion);
    if (phase.cached === true && fromPeer && MODERN_ERROR_CODES.includes(msg.error.code) && modern !== undefined) return probe(state, modern, now, out);
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
    fail(state, `invalid ${what}: ${issuesText(issues)}`, out);
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

/**
 * Client: the transport's new session (see the `renewed` input). Its result is checked as
 * the first one was; one that is invalid, or of another version, ends the session (the
 * requests of the old version cannot go on under it). Refused outside a legacy client
 * session that is operating: only those have an HTTP session to renew.
 */
export function renewed(state: SessionState, result: JsonObject, out: SessionOutput[]): void {
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
  // The requests the old session's server sent us (an elicitation, a sampling request) died
  // with it: answered now, the answer would go to the new session, which never asked it
  // and numbers its own requests afresh, so it would be taken as the answer to another
  // question of the same id (and that one refused meanwhile as a duplicate id). Their
  // handlers are told, as on a cancellation. (An MRTR input request is local: none here.)
  for (const key of Object.keys(state.inbound)) {
    const req = state.inbound[key];
    if (req.mrtr !== undefined) continue;
    removeInbound(state, key);
    out.push({ type: "cancelled", id: req.id, reason: "the session it came on expired" });
  }
  out.push({ type: "renewed", peer: server.peer });
}

// ---------------------------------------------------------------------------------------
// Lifecycle: the server's half

/** Server: answers `initialize` with the negotiated version and moves to `awaiting-initialized`; a refused one gets an error and the session stays `new`. */
export function receiveInitialize(state: SessionState, msg: JsonRpcRequest, out: SessionOutput[]): void {
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
    sendErrorObject(out, msg.id, invalidParamsError("initialize", issues));
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

/** Server: `notifications/initialized` moves the session to `operating`. */
export function receiveInitialized(state: SessionState, now: number, out: SessionOutput[]): void {
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
