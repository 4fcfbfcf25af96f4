/**
 * The legacy-era session: one reducer for both roles, and its single entry point.
 *
 * Spec: 2025-11-25 `basic/lifecycle`, `basic/utilities/{cancellation,ping,progress}`,
 * `server/utilities/logging`, `client/{elicitation,sampling,roots}` (and the same pages of
 * 2025-06-18 and 2025-03-26, which the method tables encode per version).
 *
 * Theory of operation. `step(state, input)` is the only entry point. It routes the input
 * to the module that owns the concept (lifecycle, requests, cancellation, progress,
 * timeouts, logging, capabilities) and collects what they emit into one output array.
 * Checks run in a fixed order for every inbound request (receive.ts): duplicate id,
 * lifecycle gate, method known in the negotiated version and sent in this direction,
 * capability declared, params valid, limits; the first that fails answers the peer with
 * the spec's error and the application never sees the request. Outbound requests pass the
 * mirror-image checks (send.ts) and a failure is an `error` output for that request, never
 * a throw. After a fatal error the phase is `closed`, which is final.
 *
 * The role is data (`options.role`): client and server share every line except the two
 * halves of the handshake.
 *
 * This file holds the entry point (`createSession`, `step`, `dispatch`) and the inputs that
 * reach across concepts (`declare`, `tick`, `unsendable`). The rest of the reducer:
 * phase.ts (the phase, moving it, closing), handshake.ts (both halves of the handshake,
 * with the client's `server/discover` probe), receive.ts (every inbound message, and
 * `respond`), send.ts (outbound requests, notifications and log messages), mrtr.ts (the
 * client's input rounds) and url-elicitations.ts.
 */
import { UNENCODABLE_RESPONSE } from "../jsonrpc/codec.js";
import { jsonCopy } from "../jsonrpc/safe-json.js";
import { ErrorCode, thrownMessage } from "../jsonrpc/errors.js";
import type { JsonObject, JsonRpcMessage, RequestId } from "../jsonrpc/types.js";
import { LEGACY_VERSIONS } from "../model/versions.js";
import { declaredMethodProblem, type DeclaredMethod, type DeclaredMethods } from "../model/methods.js";
import { applyChange, changeOf, endSubscription, endSubscriptions } from "../modern/server.js";
import { abandonTaskRequest, cancelOutbound, stopWaiting } from "./cancellation.js";
import { open, renewed, startInitialize } from "./handshake.js";
import { flushLogWindows } from "./logging.js";
import { dropInputRound, timeOutInputRound } from "./mrtr.js";
import { closeSession, fail, isParamsObject } from "./phase.js";
import { flushProgress, sendProgress } from "./progress.js";
import { receive, respond } from "./receive.js";
import { addOutbound, pushSend, removeOutbound, sendError } from "./requests.js";
import { copyOf } from "./retained.js";
import { log, notifyLog, relatedProblem, sendNotification, sendRequest } from "./send.js";
import { sendTaskProgress } from "./task-progress.js";
import { isClockReading, pingMissed, recomputeWake, timeoutMessage } from "./timeouts.js";
import { idKey, isIdLike, type OutboundRequest, type ResolvedOptions, type SessionInput, type SessionOptions, type SessionOutput, type SessionState, type StepResult } from "./types.js";

export { implementationIssues } from "./handshake.js";
export { acceptsBatches, negotiatedVersion } from "./phase.js";

/**
 * Fills in defaults. The objects are copies: the application editing its options object
 * after `createSession` must not change the session (README: the state changes only
 * through `step`). A malformed value falls back to its default, as a task table's do, so
 * it is never misread: `keepAliveMs: "30000"` made every deadline a string (a ping each
 * millisecond), `requestTimeoutMs: NaN` timed every request out at once. (McpServer and
 * McpClient refuse such options with a TypeError naming them: `checkSessionOptions`.)
 */
export function resolveOptions(options: SessionOptions): ResolvedOptions {
  // The kernel never throws across its boundary (README), and a plain JavaScript caller may
  // pass anything: no options (`createSession(undefined)` threw a TypeError) are all defaults,
  // and options whose getter (or Proxy trap) throws are read one by one, an unreadable one
  // left to its default, rather than throwing out of `createSession`.
  if (typeof options !== "object" || options === null) return resolveFrom({} as SessionOptions);
  try {
    return resolveFrom(options);
  } catch {
    return resolveFrom(readableOptions(options));
  }
}

/** Every option's name, so that {@link readableOptions} reads them all (a missing one is a compile error). */
const OPTION_NAMES: Readonly<Record<keyof SessionOptions, true>> = {
  role: true, info: true, capabilities: true, versions: true, era: true, instructions: true, extensionMethods: true,
  requestTimeoutMs: true, discoverTimeoutMs: true, maxRequestTimeoutMs: true, resetTimeoutOnProgress: true,
  keepAliveMs: true, keepAliveMaxMissed: true, progressIntervalMs: true, maxInboundRequests: true,
  maxOutboundRequests: true, maxMessageBytes: true, maxDepth: true, validateOutgoing: true, cacheTtlMs: true,
  cacheScope: true, maxSubscriptions: true, maxInputRounds: true, maxProgressPerSecond: true,
  maxLogMessagesPerSecond: true, maxCompletionsPerSecond: true,
};

/** The options that can be read, each on its own; one whose read throws is left out. */
function readableOptions(options: object): SessionOptions {
  const read: Record<string, unknown> = {};
  for (const name in OPTION_NAMES) {
    try {
      const v = (options as Record<string, unknown>)[name];
      if (v !== undefined) read[name] = v;
    } catch {
      // Left out: its default applies.
    }
  }
  return read as unknown as SessionOptions;
}

function resolveFrom(o: SessionOptions): ResolvedOptions {
  const resolved: ResolvedOptions = {
    role: o.role,
    info: copyOf(o.info),
    capabilities: copyOf(o.capabilities),
    versions: o.versions === undefined ? [...LEGACY_VERSIONS] : copyOf(o.versions),
    requestTimeoutMs: msOr(o.requestTimeoutMs, 60_000),
    discoverTimeoutMs: msOr(o.discoverTimeoutMs, 10_000),
    maxRequestTimeoutMs: msOr(o.maxRequestTimeoutMs, 600_000),
    resetTimeoutOnProgress: flagOr(o.resetTimeoutOnProgress, true),
    keepAliveMs: msOr(o.keepAliveMs, 0),
    keepAliveMaxMissed: countOr(o.keepAliveMaxMissed, o.role === "client" ? 1 : 0),
    progressIntervalMs: msOr(o.progressIntervalMs, 0),
    maxInboundRequests: countOr(o.maxInboundRequests, 1024),
    maxOutboundRequests: countOr(o.maxOutboundRequests, 1024),
    maxMessageBytes: countOr(o.maxMessageBytes, 4 * 1024 * 1024),
    maxDepth: countOr(o.maxDepth, 64),
    validateOutgoing: flagOr(o.validateOutgoing, true),
    cacheTtlMs: countOr(o.cacheTtlMs, 0),
    cacheScope: o.cacheScope === "public" ? "public" : "private",
    maxSubscriptions: countOr(o.maxSubscriptions, 64),
    maxInputRounds: countOr(o.maxInputRounds, 8),
    maxProgressPerSecond: countOr(o.maxProgressPerSecond, 100),
    maxLogMessagesPerSecond: countOr(o.maxLogMessagesPerSecond, 100),
    maxCompletionsPerSecond: countOr(o.maxCompletionsPerSecond, 30),
  };
  if (o.era !== undefined) resolved.era = o.era;
  if (o.instructions !== undefined) resolved.instructions = o.instructions;
  const declared = declaredMethodsOf(o.extensionMethods);
  if (declared !== undefined) resolved.extensionMethods = declared;
  return resolved;
}

/**
 * Declarations already read, by the object they were given in (an HTTP server makes a
 * session per modern request), with what that object held when read: method, declaration,
 * kind, from, extension, five slots an entry. Reused only while it holds the same, so that
 * a session depends on the options it is given, not on which sessions came before it: an
 * object edited between two sessions is read anew, as a transcript's header would be.
 */
const declarationsRead = new WeakMap<object, { held: unknown[]; read: DeclaredMethods | undefined }>();

/** What `methods` holds, as `declarationsRead` keeps it. */
function heldBy(methods: object): unknown[] {
  const held: unknown[] = [];
  for (const [method, d] of Object.entries(methods)) {
    const { kind, from, extension } = (typeof d === "object" && d !== null ? d : {}) as { kind?: unknown; from?: unknown; extension?: unknown };
    held.push(method, d, kind, from, extension);
  }
  return held;
}

/**
 * Whether `methods` still holds what `held` recorded ({@link heldBy}), compared in place: a
 * stateless HTTP server asks once per modern request, so the check builds nothing.
 */
function stillHolds(methods: Record<string, unknown>, held: readonly unknown[]): boolean {
  let i = 0;
  for (const method in methods) {
    if (!Object.hasOwn(methods, method)) continue;
    if (i >= held.length || held[i] !== method) return false;
    const d = methods[method];
    if (held[i + 1] !== d) return false;
    if (typeof d === "object" && d !== null) {
      const { kind, from, extension } = d as { kind?: unknown; from?: unknown; extension?: unknown };
      if (held[i + 2] !== kind || held[i + 3] !== from || held[i + 4] !== extension) return false;
    }
    i += 5;
  }
  return i === held.length;
}

/**
 * A frozen copy of the well-formed declarations of `methods` (undefined for none): one that
 * could be read two ways is left out, never misread. Frozen, so sessions share it safely.
 */
function declaredMethodsOf(methods: unknown): DeclaredMethods | undefined {
  if (typeof methods !== "object" || methods === null) return undefined;
  try {
    return readDeclarations(methods);
  } catch {
    // A declaration whose getter (or Proxy trap) throws: none is read rather than one misread.
    return undefined;
  }
}

function readDeclarations(methods: object): DeclaredMethods | undefined {
  const cached = declarationsRead.get(methods);
  if (cached !== undefined && stillHolds(methods as Record<string, unknown>, cached.held)) return cached.read;
  // No prototype: a method named like one of Object's (`constructor`, `__proto__`) is a name like any other.
  const kept: Record<string, DeclaredMethod> = Object.create(null);
  let any = false;
  for (const [method, d] of Object.entries(methods)) {
    if (declaredMethodProblem(method, d) !== null) continue;
    const { kind, from, extension } = d as DeclaredMethod;
    kept[method] = Object.freeze(extension === undefined ? { kind, from } : { kind, from, extension });
    any = true;
  }
  const read = any ? Object.freeze(kept) : undefined;
  declarationsRead.set(methods, { held: heldBy(methods), read });
  return read;
}

/** A time option: a finite number of ms >= 0, else `fallback`. */
function msOr(v: unknown, fallback: number): number {
  return typeof v === "number" && v >= 0 && v !== Infinity ? v : fallback;
}

/** A count option: a non-negative safe integer, else `fallback`. */
function countOr(v: unknown, fallback: number): number {
  return Number.isSafeInteger(v) && (v as number) >= 0 ? (v as number) : fallback;
}

function flagOr(v: unknown, fallback: boolean): boolean {
  return typeof v === "boolean" ? v : fallback;
}

/** A new session in phase `new`. */
export function createSession(options: SessionOptions): SessionState {
  const resolved = resolveOptions(options);
  return {
    options: resolved,
    phase: { name: "new" },
    // A server's requests are numbered from 1: SDK 1.x clients ignore a notifications/cancelled
    // whose requestId is 0 (a falsy check), so the first sampling or elicitation of a session
    // could not be cancelled to them. (Id 0 is valid JSON-RPC; a client's first request is its
    // initialize or server/discover, which is never cancelled.)
    nextId: resolved.role === "server" ? 1 : 0,
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
  // No session at all (undefined, a number, a string from a botched restore): nothing to step
  // or to close, but still an answer rather than a TypeError out of the kernel.
  if (typeof state !== "object" || state === null) {
    out.push({ type: "close", reason: "internal error: the state is not a session (an object createSession made)" });
    return { state, outputs: out };
  }
  try {
    // A state restored from a snapshot that lacks a counter (every one createSession made has
    // them) put NaN into the state from then on: ids "nNaN", limits never reached.
    if (!Number.isSafeInteger(state.nextId) || !Number.isSafeInteger(state.outboundCount) || !Number.isSafeInteger(state.inboundCount) || !Number.isSafeInteger(state.subscriptionCount)) {
      const broken = mendCounters(state);
      if (broken !== null) {
        fail(state, broken, out);
        return { state, outputs: out };
      }
    }
    dispatch(state, input, out);
  } catch (e) {
    // A bug, not a protocol event: make it fatal and visible rather than corrupting state.
    const reason = `internal error: ${thrownMessage(e)}`;
    try {
      fail(state, reason, out);
    } catch {
      // The state itself is unusable (options no createSession would make): closed, still without a throw.
      try {
        state.phase = { name: "closed", reason };
      } catch {
        // Not even that can be written (a frozen state): the close is said all the same.
      }
      out.push({ type: "close", reason });
    }
  }
  return { state, outputs: out };
}

/**
 * Mends, in place, a state whose counters are missing or no integers (a snapshot saved
 * without them, or mangled), as restoreTasks mends a snapshot's records: each count is its
 * table's size, which is what it counts. A missing `nextId` is the role's first id while
 * no request can have gone out (phase `new`) or none can go out any more (`closed`); in
 * between, the ids the session used are unknown and reusing one would break basic/index
 * ("MUST NOT have been previously used by the requestor within the same session"), so the
 * reason to close the session is returned instead.
 */
function mendCounters(state: SessionState): string | null {
  if (!Number.isSafeInteger(state.outboundCount)) state.outboundCount = Object.keys(state.outbound).length;
  if (!Number.isSafeInteger(state.inboundCount)) state.inboundCount = Object.keys(state.inbound).length;
  if (!Number.isSafeInteger(state.subscriptionCount)) state.subscriptionCount = Object.keys(state.subscriptions).length;
  if (Number.isSafeInteger(state.nextId)) return null;
  const phase = state.phase.name;
  if (phase !== "new" && phase !== "closed") return "internal error: the state has no nextId (a snapshot without its request counter): the request ids this session used are unknown";
  state.nextId = state.options.role === "server" ? 1 : 0;
  return null;
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
  // Past 2^53 a timeout added to it changes nothing (every request would time out at once).
  if (!isClockReading(input.now)) return "now must be a finite number within ±(2^53−1)";
  switch (input.type) {
    case "respond":
    case "cancel":
    case "end-subscription":
      // A request id is a string or a number: a symbol, or an object with no string form, made the table lookup throw and closed the session.
      return isIdLike(input.id) ? null : "id must be a request id (a string or a finite number)";
    case "progress":
    case "task-progress":
      if (input.type === "progress" && !isIdLike(input.id)) return "id must be a request id (a string or a finite number)";
      if (!finite(input.progress) || (input.total !== undefined && !finite(input.total)) || (input.message !== undefined && typeof input.message !== "string")) {
        return "progress and total must be finite numbers, message a string";
      }
      return null;
    case "notify":
      // A method that is no string (a symbol) threw when put into the refusal's text and closed the session.
      return typeof input.method !== "string" ? "method must be a string" : relatedProblem(input.related);
    case "log":
      return input.data === undefined ? "a log message needs data" : relatedProblem(input.related);
    case "changed":
      if (!CHANGES.includes(input.what)) return `changed needs what: one of ${CHANGES.join(", ")}`;
      // A resource's uri is matched against each subscription (a missing one threw there and
      // closed every session subscribed to a resource); a task's view goes out as the params
      // of notifications/tasks (a string went out spread into an object).
      if (input.what === "resource" && typeof input.uri !== "string") return "a changed resource needs its uri (a string)";
      if (input.what === "task" && (typeof input.taskId !== "string" || input.task === undefined || !isParamsObject(input.task))) {
        return "a changed task needs its taskId (a string) and task (an object)";
      }
      return null;
    case "unsendable": {
      const m = input.message;
      if (m === null || typeof m !== "object") return "unsendable needs the message";
      // Read here, where a getter (or Proxy trap) that throws refuses the input, not in unsendable, where it closed the session.
      const { id, method } = m as { id?: unknown; method?: unknown };
      // A request's id is looked up in the table of requests sent: one that is no request id (a symbol) threw there.
      return typeof method === "string" && id !== undefined && id !== null && !isIdLike(id) ? "unsendable needs the message (a JSON-RPC message)" : null;
    }
    case "declare":
      return input.capabilities !== undefined && isParamsObject(input.capabilities) ? null : "declare needs capabilities (an object)";
    case "renewed":
      return input.result !== undefined && isParamsObject(input.result) ? null : "renewed needs the InitializeResult (an object)";
  }
  return null;
}

/** An input's `type` for a refusal's detail, or undefined when it cannot be read. */
export function inputType(input: unknown): unknown {
  try {
    return (input as { type?: unknown } | null)?.type;
  } catch {
    return undefined;
  }
}

/** A finite number (a module function: a closure in {@link malformedInput} was made for every input). */
function finite(v: unknown): boolean {
  return typeof v === "number" && Number.isFinite(v);
}

/**
 * A `cancel` or `closed` input's reason as the text it must be, or undefined for none. It
 * goes out as the `reason` of `notifications/cancelled` (a string in the schema: a peer
 * drops a notification with any other, and goes on with the request) and into error
 * messages and the closed phase, which a snapshot holds as JSON. An adapter handing on an
 * AbortSignal's reason (a DOMException), an Error or a WebSocket's close reason (a Buffer)
 * means its text; refusing the input instead would leave the request or the session open.
 */
function reasonText(reason: unknown): string | undefined {
  if (reason === undefined || reason === null) return undefined;
  return typeof reason === "string" ? reason : thrownMessage(reason);
}

/** The `what` of a `changed` input. */
const CHANGES: readonly unknown[] = ["tools", "prompts", "resources", "resource", "task"];

function dispatch(state: SessionState, input: SessionInput, out: SessionOutput[]): void {
  let problem: string | null;
  try {
    problem = malformedInput(input);
  } catch (e) {
    // An input whose getter (or Proxy trap) throws is the application's to fix, not a reason
    // to close the session with an internal error (the kernel never throws, nor dies of it).
    problem = `the input could not be read: ${thrownMessage(e)}`;
  }
  if (problem !== null) {
    out.push({ type: "diagnostic", code: "input-refused", message: problem, detail: { type: inputType(input) } });
    return;
  }
  const now = input.now;
  switch (input.type) {
    case "open":
      return open(state, now, out);
    case "receive":
      return receive(state, input, out);
    case "request": {
      const next = state.nextId;
      try {
        return sendRequest(state, input, out);
      } catch (e) {
        // Params whose getter (or Proxy trap) throws: refused as params with no JSON form are
        // (nothing was recorded before the throw: sendRequest reads all it needs first), not
        // a session closed. A request that can be read threw for a bug: that stays fatal.
        if (jsonCopy(input) !== undefined) throw e;
        const id = state.nextId !== next ? next : state.nextId++;
        out.push({ type: "error", id, method: typeof input.method === "string" ? input.method : "", error: { code: ErrorCode.InvalidParams, message: `the request could not be read: ${thrownMessage(e)}` } });
        return;
      }
    }
    case "notify":
      // A log message sent as a plain notification is a `log` input: the same level filters, the same budget.
      if (input.method === "notifications/message") return notifyLog(state, input.params, now, out, input.related);
      return sendNotification(state, input.method, input.params, out, input.related);
    case "respond":
      return respond(state, input.id, input.result, input.error, now, out);
    case "cancel": {
      const given = reasonText(input.reason);
      const reason = given ?? "request cancelled";
      const waiting = dropInputRound(state, idKey(input.id), reason, out);
      if (waiting === undefined) return cancelOutbound(state, input.id, given, now, out);
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
      // A driver of the application's own may hand on what JSON.stringify threw (an Error) as
      // the reason: its text, as a cancel's reason is read (a symbol threw when put in the
      // error's message and closed the session; an Error went out in the diagnostic as an object).
      return unsendable(state, input.message, reasonText(input.reason) ?? "the message has no JSON form", out);
    case "closed":
      return closeSession(state, reasonText(input.reason) ?? "transport closed", out, false);
    default:
      out.push({ type: "diagnostic", code: "unknown-input", message: "input of unknown type ignored", detail: { type: (input as { type?: unknown }).type } });
  }
}

/**
 * New capabilities from the application. Before a legacy handshake they are what this side
 * declares: in `server/discover` and each modern request's checks (draft `basic/index`:
 * every modern request stands alone, so it sees the capabilities of now) and in the
 * `initialize` still to come. A legacy handshake fixed what its session declared
 * (2025-11-25 `basic/lifecycle`: capabilities are negotiated at initialization), so it keeps
 * them, and a closed session has none to change. A server's modern requests on the same
 * connection (a dual-era stdio process, draft `basic/versioning`) still see the new ones
 * (`declaredNow`, read through `modernCapabilities`).
 */
function declare(state: SessionState, capabilities: JsonObject, out: SessionOutput[]): void {
  const phase = state.phase.name;
  const legacySession = phase === "awaiting-initialized" || phase === "operating";
  if (phase !== "new" && phase !== "probing" && phase !== "modern" && !(legacySession && state.options.role === "server")) {
    out.push({ type: "diagnostic", code: "declare-refused", message: `capabilities are fixed for this session (${phase}): a legacy handshake declared them`, detail: { phase } });
    return;
  }
  // A copy: McpServer gives every connection the same object, and the application may edit it later.
  const copy = jsonCopy(capabilities);
  if (copy === undefined) {
    out.push({ type: "diagnostic", code: "declare-refused", message: "the capabilities have no JSON form", detail: { phase } });
    return;
  }
  if (legacySession) state.declaredNow = copy;
  else state.options.capabilities = copy;
}

// ---------------------------------------------------------------------------------------
// Time

/** The `tick` input: what is due by `now` fires (request deadlines, input rounds, coalesced progress, log windows, the keep-alive ping), then the next wake time is computed (timeouts.ts). */
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
    if (req.internal === "keepalive" && pingMissed(state, out)) return;
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
  // A keep-alive ping the transport could not carry is one missed, as its local -32000 is
  // (receive.ts): removed here, it never timed out either, so a transport failing every send
  // never tripped keepAliveMaxMissed.
  if (req.internal === "keepalive") {
    pingMissed(state, out);
    return;
  }
  if (req.internal === undefined) {
    out.push({ type: "error", id: req.origin ?? req.id, method: req.method, error: { code: ErrorCode.InternalError, message: `Internal error: the ${req.method} request was not sent: ${reason}` } });
  }
}
