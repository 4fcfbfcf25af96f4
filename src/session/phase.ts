/**
 * The session's phase: what it tells, the one way to move it, and the move to `closed`.
 *
 * Spec: 2025-11-25 `basic/lifecycle` (Operation, Shutdown), and `basic/index` for the few
 * checks on a message that receiving and sending share.
 *
 * Theory of operation. `state.phase` is a discriminated union (types.ts): only a phase
 * past the handshake holds a version and a peer, and the helpers here read them
 * (`versionOf`, `peerOfPhase`, `negotiatedVersion`, `acceptsBatches`). A phase changes only
 * through `moveTo`, which checks the move against the table in lifecycle.ts and throws on a
 * pair not in it (a bug, which `step` turns into a fatal close). `closeSession` is the move
 * to `closed`, which is final: every request still awaited fails with -32000, every
 * request being handled is cancelled, the tables empty and no timer stays armed. `fail` is
 * its fatal kind, which also asks the driver to close the transport. Every other module of
 * the reducer (session.ts, handshake.ts, receive.ts, send.ts, mrtr.ts) sits above this one.
 */
import { ErrorCode } from "../jsonrpc/errors.js";
import type { JsonObject } from "../jsonrpc/types.js";
import { declaredMethodSpec, methodSpec, type MethodSpec, type Side } from "../model/methods.js";
import { allowsBatches, type ProtocolVersion } from "../model/versions.js";
import { taskMetadataOf } from "../tasks/capabilities.js";
import { legacyVersionsOf, nextPhase, type LifecycleEvent } from "./lifecycle.js";
import { closeLogWindows } from "./logging.js";
import type { PeerInfo, Phase, SessionOutput, SessionState } from "./types.js";

// ---------------------------------------------------------------------------------------
// Helpers over the phase

/** The other side. */
export const peerOf = (role: Side): Side => (role === "client" ? "server" : "client");

/** The version messages are checked against: the negotiated one, or before that our preferred legacy version. */
export function versionOf(state: SessionState): ProtocolVersion {
  return settled(state.phase)?.version ?? legacyVersionsOf(state.options.versions)[0] ?? "2025-11-25";
}

/**
 * Server: the capabilities `server/discover` and modern requests see, which are what the
 * application declares now: each modern request stands alone (draft basic/index), while a
 * legacy session on the same connection keeps what its handshake declared
 * (`options.capabilities`, 2025-11-25 basic/lifecycle).
 */
export function modernCapabilities(state: SessionState): JsonObject {
  return state.declaredNow ?? state.options.capabilities;
}

/** The peer the handshake (or discovery) described, once there is one. */
export function peerOfPhase(phase: Phase): PeerInfo | undefined {
  return settled(phase)?.peer;
}

/** `phase` when it holds what the handshake or discovery settled, the version and the peer (a closed one: what it had); else undefined. */
function settled(phase: Phase): Extract<Phase, { name: "operating" | "awaiting-initialized" | "modern" | "closed" }> | undefined {
  return phase.name === "operating" || phase.name === "awaiting-initialized" || phase.name === "modern" || phase.name === "closed" ? phase : undefined;
}

/** The one way the phase changes: `event` must lead from the current phase to `phase` in lifecycle.ts's table, else it throws (a bug). */
export function moveTo(state: SessionState, event: LifecycleEvent, phase: Phase): void {
  const expected = nextPhase(state.options.role, state.phase.name, event);
  if (expected !== phase.name) throw new Error(`lifecycle: ${state.phase.name} --${event}--> ${phase.name} is not in the table`);
  state.phase = phase;
}

/** JSON-RPC params, when present, are an object in MCP (never an array, null or a scalar). */
export function isParamsObject(params: unknown): params is JsonObject | undefined {
  return params === undefined || (typeof params === "object" && params !== null && !Array.isArray(params));
}

/** The spec of `method` in `version`: the protocol's, else one the session's options declare (`extensionMethods`). */
export function specOf(state: SessionState, version: ProtocolVersion, method: string): MethodSpec | undefined {
  return methodSpec(version, method) ?? declaredSpecOf(state, method);
}

/** The spec of `method` when the session's options declare it (`extensionMethods`), else undefined. */
export function declaredSpecOf(state: SessionState, method: string): MethodSpec | undefined {
  const declared = state.options.extensionMethods;
  return declared !== undefined && Object.hasOwn(declared, method) ? declaredMethodSpec(method, declared[method]) : undefined;
}

/** Whether `side` sends the method (`spec.from`). */
export function sentBy(spec: MethodSpec, side: Side): boolean {
  return spec.from === side || spec.from === "both";
}

/**
 * A 2025-11-25 task-augmented request (`basic/utilities/tasks`): `params.task` on a method
 * that may carry it. Such a request is cancelled with `tasks/cancel`, never with
 * `notifications/cancelled` (`basic/utilities/cancellation`). The extension of the modern
 * era has no such field: there the server decides, and the caller checks the era.
 */
export function isTaskAugmented(spec: MethodSpec, params: JsonObject | undefined): boolean {
  return spec.taskAugmentable && taskMetadataOf(params) !== undefined;
}

// ---------------------------------------------------------------------------------------
// Closing

/** A fatal protocol error: close the session and ask the driver to close the transport. */
export function fail(state: SessionState, reason: string, out: SessionOutput[]): void {
  closeSession(state, reason, out, true);
}

/** Moves to `closed`, which is final, settling everything in flight; `fatal` also asks the driver to close the transport. A no-op once closed. */
export function closeSession(state: SessionState, reason: string, out: SessionOutput[], fatal: boolean): void {
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
  delete state.taskProgressOrder;
  state.subscriptions = {};
  state.subscriptionCount = 0;
  state.keepAlive.dueAt = null;
  state.wakeAt = null;
  // No tick comes after the close: the drops of a second still open are reported now.
  closeLogWindows(state, out);
  const closed: Phase = { name: "closed", reason };
  const peer = peerOfPhase(phase);
  if (peer !== undefined) closed.peer = peer;
  const version = settled(phase)?.version;
  if (version !== undefined) closed.version = version;
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
  return settled(state.phase)?.version;
}
