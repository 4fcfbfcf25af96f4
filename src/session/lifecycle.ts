/**
 * Lifecycle: the initialize handshake, as a transition table.
 *
 * Spec: 2025-11-25 `basic/lifecycle`. The client opens with `initialize`; the server
 * answers with the version it will speak (the requested one when it supports it, else its
 * latest) and its capabilities; the client, if it speaks that version, confirms with
 * `notifications/initialized`. Until then only pings (and, from the server, logging) may
 * flow. The table below is the whole machine: a (phase, event) pair that is not in it is a
 * protocol error. `closed` is final.
 *
 * What may be *sent* and *received* in each phase is data too ({@link INBOUND_GATE},
 * {@link OUTBOUND_GATE}), so tests can enumerate every pair.
 */
import type { Side } from "../model/methods.js";
import { isLegacyVersion, type LegacyVersion, type ProtocolVersion } from "../model/versions.js";
import type { Phase } from "./types.js";

/** Phase names. */
export type PhaseName = Phase["name"];

/** Lifecycle events: what moves a session from one phase to the next. */
export type LifecycleEvent =
  | "open" // client: initialize sent
  | "initialize" // server: a valid initialize received and answered
  | "initialize-result" // client: a result with a version we speak
  | "initialize-failed" // client: an error, or a version we do not speak
  | "initialized" // server: notifications/initialized received
  | "probe" // client: server/discover sent
  | "discovered" // client: the probe found a modern server
  | "fallback" // client: the probe found a legacy server; initialize sent
  | "close"; // transport closed, or a fatal error

/** The transition table: `TRANSITIONS[role][phase][event]` is the next phase. */
export const TRANSITIONS: Readonly<Record<Side, Readonly<Partial<Record<PhaseName, Readonly<Partial<Record<LifecycleEvent, PhaseName>>>>>>>> = {
  client: {
    new: { open: "initializing", probe: "probing", close: "closed" },
    probing: { discovered: "modern", probe: "probing", fallback: "initializing", "initialize-failed": "closed", close: "closed" },
    modern: { close: "closed" },
    // probe: a cached legacy verdict the server refuted (handshake.ts, receiveInitializeResponse).
    initializing: { "initialize-result": "operating", "initialize-failed": "closed", probe: "probing", close: "closed" },
    operating: { close: "closed" },
    closed: {},
  },
  server: {
    new: { initialize: "awaiting-initialized", close: "closed" },
    "awaiting-initialized": { initialized: "operating", close: "closed" },
    operating: { close: "closed" },
    closed: {},
  },
};

/** The phase `event` leads to from `phase`, or undefined when the pair is not in the table. */
export function nextPhase(role: Side, phase: PhaseName, event: LifecycleEvent): PhaseName | undefined {
  const row = TRANSITIONS[role][phase];
  return row && Object.hasOwn(row, event) ? row[event] : undefined;
}

/**
 * Which inbound messages a phase admits. `"*"` admits every method the negotiated version
 * defines; a list admits only those. Responses are admitted whenever a request of ours is
 * pending (checked elsewhere). Requests refused here get `-32600`; notifications are dropped.
 */
export const INBOUND_GATE: Readonly<Record<Side, Readonly<Record<PhaseName, { requests: "*" | readonly string[]; notifications: "*" | readonly string[] }>>>> = {
  server: {
    // Before initialize only initialize and ping make sense (lifecycle: "the initialization
    // phase MUST be the first interaction").
    new: { requests: ["initialize", "ping"], notifications: [] },
    // The server has answered; the client may now send requests (it SHOULD NOT before the
    // response, which it has) and must send notifications/initialized.
    "awaiting-initialized": { requests: "*", notifications: "*" },
    operating: { requests: "*", notifications: "*" },
    initializing: { requests: [], notifications: [] },
    probing: { requests: [], notifications: [] },
    modern: { requests: [], notifications: [] },
    closed: { requests: [], notifications: [] },
  },
  client: {
    new: { requests: ["ping"], notifications: [] },
    // The server SHOULD NOT send requests other than pings and logging before initialized.
    initializing: { requests: ["ping"], notifications: ["notifications/message", "notifications/progress", "notifications/cancelled"] },
    operating: { requests: "*", notifications: "*" },
    // MRTR replaced server-to-client requests: a modern server sends none. A client that
    // probes or is modern drops them unanswered (receive.ts, writesNoResponses).
    probing: { requests: [], notifications: [] },
    modern: { requests: [], notifications: "*" },
    "awaiting-initialized": { requests: [], notifications: [] },
    closed: { requests: [], notifications: [] },
  },
};

/** Which outbound requests and notifications a phase lets the application send. */
export const OUTBOUND_GATE: Readonly<Record<Side, Readonly<Record<PhaseName, { requests: "*" | readonly string[]; notifications: "*" | readonly string[] }>>>> = {
  client: {
    // "The initialization phase MUST be the first interaction between client and server":
    // nothing before `initialize` (or the modern probe) goes out. Then "the client SHOULD
    // NOT send requests other than pings before the server has responded".
    new: { requests: [], notifications: [] },
    initializing: { requests: ["ping"], notifications: ["notifications/cancelled"] },
    operating: { requests: "*", notifications: "*" },
    probing: { requests: [], notifications: [] },
    modern: { requests: "*", notifications: [] },
    "awaiting-initialized": { requests: [], notifications: [] },
    closed: { requests: [], notifications: [] },
  },
  server: {
    new: { requests: [], notifications: [] },
    // "The server SHOULD NOT send requests other than pings and logging before receiving
    // the initialized notification."
    "awaiting-initialized": { requests: ["ping"], notifications: ["notifications/message", "notifications/progress", "notifications/cancelled"] },
    operating: { requests: "*", notifications: "*" },
    initializing: { requests: [], notifications: [] },
    probing: { requests: [], notifications: [] },
    modern: { requests: [], notifications: [] },
    closed: { requests: [], notifications: [] },
  },
};

/** True when the gate admits `method`. */
export function gateAdmits(gate: "*" | readonly string[], method: string): boolean {
  return gate === "*" || gate.includes(method);
}

/**
 * Server-side version negotiation: the requested version when this server speaks it,
 * otherwise the server's latest legacy version. Undefined when the server speaks no
 * legacy version at all (a modern-only server).
 */
export function negotiateVersion(requested: unknown, supported: readonly ProtocolVersion[]): LegacyVersion | undefined {
  if (isLegacyVersion(requested) && supported.includes(requested)) return requested;
  for (const v of supported) if (isLegacyVersion(v)) return v;
  return undefined;
}

/** The legacy versions in `supported`, preference order kept. */
export function legacyVersionsOf(supported: readonly ProtocolVersion[]): LegacyVersion[] {
  return supported.filter(isLegacyVersion);
}
