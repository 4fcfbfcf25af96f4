/**
 * The driver: runs a session reducer with a real clock and hands its outputs to a
 * transport and to the application.
 *
 * Theory of operation (aioquic's "drain the outputs, arm the one timer, feed the
 * inputs"). Every public method turns a call into one kernel input stamped with
 * `clock.now()`, runs `step`, and drains the outputs: `send` goes to the transport,
 * responses settle the promise of the request they answer, `request` events go to the
 * application's handler, whose answer (or failure) is fed back as a `respond` input.
 * After each step the single timer is re-armed for `nextDeadline`. There is no protocol
 * logic here; if some appears, it belongs in the kernel. (A handler's thrown error is
 * turned into a JSON-RPC error here, so the rule of which codes a server may send is
 * applied here too, from the pure `model/error-codes.ts`.)
 */
import { echoed, ErrorCode, thrownMessage, type JsonRpcErrorObject } from "../jsonrpc/errors.js";
import type { JsonObject, JsonRpcMessage, OutgoingParams, RequestId } from "../jsonrpc/types.js";
import { createSession, negotiatedVersion, step } from "../session/session.js";
import { nextDeadline } from "../session/timeouts.js";
import { modernCapabilities } from "../session/phase.js";
import { isModernVersion } from "../model/versions.js";
import type { Implementation, LoggingLevel, PeerInfo, SessionInput, SessionOptions, SessionOutput, SessionState } from "../session/types.js";
import { idKey, tableKey } from "../session/types.js";
import { copyOf } from "../session/retained.js";
import { recordedSession, recordedStep, transcriptInput } from "../session/transcript.js";
import { UNENCODABLE_RESPONSE } from "../jsonrpc/codec.js";
import { MetaKey } from "../model/meta.js";
import { answerableError } from "../model/error-codes.js";
import { systemClock, type Clock } from "./clock.js";
import { ChurnMap } from "./churn-map.js";
import { callListener, isThenable, report, type Callback } from "./listener.js";

/** An error from the peer or the kernel, as a JavaScript Error carrying the JSON-RPC error. */
export class McpError extends Error {
  /** The JSON-RPC error code (e.g. `-32602`; `ErrorCode` names them). */
  readonly code: number;
  /** The error's `data`, if it had any. */
  readonly data: unknown;
  /**
   * True when the peer sent this error in its response; false when this side raised it (a
   * timeout, a closed connection, a POST that failed, an answer that failed its checks, the
   * application's own). Draft `basic/index`: implementations surfacing local errors in
   * JSON-RPC shape "should ensure they cannot be mistaken for errors received from the peer".
   */
  readonly fromPeer: boolean;
  /** `error` is the JSON-RPC error object; its `message` becomes this error's. */
  constructor(error: JsonRpcErrorObject, options?: { fromPeer?: boolean }) {
    super(error.message);
    this.name = "McpError";
    this.code = error.code;
    this.data = error.data;
    this.fromPeer = options?.fromPeer === true;
  }
}

/**
 * Whether `e` is the peer's own error answer ({@link McpError.fromPeer}): the request was
 * taken and refused. Anything else (a timeout, a cancellation, the connection) leaves open
 * whether the peer took it, or says it never answered.
 */
export function refusedByPeer(e: unknown): e is McpError {
  return e instanceof McpError && e.fromPeer;
}

/**
 * The refusal of a request sent for a 2026-07-28 request already answered: its era has no
 * server-to-client requests, so such a request could reach no one.
 */
export function answeredModernRequest(method: string): McpError {
  return new McpError({ code: ErrorCode.InvalidRequest, message: `"${method}" cannot be sent: a 2026-07-28 server sends no requests, and the request this was for is answered` });
}

/** What a request handler gets besides the params. */
export interface RequestContext {
  id: RequestId;
  method: string;
  /** Aborted when the peer cancels the request or the connection closes. */
  signal: AbortSignal;
  /** Reports progress, if the peer asked for it (otherwise a no-op). */
  progress(progress: number, total?: number, message?: string): void;
  /**
   * Reports progress under `token` after this request was answered: a 2025-11-25 task's
   * token outlives the request that created it. The caller vouches the task is not terminal.
   * `meta` is the notification's `_meta` (the task's related-task key).
   */
  progressFor?(token: string | number, progress: number, total?: number, message?: string, meta?: JsonObject): void;
  /** Sends a request to the peer on behalf of this one (e.g. sampling while a tool runs). */
  request(method: string, params?: OutgoingParams, options?: RequestOptions): Promise<JsonObject>;
  /** Sends a notification tied to this request. */
  notify(method: string, params?: OutgoingParams): void;
  /** Reports a diagnostic about this request to the connection's `onEvent`, as the kernel's own go (the layer above the kernel's: a refused `requestState`). */
  diagnose?(code: string, message: string, detail?: unknown): void;
  /** Server: logs a message tied to this request; `meta` is the notification's `_meta` (a task's related-task key). */
  log(level: LoggingLevel, data: unknown, logger?: string, meta?: JsonObject): void;
  /**
   * The HTTP request that carried this request, over HTTP (the POST of Streamable HTTP or
   * of HTTP+SSE), until it is answered (its headers; behind `protectedResource`,
   * `authInfo(ctx.httpRequest)` is the token it came with, scopes and all). Undefined on
   * other transports.
   */
  readonly httpRequest?: Request | undefined;
  /**
   * The protocol version this request is read under (the negotiated one in the legacy era),
   * when known. `| undefined` here and on `peer`: the context always has the property, set to
   * undefined when unknown, which a consumer with `exactOptionalPropertyTypes` must be told.
   */
  protocolVersion?: string | undefined;
  /**
   * What the peer declared about itself, when known: in a legacy session its handshake; a
   * modern request's own `_meta` (draft `basic/index`, Statelessness: nothing is taken
   * from earlier requests), whose `clientInfo` is optional, hence `info` may be absent.
   */
  peer?: RequestPeer | undefined;
  /**
   * What this side declared to the peer: the capabilities of the session's handshake, or,
   * for a modern request, those of this endpoint (its `server/discover` answer).
   */
  declared?: JsonObject;
  /**
   * Set in the context a task's work runs in: the task it runs for. Its `id` and `method`
   * are still those of the request that created the task.
   */
  taskId?: string | undefined;
}

/** Who sent a request: {@link PeerInfo}, whose `info` a modern request may leave out. */
export type RequestPeer = Omit<PeerInfo, "info"> & { info?: Implementation };

/** Handles a request from the peer: resolve with the result, or throw (an {@link McpError} keeps its code). */
export type RequestHandler = (method: string, params: JsonObject | undefined, ctx: RequestContext) => Promise<JsonObject> | JsonObject;

/** Options of one outgoing request. */
export interface RequestOptions {
  /**
   * This request's timeout in ms, in place of the session's `requestTimeoutMs`; 0: none
   * (the session's `maxRequestTimeoutMs` still caps it). At the deadline the request fails
   * with `-32001` and is cancelled at the peer, as an abort cancels it.
   */
  timeoutMs?: number | undefined;
  /** The peer's request this one is issued on behalf of (for per-request streams). */
  related?: RequestId | undefined;
  /** Aborting it cancels the request: it fails with `-32800`, and the peer is told (`notifications/cancelled`; over HTTP in 2026-07-28, its stream closed). */
  signal?: AbortSignal | undefined;
  /** Called with each `notifications/progress` for this request (asking for progress gives it a progress token). */
  onProgress?: ((p: { progress: number; total?: number; message?: string }) => void) | undefined;
  /**
   * 2026-07-28 client: the lowest level of `notifications/message` the server may send for
   * this request (its `io.modelcontextprotocol/logLevel`); without it the server MUST NOT
   * send any (draft `server/utilities/logging`). Ignored in a legacy session, whose level
   * `logging/setLevel` sets.
   */
  logLevel?: LoggingLevel | undefined;
}

/** Callbacks an endpoint is wired to. */
export interface EndpointHooks {
  /**
   * Writes a message to the peer. `related` is the peer's request the message belongs to
   * (the kernel's `send` output field), so a transport with one stream per request
   * (Streamable HTTP) can route it there.
   */
  send(message: JsonRpcMessage, related?: RequestId): void;
  /**
   * Writes the answers to a 2025-03-26 JSON-RPC batch as one array, once every request in
   * it is answered or cancelled (JSON-RPC 2.0 §6: "The Server should respond with an Array
   * containing the corresponding Response objects, after all of the batch Request objects
   * have been processed"); a batch that owes no answer (notifications, responses) gets
   * nothing. Without this hook they go one by one through `send` (a Streamable HTTP server
   * gathers a JSON answer's itself, and its SSE stream "MAY" batch them).
   */
  sendBatch?: ((messages: JsonRpcMessage[]) => void) | undefined;
  /** Serves the peer's requests (default: every request is method-not-found). */
  onRequest?: RequestHandler | undefined;
  /** Notifications from the peer. */
  onNotification?: Callback<(method: string, params: JsonObject | undefined) => void> | undefined;
  /** Diagnostics, stale connections and lifecycle events. */
  onEvent?: Callback<(event: SessionOutput) => void> | undefined;
  /** The kernel asked for the transport to close (a fatal protocol error). */
  onClose?: Callback<(reason: string) => void> | undefined;
  /**
   * Where an error thrown by a request's `onProgress` goes, and a hook's (`onNotification`,
   * `onEvent`, `onClose`) when no caller is there to throw it to (a timer's tick, the step
   * that sends the answer of a handler whose promise settled, {@link Endpoint.closed}) or its
   * promise rejects; without it, it is rethrown on a fresh microtask. A hook's error
   * otherwise leaves the call that fed the step (`receive`…) once the step is done. Either
   * way the endpoint goes on with the rest of its outputs: the response that came in the
   * same chunk is still delivered.
   */
  onError?: Callback<(error: unknown) => void> | undefined;
  /**
   * Records the session as a kernel transcript (`mcp-kernel/1`, the text `recordingSession`
   * writes, which `replay` and `mcp-kernel replay FILE` verify step for step): called with
   * the header line as the endpoint is made, then with one line (no newline) per kernel
   * step, in the order the steps ran. Join them with `"\n"`. While recording, the kernel is
   * fed each input as the transcript holds it (its JSON text, parsed back), as
   * `recordingSession` does, so a replay sees what the live run saw; an input with no JSON
   * form is refused with an `input-refused` diagnostic (a request of ours fails with
   * `-32603`, a handler's answer becomes a `-32603` answer). Only for a new session: an
   * endpoint restored from a snapshot throws, as its transcript would have no start. What it
   * throws is a hook's error (see `onError`).
   */
  record?: Callback<(line: string) => void> | undefined;
}

interface Pending {
  resolve(result: JsonObject): void;
  reject(error: Error): void;
  onProgress?: RequestOptions["onProgress"];
  cleanup?: () => void;
}

/**
 * A request being handled, and the context its handler gets. One object per request, its
 * methods on the prototype: a context of closures would be eight allocations a request,
 * a measurable share of a server's time. Its `AbortController` is made only when the
 * handler reads `signal`, which most never do.
 */
class Served implements RequestContext {
  aborted = false;
  /** Answered (see {@link Served.answered}). */
  private done = false;
  private controller: AbortController | undefined;
  private reason: unknown;

  constructor(
    private readonly endpoint: Endpoint,
    readonly id: RequestId,
    readonly method: string,
    readonly protocolVersion: string | undefined,
    /** The session's own record of the peer (see {@link Served.peer}). */
    private readonly declaredPeer: RequestPeer | undefined,
    /** What the transport said carried the request ({@link Endpoint.receive}); let go once answered. */
    private carrier: (() => Request) | undefined,
  ) {}

  /** The copy {@link Served.peer} hands out, made when first read. */
  private copiedPeer: RequestPeer | undefined = undefined;

  /**
   * A copy of what the session keeps of the peer (its handshake's info and capabilities, a
   * modern request's capabilities), made when first read: a handler editing `ctx.client`
   * changed the session's state, which checks the requests this side sends against it and
   * which a snapshot holds (README: the state shares no object with the application).
   */
  get peer(): RequestPeer | undefined {
    if (this.copiedPeer === undefined && this.declaredPeer !== undefined) this.copiedPeer = copyOf(this.declaredPeer);
    return this.copiedPeer;
  }

  get httpRequest(): Request | undefined {
    return this.carrier?.();
  }

  get declared(): JsonObject {
    // A modern request sees what the server declares now, a legacy session what its handshake did.
    const state = this.endpoint.state;
    return isModernVersion(this.protocolVersion) ? modernCapabilities(state) : state.options.capabilities;
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /**
   * Answered: nothing can abort the request any more, so the controller, its signal and
   * their listeners are let go (a task's run keeps its creating request's context for as
   * long as the task lives; what listened for that request's cancellation would live on
   * with it). A handler that kept the signal keeps it, never aborted. And the id is the
   * peer's again: it may reuse it for a new request once it has the response (basic/index
   * forbids only ids "not yet received a response for"), so what this context sends from
   * now on names no request (progress: none at all, there being no operation in progress
   * for its token), or it would speak for that new one: its progress token, its log level,
   * its HTTP stream. The HTTP request that carried it goes too (a context kept on, as a
   * task runtime keeps one per session, would keep that request's body).
   */
  answered(): void {
    this.controller = undefined;
    this.carrier = undefined;
    this.done = true;
  }

  /** The request what this context sends belongs to: this one, until it is answered. */
  private get related(): RequestId | undefined {
    return this.done ? undefined : this.id;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
  }

  progress(progress: number, total?: number, message?: string): void {
    if (!this.aborted && !this.done) this.endpoint.feed({ type: "progress", now: this.endpoint.now(), id: this.id, progress, total, message });
  }

  progressFor(token: string | number, progress: number, total?: number, message?: string, meta?: JsonObject): void {
    this.endpoint.feed({ type: "task-progress", now: this.endpoint.now(), token, progress, total, message, meta });
  }

  /**
   * A 2026-07-28 request's context, once the request is answered (a task's work runs on):
   * what it sends would name no request, and go out as a legacy session's on a connection
   * that has one (a dual-era stdio process, draft `basic/versioning`). Its era has no such
   * messages (a server sends no requests; `notifications/message` is request-scoped), so
   * they go nowhere.
   */
  private get modernAndAnswered(): boolean {
    return this.done && isModernVersion(this.protocolVersion);
  }

  request(method: string, params?: OutgoingParams, options: RequestOptions = {}): Promise<JsonObject> {
    if (this.modernAndAnswered) return Promise.reject(answeredModernRequest(method));
    return this.endpoint.request(method, params, Object.assign({}, options, { related: this.related }));
  }

  notify(method: string, params?: OutgoingParams): void {
    if (this.modernAndAnswered) return this.endpoint.report("notification-refused", `${method} not sent: the 2026-07-28 request it was for is answered`, { id: this.id });
    this.endpoint.notify(method, params, this.related);
  }

  /** Reports a diagnostic about this request (the application layer's, such as a refused `requestState`) to the connection's `onEvent`, as the kernel's own go. */
  diagnose(code: string, message: string, detail?: unknown): void {
    this.endpoint.report(code, message, detail);
  }

  log(level: LoggingLevel, data: unknown, logger?: string, meta?: JsonObject): void {
    if (this.modernAndAnswered) return this.endpoint.report("notification-refused", "notifications/message not sent: the 2026-07-28 request it was for is answered", { id: this.id });
    this.endpoint.log(level, data, logger, this.related, meta);
  }

  /** Settles with the handler's result. Cancelled: receivers SHOULD NOT respond. */
  succeed(result: JsonObject): void {
    if (!this.aborted && !this.done) this.endpoint.answered(this, result, undefined);
  }

  /** Settles with what the handler threw. */
  failWith(e: unknown): void {
    this.fail(toRpcError(e));
  }

  fail(error: JsonRpcErrorObject): void {
    if (this.aborted || this.done) return;
    // A server's error is held to what the era and the client allow (model/error-codes.ts).
    const server = this.endpoint.state.options.role === "server";
    this.endpoint.answered(this, undefined, server ? answerableError(error, this.protocolVersion, this.declaredPeer?.capabilities) : error);
  }
}

/** The answers to a 2025-03-26 batch, held until all are in (see {@link EndpointHooks.sendBatch}). */
interface HeldBatch {
  held: JsonRpcMessage[];
  /** Requests of it still being answered. */
  waiting: number;
  /** Its step is still being handled: responses may yet come. */
  reading: boolean;
}

/** A session reducer driven by a real (or manual) clock. */
export class Endpoint {
  /** The session the endpoint drives: plain JSON, changed only by its steps (a snapshot of it can be passed to a new Endpoint to continue). */
  readonly state: SessionState;
  private readonly pending = new ChurnMap<RequestId, Pending>();
  /** `onProgress` of requests answered with a task: its progress goes on until the kernel says it ended. */
  private readonly taskProgress = new Map<string, NonNullable<RequestOptions["onProgress"]>>();
  private readonly handling = new ChurnMap<RequestId, Served>();
  /** While {@link Endpoint.receive} feeds a message: the HTTP request that carried it. */
  private carrier: (() => Request) | undefined = undefined;
  private timer: unknown = undefined;
  /** The first error a hook threw during the step being fed, which {@link Endpoint.feed} throws once the step is done. */
  private hookFailure: { error: unknown } | undefined = undefined;
  /** How many {@link Endpoint.feed} calls are under way (a handler answering at once feeds within the step that served it). */
  private feeding = 0;
  /** {@link Endpoint.hookFailed}, bound once: {@link Endpoint.listen} runs for every output. */
  private readonly onHookThrow = (error: unknown): void => this.hookFailed(error);
  private timerAt: number | null = null;
  /** @internal The clock's reading the last {@link Endpoint.request} went out under (for a caller timing it from there, without a reading of its own). */
  requestedAt = 0;
  /** The timer was armed holding the process (see {@link Endpoint.arm}). */
  private timerHolds = false;
  private ready: { resolve(v: { version: string; peer: PeerInfo }): void; reject(e: Error): void } | undefined;
  /** With `sendBatch`: the batches whose answers are held, by the key of each request of theirs still being answered (how many: a batch may repeat an id). */
  private batchWaiting: Map<string, { batch: HeldBatch; n: number }> | undefined = undefined;
  /** With {@link EndpointHooks.record}: writes a transcript line through it, a throw being a hook's error. Undefined otherwise, and a step costs nothing more. */
  private readonly write: ((line: string) => void) | undefined = undefined;

  constructor(
    options: SessionOptions | SessionState,
    private readonly hooks: EndpointHooks,
    private readonly clock: Clock = systemClock,
  ) {
    // A restored snapshot continues where it left off: its deadlines (requests, keep-alive) are
    // armed now, as the original's timer was, not only once something is fed.
    const record = hooks.record;
    if (record === undefined) this.state = "phase" in options ? options : createSession(options);
    else {
      // A transcript replays from a fresh session made from its header's options: a snapshot's has no start.
      if ("phase" in options) throw new TypeError("record: an endpoint restored from a snapshot cannot record (a transcript replays from a new session's options)");
      const { state, header } = recordedSession(options);
      this.state = state;
      this.write = (line) => this.listen(record, line, undefined);
      this.write(header);
    }
    this.arm();
  }

  /** Client: runs the handshake; resolves with the negotiated version and the server's info. */
  open(): Promise<{ version: string; peer: PeerInfo }> {
    return new Promise((resolve, reject) => {
      // A transport can close before open() is called (Deno and Bun report a command that
      // cannot be started at spawn, synchronously): the session would ignore the open.
      const phase = this.state.phase;
      if (phase.name === "closed") return reject(new McpError({ code: ErrorCode.ConnectionClosed, message: phase.reason }));
      // The kernel ignores a second open: its promise would never settle.
      if (this.ready !== undefined || phase.name !== "new") return reject(new McpError({ code: ErrorCode.InvalidRequest, message: "already opened: an endpoint runs the handshake once" }));
      // A server's handshake is the client's to start: the kernel ignores the open there too.
      if (this.state.options.role === "server") return reject(new McpError({ code: ErrorCode.InvalidRequest, message: "open() runs a client's handshake: a server endpoint serves the client's initialize (or 2026-07-28 requests) as they come" }));
      this.ready = { resolve, reject };
      this.feed({ type: "open", now: this.clock.now() });
    });
  }

  /**
   * Feeds a message that arrived (text, or a parsed JSON value). `local`: this side's
   * transport wrote it in the peer's place (an error for a request it could not carry), so
   * the request fails with an error whose `fromPeer` is false. `carrier`: the HTTP request
   * that carried it, made on demand, which the requests it holds show as
   * {@link RequestContext.httpRequest}.
   */
  receive(data: string | unknown, local?: boolean, carrier?: () => Request): void {
    const now = this.clock.now();
    const input: Extract<SessionInput, { type: "receive" }> = typeof data === "string" ? { type: "receive", now, data } : { type: "receive", now, value: data };
    if (local === true) input.local = true;
    if (carrier === undefined) return this.feed(input);
    // The kernel serves what it takes within this feed, so the requests served meanwhile are the message's.
    const outer = this.carrier;
    this.carrier = carrier;
    try {
      this.feed(input);
    } finally {
      this.carrier = outer;
    }
  }

  /** Sends a request; resolves with its result, rejects with an {@link McpError}. The kernel checks `params` against the method's schema. */
  request(method: string, params?: OutgoingParams, options: RequestOptions = {}): Promise<JsonObject> {
    return new Promise((resolve, reject) => {
      // The caller's reason is the rejection's message whether the abort came before or after sending.
      if (options.signal?.aborted) return reject(new McpError({ code: ErrorCode.RequestCancelled, message: abortReason(options.signal) }));
      const id = this.state.nextId;
      const p: Pending = { resolve, reject, onProgress: options.onProgress };
      this.pending.set(id, p);
      if (options.signal) {
        const signal = options.signal;
        // No caller to throw to (a throw from an abort listener is an uncaught exception): a hook's error goes to onError.
        const abort = () => this.feedUncaught({ type: "cancel", now: this.clock.now(), id, reason: abortReason(signal) });
        signal.addEventListener("abort", abort, { once: true });
        p.cleanup = () => signal.removeEventListener("abort", abort);
      }
      const now = (this.requestedAt = this.clock.now());
      this.feed({ type: "request", now, method, params: params as JsonObject | undefined, timeoutMs: options.timeoutMs, progress: options.onProgress !== undefined, related: options.related, logLevel: options.logLevel });
    });
  }

  /** Sends a notification. */
  notify(method: string, params?: OutgoingParams, related?: RequestId): void {
    this.feed({ type: "notify", now: this.clock.now(), method, params: params as JsonObject | undefined, related });
  }

  /** Server: emits a log message (filtered by the client's level); `meta` is its `_meta`. */
  log(level: LoggingLevel, data: unknown, logger?: string, related?: RequestId, meta?: JsonObject): void {
    this.feed({ type: "log", now: this.clock.now(), level, data, logger, related, meta });
  }

  /** A diagnostic of the layer above the kernel, to the hooks' `onEvent` as the kernel's own diagnostics go. */
  report(code: string, message: string, detail?: unknown): void {
    const d: SessionOutput = { type: "diagnostic", code, message };
    if (detail !== undefined) d.detail = detail;
    // As the kernel's own diagnostics go: an async onEvent's rejection was unhandled, never onError's.
    this.listen(this.hooks.onEvent, d, undefined);
  }

  /** The driver could not encode `message`, one the kernel gave it to send (see the `unsendable` input). */
  unsendable(message: JsonRpcMessage, reason: string): void {
    this.feed({ type: "unsendable", now: this.clock.now(), message, reason });
  }

  /** Client: the transport started a new session; `result` is the server's new `InitializeResult` (see the `renewed` input). */
  renewed(result: JsonObject): void {
    this.feed({ type: "renewed", now: this.clock.now(), result });
  }

  /**
   * The transport closed. A hook's error (an `onEvent` failing on a request's `cancelled`)
   * is not thrown from here: a transport calls this as it ends a connection (a DELETE, an
   * idle timeout, a socket's close event), and a throw would cut its cleanup short (streams
   * left open, `onClose` never called) or end the process. It goes to `onError`.
   */
  closed(reason = "transport closed"): void {
    try {
      this.feedUncaught({ type: "closed", now: this.clock.now(), reason });
    } finally {
      // A transport that closes during the handshake must not leave open() pending forever.
      this.ready?.reject(new McpError({ code: ErrorCode.ConnectionClosed, message: reason }));
      this.ready = undefined;
      // No task's progress can arrive any more: let go of the callers' callbacks (and what they hold).
      this.taskProgress.clear();
      this.disarm();
    }
  }

  /** Feeds any kernel input (for adapters that need the full vocabulary). */
  feed(input: SessionInput): void {
    // A hook that throws is thrown from here once every output of the step is handled (see
    // listen); a hook that feeds again (a notify from onNotification) keeps its own.
    const outer = this.hookFailure;
    this.hookFailure = undefined;
    let failure: { error: unknown } | undefined;
    this.feeding++;
    try {
      const outputs = this.write === undefined ? step(this.state, input).outputs : this.recordedStep(input, this.write);
      // A 2025-03-26 batch read in this step (its `batch` output): the responses after it answer it.
      let batch: HeldBatch | undefined;
      for (const o of outputs) {
        if (batch !== undefined) {
          if (o.type === "send" && !("method" in o.message)) {
            batch.held.push(o.message);
            continue;
          }
          // Before it is served: a handler that answers at once does so within this loop.
          if (o.type === "request") this.awaitBatch(batch, o.id);
        } else if (o.type === "batch" && this.hooks.sendBatch !== undefined) {
          batch = { held: [], waiting: 0, reading: true };
          continue;
        }
        this.handle(o);
      }
      if (batch !== undefined) {
        batch.reading = false;
        this.flushBatch(batch);
      }
      this.arm();
    } finally {
      this.feeding--;
      failure = this.hookFailure as { error: unknown } | undefined; // (set by hooks meanwhile: not the undefined above)
      this.hookFailure = outer;
    }
    if (failure !== undefined) throw failure.error;
  }

  /**
   * A step while recording: the kernel takes `input` as the transcript holds it. One with no
   * JSON form is refused (`input-refused`), unrecorded, as `recordingSession` refuses it;
   * where the plain kernel would have gone on to answer something (an `unsendable` message,
   * see session.ts), the same answer is given here: a handler's answer becomes the `-32603`
   * answer the peer would have got, fed and recorded instead, and a request of ours fails
   * with `-32603` at once (the kernel never saw it: its id stays free), rather than waiting
   * for ever.
   */
  private recordedStep(input: SessionInput, write: (line: string) => void): SessionOutput[] {
    const held = transcriptInput(input);
    if (held.ok) return recordedStep(this.state, held.input, write);
    const refusal = held.refusal;
    // The type as the refusal read it: an input whose getters throw (an adapter's, through feed) must not throw here.
    const type = (refusal.detail as { type?: unknown }).type;
    try {
      if (type === "respond") {
        const { now, id } = input as Extract<SessionInput, { type: "respond" }>;
        const stand = transcriptInput({ type: "respond", now, id, error: { code: ErrorCode.InternalError, message: UNENCODABLE_RESPONSE } });
        if (stand.ok) return [refusal, ...recordedStep(this.state, stand.input, write)];
      } else if (type === "request" && this.pending.has(this.state.nextId)) {
        const method = String((input as Extract<SessionInput, { type: "request" }>).method);
        return [refusal, { type: "error", id: this.state.nextId, method, error: { code: ErrorCode.InternalError, message: `Internal error: the ${method} request was not sent: ${refusal.message}` } }];
      }
    } catch {
      // Its id or time unreadable: refused alone, as recordingSession refuses it.
    }
    return [refusal];
  }

  /** {@link Endpoint.feed} where no caller can take a hook's error (see {@link Endpoint.hookFailed}). */
  private feedUncaught(input: SessionInput): void {
    try {
      this.feed(input);
    } catch (e) {
      this.hookFailed(e);
    }
  }

  private handle(o: SessionOutput): void {
    switch (o.type) {
      case "send":
        return this.send(o.message, o.related);
      case "response":
      case "error": {
        const p = this.pending.get(o.id);
        if (p === undefined) break;
        this.pending.delete(o.id);
        p.cleanup?.();
        if (o.type === "response") p.resolve(o.result);
        else p.reject(new McpError(o.error, { fromPeer: o.fromPeer === true }));
        return;
      }
      case "progress": {
        const onProgress = this.pending.get(o.id)?.onProgress ?? this.taskProgress.get(idKey(o.id));
        if (onProgress !== undefined) callListener(onProgress, { progress: o.progress, total: o.total, message: o.message }, undefined, this.hooks.onError);
        return;
      }
      case "progress-kept": {
        const onProgress = this.pending.get(o.id)?.onProgress;
        if (onProgress !== undefined) this.taskProgress.set(idKey(o.id), onProgress);
        break;
      }
      case "progress-ended":
        this.taskProgress.delete(idKey(o.id));
        break;
      case "batch":
        // For a driver that answers a batch with one array (sendBatch); the others answer each response as it comes.
        return;
      case "request":
        this.serve(o.id, o.method, o.params);
        return;
      case "cancelled":
        this.handling.get(o.id)?.abort(o.reason ?? "cancelled");
        this.handling.delete(o.id);
        // It gets no response: its batch no longer waits for one.
        if (this.batchWaiting !== undefined) this.batchAnswered(o.id);
        break;
      case "notification":
        this.listen(this.hooks.onNotification, o.method, o.params);
        return;
      case "initialized":
        this.ready?.resolve({ version: o.version, peer: o.peer });
        this.ready = undefined;
        break;
      case "close":
        // Nothing more goes out: a batch's answers held until now are dropped with the connection.
        this.batchWaiting = undefined;
        this.ready?.reject(new McpError({ code: ErrorCode.ConnectionClosed, message: o.reason }));
        this.ready = undefined;
        this.taskProgress.clear();
        this.disarm();
        this.listen(this.hooks.onClose, o.reason, undefined);
        break;
    }
    this.listen(this.hooks.onEvent, o, undefined);
  }

  /**
   * Hands a message to the `send` hook. One that throws (a transport already closed, a
   * `JSON.stringify` meeting a BigInt) is a hook's error like any other: it must not cut the
   * step short, where the `error` after a timeout's or an abort's `notifications/cancelled`
   * was never handled and that request never settled. A request of ours that did not go out
   * fails now, as one that could not be encoded does (`unsendable`), not at its timeout: its
   * caller got the thrown error while the request waited in the tables, holding a slot of
   * `maxOutboundRequests`, and one with no timeout waited for ever.
   */
  private send(message: JsonRpcMessage, related: RequestId | undefined): void {
    if (this.batchWaiting !== undefined && !("method" in message) && message.id !== null && this.batchAnswered(message.id, message)) return;
    try {
      this.hooks.send(message, related);
    } catch (e) {
      this.hookFailed(e);
      // Only a request: a response's stand-in answer would go through the same failing hook.
      if ("method" in message && "id" in message) this.feedUncaught({ type: "unsendable", now: this.clock.now(), message, reason: `send threw: ${thrownMessage(e)}` });
    }
  }

  /** A request of `batch` is being answered: its response is held with the batch's. */
  private awaitBatch(batch: HeldBatch, id: RequestId): void {
    const key = idKey(id);
    const waiting = (this.batchWaiting ??= new Map());
    const entry = waiting.get(key);
    if (entry !== undefined) entry.n++;
    else waiting.set(key, { batch, n: 1 });
    batch.waiting++;
  }

  /**
   * Request `id` of a held batch is answered (`response`, held with the others) or cancelled
   * (none); the batch goes out once none is left. False when no held batch waits for `id`.
   */
  private batchAnswered(id: RequestId, response?: JsonRpcMessage): boolean {
    const key = idKey(id);
    const entry = this.batchWaiting!.get(key);
    if (entry === undefined) return false;
    if (--entry.n === 0) this.batchWaiting!.delete(key);
    if (this.batchWaiting!.size === 0) this.batchWaiting = undefined;
    const batch = entry.batch;
    if (response !== undefined) batch.held.push(response);
    batch.waiting--;
    this.flushBatch(batch);
    return true;
  }

  /** Writes `batch`'s answers as one array once it is read and no request of it is still being answered. */
  private flushBatch(batch: HeldBatch): void {
    if (batch.reading || batch.waiting > 0 || batch.held.length === 0) return;
    const messages = batch.held;
    batch.held = [];
    try {
      this.hooks.sendBatch!(messages);
    } catch (e) {
      this.hookFailed(e);
    }
  }

  /**
   * Calls an application hook so that a throw cannot abort the outputs of the step (listener.ts):
   * a listener failing on a `stale` event left the rest undone, the `close` after it among
   * them, so the kernel was closed while the transport stayed open and every request it had
   * failed waited forever. The first error is kept, and {@link Endpoint.feed} throws it once
   * the step is done: its caller still learns of it (the HTTP handler answers that POST 500).
   */
  private listen<A, B>(fn: ((a: A, b: B) => void) | undefined, a: A, b: B): void {
    if (fn !== undefined) callListener(fn, a, b, this.hooks.onError, this.onHookThrow);
  }

  /**
   * A hook's error from a step no caller can take: within a step (a handler that answered
   * at once, inside the step that served it) it joins that step's, so the rest of the step
   * is still handled and its caller gets it; with no step under way (a timer's tick, a
   * handler's promise settling, the transport's close) it goes to `onError`.
   */
  private hookFailed(error: unknown): void {
    if (this.feeding > 0) this.hookFailure ??= { error };
    else report(error, this.hooks.onError);
  }

  private serve(id: RequestId, method: string, params: JsonObject | undefined): void {
    // A modern request names its own version and declares its own client (there is no
    // negotiated one, and an earlier legacy handshake on the connection is not its); a
    // legacy one is read under the session's.
    const modern = this.state.inbound[tableKey(id)]?.modern;
    const served = modern === undefined ? new Served(this, id, method, negotiatedVersion(this.state), peerOf(this.state), this.carrier) : new Served(this, id, method, modern.version, requestPeerOf(modern.capabilities, params), this.carrier);
    this.handling.set(id, served);
    const handler = this.hooks.onRequest;
    if (handler === undefined) return served.fail({ code: ErrorCode.MethodNotFound, message: `Method not found: ${echoed(method)}` });
    let value: Promise<JsonObject> | JsonObject;
    try {
      value = handler(method, params, served);
    } catch (e) {
      return served.fail(toRpcError(e));
    }
    // Callbacks made only for a handler that answers later: a synchronous answer (the usual
    // tool) allocates none. Any thenable is waited for, as `await` would: a promise of another
    // realm (a `vm` context) or of a promise library is no `Promise` here, and was sent as the
    // result itself (`{}`), its value lost.
    if (isThenable(value)) Promise.resolve(value).then((r) => served.succeed(r), (e: unknown) => served.failWith(e));
    else served.succeed(value);
  }

  /** @internal A served request was answered (not called once it was cancelled): for {@link Served} only. */
  answered(served: Served, result: JsonObject | undefined, error: JsonRpcErrorObject | undefined): void {
    this.handling.delete(served.id);
    served.answered();
    const now = this.clock.now();
    // Not thrown from here: into the step that served the request it would cut that step
    // short (the next requests of a batch never served), and from a handler's promise it
    // would be an unhandled rejection.
    this.feedUncaught(error ? { type: "respond", now, id: served.id, error } : { type: "respond", now, id: served.id, result });
  }

  /** @internal The clock's reading, for inputs built outside this class (a served request's progress). */
  now(): number {
    return this.clock.now();
  }

  /**
   * Arms the one timer for the kernel's next deadline. While a caller awaits a request or
   * the handshake, the timer holds the process: an in-memory peer that never answers then
   * ends in the request's timeout, not in a process exiting with the promise unsettled.
   */
  private arm(): void {
    const at = nextDeadline(this.state);
    const hold = this.pending.size > 0 || this.ready !== undefined;
    // A timer due no later than the next deadline (or with nothing due) is kept: when it
    // fires early, its tick finds nothing due and arms the timer anew. Without this, every
    // request of a sequential caller cost a timer started and one cancelled (its deadline
    // is later than the one before, and its answer leaves nothing due).
    if (this.timerAt !== null && (at === null || this.timerAt <= at)) {
      if (hold === this.timerHolds) return;
      if (this.clock.rehold?.(this.timer, hold) === true) {
        this.timerHolds = hold;
        return;
      }
    }
    this.disarm();
    if (at === null) return;
    this.timerAt = at;
    this.timerHolds = hold;
    this.timer = this.clock.schedule(
      at,
      () => {
        this.timer = undefined;
        this.timerAt = null;
        // No caller to throw to: a hook's error goes to onError.
        this.feedUncaught({ type: "tick", now: this.clock.now() });
      },
      hold,
    );
  }

  private disarm(): void {
    if (this.timer !== undefined) this.clock.cancel(this.timer);
    this.timer = undefined;
    this.timerAt = null;
  }
}

/** A thrown value as a JSON-RPC error: an {@link McpError} keeps its code, anything else is -32603. */
export function toRpcError(e: unknown): JsonRpcErrorObject {
  if (e instanceof McpError) return e.data === undefined ? { code: e.code, message: e.message } : { code: e.code, message: e.message, data: e.data };
  return { code: ErrorCode.InternalError, message: thrownMessage(e) };
}

/** What a modern request declares about its client: the capabilities the kernel read, and `clientInfo` when given. */
function requestPeerOf(capabilities: JsonObject, params: JsonObject | undefined): RequestPeer {
  const info = (params?._meta as JsonObject | undefined)?.[MetaKey.clientInfo];
  return typeof info === "object" && info !== null && !Array.isArray(info) ? { info: info as unknown as Implementation, capabilities } : { capabilities };
}

/** The peer's declared info and capabilities, once the handshake got that far. */
function peerOf(state: SessionState): PeerInfo | undefined {
  const p = state.phase;
  return p.name === "operating" || p.name === "awaiting-initialized" || p.name === "closed" ? p.peer : undefined;
}

/** An aborted signal's reason as the cancellation's text. */
function abortReason(signal: AbortSignal): string {
  return String(signal.reason ?? "aborted");
}
