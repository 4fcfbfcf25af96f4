/**
 * The Streamable HTTP client: a {@link Transport} over `fetch`.
 *
 * Spec: 2025-11-25 `basic/transports` ("Streamable HTTP"), the same page of 2025-06-18
 * and 2025-03-26; SEP-1699 (the server may close a stream at will; the client honours
 * `retry` and resumes with `Last-Event-ID`). The draft's
 * `basic/transports/streamable-http` for the modern era.
 *
 * Theory of operation. Every `send` is one POST with `Accept: application/json,
 * text/event-stream` and `Content-Type: application/json`. The answer is 202 (nothing to
 * read), one JSON body, or an SSE stream; the messages in either are handed to the
 * receiver as text, unchanged. The transport watches only what HTTP mechanics need:
 *
 * - the `MCP-Session-Id` of the response that carries the initialize result, sent on
 *   every later request (sends made while `initialize` is in flight wait for it);
 * - the negotiated version, read from that initialize result as it passes through, sent
 *   as `MCP-Protocol-Version` on every later request;
 * - after `notifications/initialized` (accepted or not: the session exists), a GET opens
 *   the standalone stream (405 means the server offers none, which is fine); a first GET
 *   that fails or is refused otherwise is retried like a broken stream (below), so one
 *   transient failure does not lose the server's unrelated messages for the session;
 * - for a POST stream, the id of the request it answers: a stream that ends before that
 *   response arrived lost its connection, not its stream, so the client reconnects with
 *   GET and `Last-Event-ID`, after the server's `retry` (spec: the client MUST respect
 *   it; one below {@link MIN_RECONNECT_DELAY_MS} is taken as that) or an exponential
 *   backoff, and gives up after `maxRetries` failures in a row by answering the request
 *   itself with a -32000 "connection closed" error (a reconnection the server accepts
 *   but ends without sending anything, not even the `retry` of a polling close, is a
 *   failure); once every request of a POST stream is answered, the client closes it
 *   (the server SHOULD have ended it; one that does not would hold a connection per
 *   answered request);
 * - a 404 to a request that carried a session id: the session is gone (spec: the client
 *   MUST start a new session). The transport replays the kernel's `initialize` and
 *   `notifications/initialized` (see {@link HttpClient.renewSession}) and sends the
 *   request again; when that fails it closes with a reason starting
 *   {@link SESSION_EXPIRED}. The old session's streams end with it: their event ids are
 *   that session's, so none is resumed under the new one, and the requests still waiting
 *   on them fail at once with that error.
 *
 * Modern era (draft `basic/transports/streamable-http`). A message whose `_meta` names
 * its protocol version is modern: it goes without session id, with the request metadata
 * headers built from its body (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, and
 * `Mcp-Param-*` for the `x-mcp-header` arguments the last modern `tools/list` declared;
 * a tool with invalid declarations is removed from that result). Each modern request has
 * its own fetch: the kernel's `notifications/cancelled` for it is not POSTed but aborts
 * that fetch, closing its stream, which is the cancellation on HTTP. A modern stream
 * that breaks before its response (a network error, or the stream ending without it)
 * cannot be resumed: the draft has no `Last-Event-ID` ("Resumable SSE streams via
 * Last-Event-ID are not supported"), and its stream state is "scoped to the request: if
 * the underlying channel is lost, the client re-issues the request" (`basic/patterns`).
 * The transport re-issues it, after the backoff, under a new id of its own (`basic/index`:
 * an id MUST NOT match any other request the sender issued; the kernel's ids are numbers,
 * these are strings), at most `maxReissues` times, and maps the answer back to the
 * kernel's id, so the caller sees one result. A `tools/call` is re-issued only for a tool
 * the last modern `tools/list` pages annotated `readOnlyHint` or `idempotentHint`: the
 * server takes the broken stream for a cancellation (`streamable-http`, Cancellation) but
 * may have run the tool already (created a task even) with only the answer lost, and
 * running any other tool twice may repeat its effect; such a call gets the -32000 error.
 * A progress notification of the new attempt that does not go past what was already
 * delivered is dropped (progress MUST increase, so it can only be a repeat). Other
 * notifications cannot be told apart from new ones and are delivered.
 * `subscriptions/listen` is not re-issued: its subscription id is its request
 * id and what changed while it was down is lost, so its owner gets the -32000 error and
 * re-subscribes (`basic/patterns/subscriptions`: a drop "MAY" trigger a reconnect).
 * Era detection is the kernel's: its `server/discover` probe is a modern
 * request, and a 4xx whose body is not a modern JSON-RPC error reaches it with another
 * code (an id-less JSON-RPC error body keeps its own, any other body is -32603), so it
 * falls back to `initialize`.
 *
 * `close()` aborts every fetch, sends DELETE for the session (a 405 is fine), and calls
 * the close listener once. Delays go through an injectable `sleep`, so tests never wait.
 */
import { errorText } from "./error-text.js";
import { ChurnMap } from "../driver/churn-map.js";
import { MIN_PEER_DELAY_MS, systemClock } from "../driver/clock.js";
import type { Transport } from "../api/transport.js";
import { createSseDecoder, feedSse } from "../framing/sse.js";
import { DEFAULT_LIMITS, decodeInvalidUtf8, decodeOversized, invalidUtf8StandIn, malformedResponseAnswer, malformedResponseMessage, oversizedStandIn, type Decoded } from "../jsonrpc/codec.js";
import { ErrorCode, type JsonRpcErrorObject } from "../jsonrpc/errors.js";
import { PEEK_WINDOW, peekRequestId, TAIL_WINDOW } from "../jsonrpc/safe-json.js";
import type { JsonObject, RequestId } from "../jsonrpc/types.js";
import { MetaKey } from "../model/meta.js";
import { isProtocolVersion } from "../model/versions.js";
import { letGo, NOT_UTF8_BODY, readBodyText } from "./http/body.js";
import { H, isHeaderName, isSafeHeaderValue, isVisibleAscii, JSON_TYPE, mediaTypeOf, SSE_TYPE } from "./http/headers.js";
import { modernRequestHeaders, paramHeadersOf, unmirrorableArgument, type ParamHeader } from "./http/request-metadata.js";

/** How lost SSE connections are re-established. */
export interface ReconnectOptions {
  /** First delay when the server sent no `retry`, in ms. Default 1000. */
  initialDelayMs?: number;
  /** Longest delay, in ms. Default 30 000. */
  maxDelayMs?: number;
  /** Growth of the delay per failed attempt. Default 1.5. */
  factor?: number;
  /**
   * Failed attempts in a row before giving up on a stream. Default 5. A reconnection the
   * server accepts but ends without sending anything (no event, no `retry`) is a failure.
   */
  maxRetries?: number;
  /**
   * Times a modern request whose response stream broke is re-issued under a new id (0: never). Default 2.
   * A `tools/call` only for a tool the modern `tools/list` showed with `readOnlyHint` or `idempotentHint`.
   */
  maxReissues?: number;
}

/** Options of {@link httpClientTransport}. */
export interface HttpClientOptions {
  /**
   * The fetch to use. Default: `globalThis.fetch`. A rejection is a network failure (a
   * stream is resumed, a modern request re-issued), except one whose error has
   * `retryable: false`: a wrapper's own refusal (`oauthFetch` that could not authorize),
   * which fails the request at once with `-32603` and its message.
   */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** Headers sent on every request (e.g. `Authorization`). Names must be tokens and values header-safe. */
  headers?: Record<string, string>;
  /**
   * Largest message read from the server, in bytes: a JSON response body, or one SSE event
   * (with 1 KiB for its field names). Past it a JSON body is cancelled and its request fails
   * with `-32603`; an SSE event is dropped. Default: the codec's 4 MiB; raise it with the
   * session's `maxMessageBytes`.
   */
  maxMessageBytes?: number;
  reconnect?: ReconnectOptions;
  /** Waits `ms` (resolves early, or rejects, when `signal` aborts). Default: a timer. Tests inject their own. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Open the standalone GET stream after initialization. Default true. */
  openGetStream?: boolean;
  /** Transport problems that need no action (a failed notification POST, a stream given up). */
  onError?(message: string): void;
  /**
   * Extra headers for one outgoing message. The transport sends the request metadata
   * headers of modern requests itself; this adds or overrides headers per message.
   * Unsafe names or values are dropped with an `onError`.
   */
  requestHeaders?(message: string): Record<string, string> | undefined;
}

/** The transport, plus what it learned about the session. */
export interface HttpClientTransport extends Transport {
  /** The server's `MCP-Session-Id`, once initialized. */
  readonly sessionId: string | undefined;
  /** The negotiated version sent as `MCP-Protocol-Version`, once initialized. */
  readonly protocolVersion: string | undefined;
}

/** The start of the close reason when the server no longer knows the session (HTTP 404). */
export const SESSION_EXPIRED = "session expired";

/** One SSE stream the client follows: a POST's, or the standalone GET stream. */
interface StreamCtx {
  kind: "post" | "get";
  /** A modern (2026-07-28) request: its protocol version, method and the fetch it can be cancelled by. */
  modern?: ModernCtx;
  /** Keys (`JSON.stringify(id)`) of requests whose response has not arrived. */
  pending: Set<string>;
  /** The ids themselves, to answer them if the stream is given up. */
  ids: Map<string, RequestId>;
  lastEventId: string;
  retryMs: number | undefined;
  /**
   * The `MCP-Session-Id` the stream was opened under. Event ids are per session (the
   * server numbers a new session's streams afresh), so the stream is resumed only under
   * that session: see {@link HttpClient.endStreams}.
   */
  session?: string;
  /** The reader of the connection being read, cancelled when the session ends or the transport closes. */
  reader?: ReadableStreamDefaultReader<Uint8Array>;
  /** The POST carried a batch (2025-03-26): only then may its answer be an array. */
  batch?: boolean;
  /** Aborts the legacy fetch in flight for the stream (its POST, or a resumption GET). */
  fetching?: AbortController;
  /** Every request of this legacy POST stream was cancelled: nothing more is read from it. */
  released?: boolean;
  /** The server sent a request of its own on this legacy POST stream (an elicitation for the call). */
  asked?: boolean;
}

/** A modern request's state across its attempts. */
interface ModernCtx {
  version: string;
  method: string;
  /** Aborts the current attempt's fetch. */
  abort: AbortController;
  cancelled: boolean;
  /** The kernel's id of the request (undefined for a notification). */
  id?: RequestId;
  /** The id the current attempt went out under, when it is a re-issue. */
  wireId?: string;
  /** The highest `notifications/progress` value delivered for it. */
  progress?: number;
}

/**
 * How long requests after the handshake wait for the server to answer the standalone GET
 * (see {@link HttpClient.holdForGet}) before going out anyway.
 */
export const GET_WAIT_MS = 1000;

/**
 * The shortest wait a server's `retry` can ask for before a reconnection, in ms
 * ({@link MIN_PEER_DELAY_MS}): a server that sends `retry: 0` and closes at once would
 * otherwise get a tight loop of GETs. The delays of {@link ReconnectOptions} are the
 * caller's, and are taken as they are.
 */
export const MIN_RECONNECT_DELAY_MS = MIN_PEER_DELAY_MS;

/** The start of the ids re-issued modern requests carry: strings, never equal to the kernel's numeric ids. */
export const REISSUE_ID_PREFIX = "mcp-kernel-reissue-";

const defaultSleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    // The system clock's timer: a `retry` past setTimeout's range still waits that long.
    const t = systemClock.schedule(systemClock.now() + ms, done, true);
    function done(): void {
      systemClock.cancel(t);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });

/** A Streamable HTTP client transport for the MCP endpoint at `url`. */
export function httpClientTransport(url: string | URL, options: HttpClientOptions = {}): HttpClientTransport {
  return new HttpClient(String(url), options);
}

class HttpClient implements HttpClientTransport {
  sessionId: string | undefined;
  protocolVersion: string | undefined;
  private readonly fetch: NonNullable<HttpClientOptions["fetch"]>;
  private readonly base: Record<string, string>;
  private readonly sleep: NonNullable<HttpClientOptions["sleep"]>;
  private readonly initialDelay: number;
  private readonly maxDelay: number;
  /** {@link HttpClientOptions.maxMessageBytes}. */
  private readonly maxBytes: number;
  private readonly factor: number;
  private readonly maxRetries: number;
  private readonly maxReissues: number;
  /** Re-issues so far, numbering their ids. */
  private reissues = 0;
  /** Aborted on close: ends the backoff waits. */
  private readonly abort = new AbortController();
  /** The legacy fetches waiting for their response headers, aborted on close. */
  private readonly fetches = new Set<AbortController>();
  private closed = false;
  private receiver: ((text: string) => void) | undefined;
  private buffered: string[] = [];
  private closeListener: ((reason: string) => void) | undefined;
  /** Told the server's new InitializeResult when a session is renewed (the client's view of the server changes with it). */
  private renewListener: ((result: JsonObject) => void) | undefined;
  /** Why the last session renewal failed, for the close reason. */
  private renewFailure: string | undefined;
  private closeReason: string | undefined;
  /** Until the GET stream is started, outgoing messages are parsed to spot the handshake. */
  private handshaking = true;
  /** Key of the initialize request in flight. */
  private initKey: string | undefined;
  /** Sends wait on this while `initialize` has not answered with its headers. */
  private gate: Promise<void> | undefined;
  private getStarted = false;
  /** Releases the requests held while the standalone GET is being opened. */
  private getOpened: (() => void) | undefined;
  /** The SSE streams being read or waiting to be resumed (their readers are cancelled on close). */
  private readonly followed = new Set<StreamCtx>();
  /** Requests in flight, by id key: cancelling a modern one closes its stream, a legacy one stops its resumption. */
  private readonly inflight = new ChurnMap<string, StreamCtx>();
  /** The kernel's `initialize` and `notifications/initialized`, replayed to renew an expired session. */
  private initText: string | undefined;
  private initializedText: string | undefined;
  private renewing: Promise<boolean> | undefined;
  /** `x-mcp-header` declarations of the tools the last modern `tools/list` pages showed. */
  private readonly paramHeaders = new Map<string, ParamHeader[]>();
  /** Tools those pages annotated `readOnlyHint` or `idempotentHint`: the only calls a re-issue cannot run twice to harm. */
  private readonly repeatable = new Set<string>();

  constructor(
    private readonly url: string,
    private readonly options: HttpClientOptions,
  ) {
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.sleep = options.sleep ?? defaultSleep;
    const r = options.reconnect ?? {};
    this.initialDelay = r.initialDelayMs ?? 1000;
    this.maxDelay = r.maxDelayMs ?? 30_000;
    this.maxBytes = options.maxMessageBytes ?? DEFAULT_LIMITS.maxBytes;
    this.factor = r.factor ?? 1.5;
    this.maxRetries = r.maxRetries ?? 5;
    this.maxReissues = r.maxReissues ?? 2;
    this.base = {};
    for (const [k, v] of Object.entries(options.headers ?? {})) {
      if (!isHeaderName(k) || !isSafeHeaderValue(v)) throw new TypeError(`header ${JSON.stringify(k)} is not a valid HTTP header`);
      this.base[k] = v;
    }
  }

  // -------------------------------------------------------------------------------------
  // Transport

  send(text: string): void {
    if (this.closed) return;
    // post() answers its own requests whatever goes wrong; what could still escape it (a
    // listener of the caller's that throws) must not become an unhandled rejection, which
    // ends a Node process: the kernel never throws across its boundary.
    this.post(text).catch(() => {});
  }

  onMessage(fn: (text: string) => void): void {
    this.receiver = fn;
    const early = this.buffered;
    this.buffered = [];
    for (const t of early) fn(t);
  }

  onClose(fn: (reason: string) => void): void {
    this.closeListener = fn;
    if (this.closeReason !== undefined) fn(this.closeReason);
  }

  close(): void {
    this.shut("transport closed", true);
  }

  onSessionRenewed(fn: (result: JsonObject) => void): void {
    this.renewListener = fn;
  }

  /**
   * One fetch of the legacy era, aborted if the transport closes before it answers. Each
   * gets its own signal: undici adds an abort listener to the signal of every request
   * and removes it only when the `Request` is garbage-collected, so one shared signal
   * would gather a listener per request (a leak, and the cost of adding to a long list).
   */
  private async request(init: RequestInit, ctx?: StreamCtx): Promise<Response> {
    const abort = new AbortController();
    this.fetches.add(abort);
    if (ctx !== undefined) ctx.fetching = abort;
    try {
      return await this.fetch(this.url, { ...init, signal: abort.signal });
    } finally {
      this.fetches.delete(abort);
      if (ctx?.fetching === abort) ctx.fetching = undefined;
    }
  }

  // -------------------------------------------------------------------------------------
  // POST

  private async post(text: string, retried = false): Promise<void> {
    const ctx: StreamCtx = { kind: "post", pending: new Set(), ids: new Map(), lastEventId: "", retryMs: undefined };
    // Modern messages name their version in _meta; only they are parsed for their headers.
    const modern = text.indexOf(META_VERSION) === -1 ? undefined : modernMessage(text);
    let method: string | undefined;
    try {
      if (modern !== undefined) return await this.postModern(text, modern, ctx);
      if (text.indexOf('"notifications/cancelled"') !== -1 && this.cancelInflight(text)) return;
      if (text.charCodeAt(0) === 0x5b /* [ */) ctx.batch = true;
      if (this.handshaking || ctx.batch === true) method = this.inspect(text, ctx);
      else {
        const id = peekRequestId(text);
        if (id !== null) track(ctx, id);
      }
      // In flight by id, so a later notifications/cancelled can stop this POST's stream.
      for (const key of ctx.pending) this.inflight.set(key, ctx);
      return await this.postLegacy(text, retried, ctx, method);
    } catch (e) {
      // Not a network failure (those are handled where they occur) but a callback of the
      // caller's that threw, or an injected sleep that rejected: the requests still get
      // their answer now, not at their timeout.
      this.failed(ctx, `the transport failed: ${errorText(e)}`);
    } finally {
      for (const key of ctx.ids.keys()) if (this.inflight.get(key) === ctx) this.inflight.delete(key);
      // The session exists whatever became of this POST (a server may have processed it and
      // the answer been lost, or refused it): without the standalone stream the session's
      // list_changed, resource updates, logs and cancellations would be lost to its end.
      if (method === "notifications/initialized") this.startGet();
    }
  }

  /** A 2025-era POST (after {@link HttpClient.post} noted its requests in `ctx`): session gates, the answer. */
  private async postLegacy(text: string, retried: boolean, ctx: StreamCtx, method: string | undefined): Promise<void> {
    let release: (() => void) | undefined;
    if (method === "initialize" && this.sessionId === undefined) {
      const previous = this.gate;
      let open!: () => void;
      const gate = (this.gate = new Promise<void>((resolve) => (open = resolve)));
      release = () => {
        // Once open, later sends need not wait on it (the ones waiting already resume first).
        if (this.gate === gate) this.gate = undefined;
        open();
      };
      await previous;
    } else {
      // A renewal may start while this waits on the gate before it: wait for the last one.
      while (this.gate !== undefined) await this.gate;
    }
    // Closed meanwhile (a renewal failed, the application closed): the kernel has failed
    // this request already, and nothing more goes to the server.
    if (this.closed) return release?.();
    if (method === "initialize" && this.initText === undefined) this.initText = text;
    // A dual-era client falls back to initialize after a modern probe: the probe's version
    // is not this session's, and a legacy server answers 400 to a version it does not speak.
    if (method === "initialize" && this.sessionId === undefined) this.protocolVersion = undefined;
    if (method === "notifications/initialized") {
      this.initializedText = text;
      if (!this.getStarted && this.options.openGetStream !== false) this.holdForGet();
    }
    const sid = this.sessionId;
    let res: Response;
    try {
      res = await this.request({ method: "POST", headers: this.headersFor(text, true), body: text }, ctx);
    } catch (e) {
      release?.();
      return this.fetchFailed(ctx, e);
    }
    if (release !== undefined) {
      this.adoptSession(res);
      release();
    }
    // An initialize's stream belongs to the session it opened.
    ctx.session = sid ?? this.sessionId;
    if (this.closed || ctx.released) return discard(res);
    if (res.status === 404 && sid !== undefined) {
      discard(res);
      // Session Management item 4: a new session, then this message again (once).
      // (The renewal itself sends notifications/initialized.)
      if (!retried && (await this.renewSession(sid))) {
        // Cancelled while the session was renewed: its notification went out already, so
        // the request is not sent again (the server would run it for no one).
        if (ctx.released) return;
        return method === "notifications/initialized" ? undefined : this.post(text, true);
      }
      return this.shut(this.expired(sid), false);
    }
    if (res.status === 202 || res.status === 204) {
      discard(res);
      return this.bodiless(ctx, res.status);
    }
    // Only a cross-origin response can hide the header: a server without sessions may
    // refuse the notification for its own reasons, reported as any 400 is.
    if (method === "notifications/initialized" && res.status === 400 && this.sessionId === undefined && res.type === "cors") {
      return this.shut(unreadSession(await errorMessageOf(res, this.maxBytes)), false);
    }
    // Only a modern request's answer can come back as lost, and this one is legacy.
    await this.answer(ctx, res);
  }

  /**
   * Session Management item 4 (2025-11-25 `basic/transports`): after a 404 for session
   * `old`, the client MUST start a new session with a new `initialize`. The one the
   * kernel sent is replayed, its answer is checked (same version), and
   * `notifications/initialized` follows. The answer is not delivered as a message (the
   * kernel's initialize was answered long ago) but to the `onSessionRenewed` listener,
   * before any request is sent again: the server may have restarted with other tools,
   * capabilities, and none of the old session's subscriptions or log level.
   * Sends wait meanwhile. Resolves false when that fails (the caller then closes).
   */
  private renewSession(old: string): Promise<boolean> {
    if (this.renewing !== undefined) return this.renewing;
    // Another request already renewed it.
    if (this.sessionId !== old) return Promise.resolve(this.sessionId !== undefined);
    const renewing = (this.renewing = this.reinitialize(old).finally(() => (this.renewing = undefined)));
    const gate = (this.gate = renewing.then(() => {
      if (this.gate === gate) this.gate = undefined;
    }));
    return renewing;
  }

  /** The close reason after a 404 for session `sid`, with why no new session could be started, when one was tried. */
  private expired(sid: string): string {
    const why = this.renewFailure === undefined ? "" : `; a new session could not be started: ${this.renewFailure}`;
    return `${SESSION_EXPIRED}: the server answered 404 for session ${sid}${why}`;
  }

  private async reinitialize(old: string): Promise<boolean> {
    const init = this.initText;
    const done = this.initializedText;
    if (init === undefined || done === undefined || this.closed) return false;
    this.endStreams(old);
    this.sessionId = undefined;
    // A session the server opened for a renewal that then failed is not needed: it is ended.
    const abandon = (why: string): false => {
      this.renewFailure = why;
      this.deleteSession();
      this.sessionId = undefined;
      return false;
    };
    let result: JsonObject | undefined;
    try {
      const headers = this.headersFor(init, true);
      delete headers[H.protocolVersion];
      const res = await this.request({ method: "POST", headers, body: init });
      this.adoptSession(res);
      const first = res.ok ? await firstMessage(res, this.maxBytes) : (discard(res), undefined);
      if (first === NOT_UTF8_BODY) return abandon(`initialize was not answered with a result (HTTP ${res.status}: ${notUtf8("the answer")})`);
      const reply = parse(typeof first === "string" ? first : "") as { result?: unknown; error?: { code?: unknown; message?: unknown } } | undefined;
      const r = reply?.result;
      if (typeof r !== "object" || r === null) {
        const refused = reply?.error === undefined ? `HTTP ${res.status}` : `${String(reply.error.code)} ${String(reply.error.message)}`;
        return abandon(`initialize was not answered with a result (${refused})`);
      }
      result = r as JsonObject;
      if (result.protocolVersion !== this.protocolVersion) return abandon(`the new session's protocol version is ${JSON.stringify(result.protocolVersion)}, not this session's ${this.protocolVersion}`);
      if (this.sessionId === undefined) return abandon("the server gave the new session no MCP-Session-Id");
      const n = await this.request({ method: "POST", headers: this.headersFor(done, true), body: done });
      discard(n);
      if (!n.ok) return abandon(`notifications/initialized was refused with HTTP ${n.status}`);
    } catch (e) {
      return abandon(errorText(e));
    }
    if (this.getStarted) {
      this.getStarted = false;
      this.startGet();
    }
    try {
      this.renewListener?.(result);
    } catch (e) {
      this.report(`the onSessionRenewed listener failed: ${errorText(e)}`);
    }
    // The listener may have closed the transport (a kernel that cannot use the new session): nothing is sent again.
    return !this.closed;
  }

  /**
   * A modern request or notification: no session, its own headers (draft
   * `streamable-http`, "Request Metadata"), and its own fetch, aborted to cancel it.
   */
  private async postModern(text: string, message: ModernMessage, ctx: StreamCtx): Promise<void> {
    const modern: ModernCtx = (ctx.modern = { version: message.version, method: message.method, abort: new AbortController(), cancelled: false, id: message.id });
    if (message.id !== undefined) {
      track(ctx, message.id);
      // post() removes it when this request is done.
      this.inflight.set(JSON.stringify(message.id), ctx);
    }
    const tool = message.method === "tools/call" && typeof message.params?.name === "string" ? message.params.name : undefined;
    const declared = tool === undefined ? undefined : this.paramHeaders.get(tool);
    const unmirrorable = unmirrorableArgument(message, declared);
    if (unmirrorable !== null) return this.failed(ctx, unmirrorable, ErrorCode.InvalidParams);
    const headers = this.headersFor(text, true, modernRequestHeaders(message, declared));
    let body = text;
    for (let attempt = 0; ; attempt++) {
      const broke = await this.attemptModern(ctx, headers, body);
      if (typeof broke !== "string" || this.closed || modern.cancelled) return;
      if (message.id === undefined || message.method === LISTEN || attempt >= this.maxReissues) return this.failed(ctx, broke);
      // The lost attempt may have run (created a task even): only a call the tool's hints say is safe to repeat runs again.
      if (message.method === "tools/call" && !(tool !== undefined && this.repeatable.has(tool))) return this.failed(ctx, broke);
      this.report(`re-issuing ${message.method} ${JSON.stringify(message.id)} under a new id: ${broke}`);
      // What is left of the broken attempt is closed, which the server takes as its cancellation.
      modern.abort.abort("re-issued");
      modern.abort = new AbortController();
      // Cancelling the request or closing the transport aborts this controller, ending the wait.
      await this.sleep(this.delay(ctx, attempt), modern.abort.signal);
      if (this.closed || modern.cancelled) return;
      modern.wireId = `${REISSUE_ID_PREFIX}${++this.reissues}`;
      body = withId(text, modern.wireId);
    }
  }

  /**
   * One POST of a modern message. Resolves to why the request's response was lost to a
   * broken connection (the caller may re-issue it), or undefined when it was answered
   * (or answered here with an error, or cancelled).
   */
  private async attemptModern(ctx: StreamCtx, headers: Record<string, string>, body: string): Promise<string | void> {
    const modern = ctx.modern!;
    let res: Response;
    try {
      res = await this.fetch(this.url, { method: "POST", headers, body, signal: modern.abort.signal });
    } catch (e) {
      if (ctx.pending.size > 0 && !isRefusal(e)) return `POST failed: ${errorText(e)}`;
      return void this.fetchFailed(ctx, e);
    }
    if (this.closed || modern.cancelled) return void discard(res);
    if (res.status === 202 || res.status === 204) {
      discard(res);
      return this.bodiless(ctx, res.status);
    }
    return this.answer(ctx, res);
  }

  /** A 202 / 204 answer: fine for notifications and responses; a request MUST get an event stream or a JSON body, so no answer will come for it. */
  private bodiless(ctx: StreamCtx, status: number): void {
    if (ctx.pending.size > 0) this.failed(ctx, `the server answered a request with HTTP ${status} and no response`, ErrorCode.InternalError);
  }

  /**
   * `text` is a `notifications/cancelled`: the request it names is no longer awaited. Draft
   * `streamable-http` (Cancellation): closing a modern request's response stream is the
   * cancellation, and no notification is sent (true). A 2025-era request's notification
   * is sent (false), and its POST stream is no longer resumed for it: the server may never
   * answer it again, and a resumption loop would go on until the transport closed.
   */
  private cancelInflight(text: string): boolean {
    const m = parse(text) as { method?: unknown; params?: { requestId?: unknown } } | undefined;
    if (m?.method !== "notifications/cancelled") return false;
    const id = m.params?.requestId;
    const key = typeof id === "string" || typeof id === "number" ? JSON.stringify(id) : undefined;
    const ctx = key === undefined ? undefined : this.inflight.get(key);
    if (ctx === undefined) return false;
    if (ctx.modern === undefined) {
      ctx.pending.delete(key!);
      // A stream the server asked the client something on stays until its next write: the
      // server cancels that request there when it learns of this cancellation.
      if (ctx.pending.size === 0 && ctx.kind === "post" && ctx.asked !== true) this.release(ctx);
      return false;
    }
    this.inflight.delete(key!);
    ctx.modern.cancelled = true;
    // The kernel expects no answer now; nothing more is delivered for it.
    ctx.pending.clear();
    ctx.modern.abort.abort("cancelled");
    return true;
  }

  /**
   * A legacy POST stream whose requests were all cancelled: its connection is let go now,
   * before the notification goes out, not when the server next writes to it (a keep-alive,
   * or the tool's end). The sender SHOULD ignore a response that arrives after the
   * cancellation (2025-11-25 `basic/utilities/cancellation`), so nothing on it is awaited,
   * and a browser's few connections per host may all be held by such streams, leaving the
   * notification queued behind them. The server does not take the closed stream for the
   * cancellation (`basic/transports`: disconnection SHOULD NOT be), hence the notification.
   */
  private release(ctx: StreamCtx): void {
    ctx.released = true;
    ctx.fetching?.abort("cancelled");
    letGo(ctx.reader);
  }

  /**
   * A POST's non-202 answer: an HTTP error, one JSON body, or an SSE stream. Resolves to
   * why the response was lost, for a modern request whose connection broke (see
   * {@link HttpClient.attemptModern}); otherwise every request of `ctx` is answered.
   */
  private async answer(ctx: StreamCtx, res: Response): Promise<string | void> {
    const type = mediaTypeOf(res.headers.get(H.contentType));
    if (!res.ok) return this.httpFailure(ctx, res, type);
    // A null-body status (205) or a fetch that gives no body: an event stream with nothing
    // in it, so no answer will come, as for a 202.
    if (type === SSE_TYPE) return res.body === null ? this.bodiless(ctx, res.status) : this.follow(ctx, res);
    if (type === JSON_TYPE) {
      // Read to the message limit: a server's endless body is cancelled there, not buffered.
      const read = await readBodyText(res, this.maxBytes);
      // Past the message limit: no attempt can do better, so the request fails (not re-issued).
      if (!read.ok && read.status === 413) return this.failed(ctx, `the JSON response body exceeds ${this.maxBytes} bytes`, ErrorCode.InternalError);
      // Not UTF-8 (2025-11-25 basic/transports: messages MUST be): the body answers this POST
      // alone, so its requests fail as a malformed response's would (not re-issued: the server answered).
      if (read === NOT_UTF8_BODY) return this.failed(ctx, notUtf8("the JSON response body"), ErrorCode.InternalError);
      if (!read.ok && ctx.modern !== undefined) return "the JSON response body could not be read";
      if (!read.ok) return this.failed(ctx, "the JSON response body could not be read");
      if (read.text.length > 0) this.deliver(read.text, ctx);
      if (ctx.pending.size > 0) this.failed(ctx, "the JSON response did not answer the request", ErrorCode.InternalError);
      return;
    }
    discard(res);
    this.failed(ctx, `unexpected response Content-Type ${JSON.stringify(type)}`, ErrorCode.InternalError);
  }

  /** Parses an outgoing message (during the handshake, or a batch) for its request ids and method. */
  private inspect(text: string, ctx: StreamCtx): string | undefined {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return undefined;
    }
    let method: string | undefined;
    for (const m of Array.isArray(value) ? value : [value]) {
      if (typeof m !== "object" || m === null) continue;
      const { id, method: mm } = m as { id?: unknown; method?: unknown };
      if (typeof mm !== "string") continue;
      method = mm;
      if (typeof id === "string" || typeof id === "number") {
        track(ctx, id);
        if (mm === "initialize") this.initKey = JSON.stringify(id);
      }
    }
    return method;
  }

  private adoptSession(res: Response): void {
    const sid = res.headers.get(H.sessionId);
    if (sid === null) return;
    if (isVisibleAscii(sid)) this.sessionId = sid;
    else this.report("ignored an MCP-Session-Id that is not visible ASCII");
  }

  /**
   * A non-2xx answer: a JSON-RPC error naming a request of the POST (or an array of
   * errors, a 2025-03-26 batch's, naming one) goes to the receiver, and the POST's other
   * requests fail at once (`-32603`); otherwise the requests of the POST are answered
   * here. A JSON-RPC error body without their id (the server could not read the POST:
   * 413 for a body over its limit, say) keeps its code and data, its message after the
   * status, so a request too large for the server is `-32600` as it is on stdio
   * (2025-11-25 `basic/transports`: the body of such an error status MAY be a JSON-RPC
   * error response that has no id). A body that is not UTF-8 is `-32603` saying so, as a
   * 2xx one is; any other body is `-32603` with the status.
   */
  private async httpFailure(ctx: StreamCtx, res: Response, type: string): Promise<void> {
    const read = type === JSON_TYPE ? await readBodyText(res, this.maxBytes) : (discard(res), undefined);
    const body = read?.ok === true ? read.text : undefined;
    const status = `HTTP ${res.status}`;
    // Whatever code or id it held cannot be read: the requests fail saying why, not with the bare status.
    if (read === NOT_UTF8_BODY) return this.failed(ctx, `${status}: ${notUtf8("the error body")}`, ErrorCode.InternalError);
    if (body !== undefined && body.length > 0) {
      const reply = parse(body) as { jsonrpc?: unknown; id?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } } | undefined;
      if (answersPending(reply, ctx)) {
        this.deliver(body, ctx);
        // The server refused the whole POST naming some of its requests (a member of a
        // 2025-03-26 batch, say): the others get no answer either, and fail now.
        if (ctx.pending.size > 0) this.failed(ctx, `${status}: the error body did not answer the request`, ErrorCode.InternalError);
        return;
      }
      if (reply !== undefined && typeof reply === "object" && reply !== null && !Array.isArray(reply)) {
        const e = reply.error;
        if (typeof e?.message === "string") {
          const message = `${status}: ${e.message}`;
          if (reply.jsonrpc !== "2.0" || !Number.isSafeInteger(e.code)) return this.failed(ctx, message, ErrorCode.InternalError);
          return this.answerWaiting(ctx, message, e.data === undefined ? { code: e.code as number, message } : { code: e.code as number, message, data: e.data });
        }
      }
    }
    this.failed(ctx, status, ErrorCode.InternalError);
  }

  // -------------------------------------------------------------------------------------
  // SSE streams

  /**
   * Reads `first` (a POST's SSE answer) and, while its requests are unanswered, resumes
   * it. A modern stream is not resumable: when it ends unanswered, resolves to why.
   */
  private async follow(ctx: StreamCtx, first: Response | undefined): Promise<string | void> {
    this.followed.add(ctx);
    try {
      return await this.followStream(ctx, first);
    } finally {
      this.followed.delete(ctx);
    }
  }

  private async followStream(ctx: StreamCtx, first: Response | undefined): Promise<string | void> {
    let res: Response | undefined = first;
    let failures = 0;
    // No `first`: the standalone GET, not opened yet. Its first attempt goes out at once, and
    // its failures are reported until a connection is made.
    let opened = first !== undefined;
    for (;;) {
      if (res !== undefined) {
        // A connection counts as a success only if the server sent something on it: an
        // event, or the `retry` the spec asks of a server that closes a connection to be
        // polled. One accepted with 200 and ended empty is a failure like a refusal;
        // counted as a success, it would be retried for as long as the server does that.
        failures = (await this.consume(ctx, res)) ? 0 : failures + 1;
        res = undefined;
      }
      if (this.closed || (ctx.kind === "post" && ctx.pending.size === 0)) return;
      // Draft streamable-http: modern streams are not resumable ("Resumable SSE streams via
      // Last-Event-ID are not supported"); the caller re-issues the request or answers it.
      if (ctx.modern !== undefined) return "the response stream ended before the response (modern streams are not resumable)";
      if (ctx.session !== this.sessionId) return this.lost(ctx);
      if (ctx.kind === "post" && ctx.lastEventId === "") return this.failed(ctx, "the response stream ended before the response and carried no event id to resume from");
      if (!isByteString(ctx.lastEventId)) {
        // fetch refuses a header value with a character above U+00FF (an emoji): every
        // resumption with this id would throw. A POST stream cannot be resumed without it;
        // the GET stream is opened afresh, as after a 400.
        const why = `the event id ${JSON.stringify(ctx.lastEventId)} cannot be sent as a Last-Event-ID header`;
        if (ctx.kind === "post") return this.failed(ctx, why);
        this.report(`${why}; reopening the GET stream without it`);
        ctx.lastEventId = "";
      }
      // The first GET is always tried, whatever maxRetries says (it counts failures).
      if ((opened || failures > 0) && failures >= this.maxRetries) {
        if (ctx.kind === "post") return this.failed(ctx, `gave up resuming the response stream after ${failures} attempts`);
        return this.report(`gave up on the GET stream after ${failures} attempts`);
      }
      if (opened || failures > 0) await this.sleep(this.delay(ctx, failures), this.abort.signal);
      if (this.closed || (ctx.kind === "post" && ctx.pending.size === 0)) return;
      if (ctx.session !== this.sessionId) return this.lost(ctx);
      const headers = this.headersFor(undefined, false);
      if (ctx.lastEventId !== "") headers[H.lastEventId] = ctx.lastEventId;
      let r: Response;
      try {
        r = await this.request({ method: "GET", headers }, ctx);
      } catch (e) {
        failures++;
        if (!opened && !this.closed) this.report(`GET stream failed: ${errorText(e)}`);
        continue;
      } finally {
        // Requests held until the server answered the session's first GET go out (holdForGet).
        if (ctx.kind === "get") this.getOpened?.();
      }
      if (this.closed || ctx.released) return discard(r);
      if (r.ok && mediaTypeOf(r.headers.get(H.contentType)) === SSE_TYPE) {
        res = r;
        opened = true;
        continue;
      }
      discard(r);
      failures++;
      if (!opened) {
        // The first GET. 405: the server offers no standalone stream, which the spec allows.
        if (r.status === 405) return;
        this.report(`GET stream refused: HTTP ${r.status}`);
        // 404 right after the session answered: a server with no GET route (a framework's
        // POST-only endpoint), not an expired session; renewing would open a session per GET
        // without end (a session that did expire is renewed by its next POST). 409: see below.
        if (r.status === 404 || r.status === 409) return;
      }
      const sid = headers[H.sessionId];
      if (r.status === 404 && sid !== undefined) {
        if (!(await this.renewSession(sid))) return this.shut(this.expired(sid), false);
        // The renewal ended this stream with its session (endStreams).
        return;
      }
      if (r.status === 405 || r.status === 409) {
        // 405: no GET streams here; 409: a server that keeps one GET stream per session (this kernel's keeps several).
        if (ctx.kind === "post") return this.failed(ctx, `the server refused to resume the response stream (HTTP ${r.status})`);
        return this.report(`the server refused to reopen the GET stream (HTTP ${r.status})`);
      }
      if (r.status === 400 && ctx.lastEventId !== "") {
        // The server cannot resume from there.
        if (ctx.kind === "post") return this.failed(ctx, "the server cannot resume the response stream (HTTP 400)");
        ctx.lastEventId = "";
      }
    }
  }

  /**
   * Reads one SSE response to its end, handing messages over and remembering the cursor.
   * Resolves to whether the server sent anything on it (an event, a `retry`).
   */
  private async consume(ctx: StreamCtx, res: Response): Promise<boolean> {
    // A resumption or GET answered with a null-body status: a stream that ended at once.
    if (res.body === null) return false;
    let heard = false;
    const decoder = createSseDecoder(sseLimits(this.maxBytes), ctx.lastEventId);
    const reader = res.body.getReader();
    ctx.reader = reader;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (const o of feedSse(decoder, value)) {
          heard = true;
          if (o.type === "retry") ctx.retryMs = o.ms;
          else if (o.type === "error") this.dropped(o, ctx);
          // Empty data: the priming event, which only moves the cursor.
          else if (o.data !== "" && o.event === "message") {
            if (o.invalidUtf8 === true) this.notUtf8Event(o.data, ctx);
            else this.deliver(o.data, ctx);
          }
        }
        // The id of the last complete event: one cut before its blank line was not received (WHATWG).
        ctx.lastEventId = decoder.dispatchedId;
        if (answered(ctx)) {
          // The server SHOULD end the stream after the response (both eras); one that does
          // not would hold a connection per answered request until close().
          letGo(reader);
          break;
        }
      }
    } catch {
      // The connection broke; the caller decides whether to resume.
    } finally {
      ctx.reader = undefined;
    }
    return heard;
  }

  /**
   * Session `old` is gone (a 404): its streams end with it, and none is resumed under the
   * next session. Their event ids are the old session's, and the new one numbers its
   * streams afresh: a resumption would replay another stream of the new session (2025-11-25
   * `basic/transports`, Resumability: the client resumes with the last event id it
   * received on that stream; the server MUST NOT replay messages of a different stream).
   * The old GET stream stops (the renewal opens the new session's own); the requests of a
   * POST stream were lost with the session and fail now, not at their timeout.
   */
  private endStreams(old: string): void {
    for (const ctx of this.followed) {
      if (ctx.session !== old) continue;
      letGo(ctx.reader);
      this.lost(ctx);
    }
  }

  /** A stream whose session ended: its unanswered requests fail with the session-expired error. */
  private lost(ctx: StreamCtx): void {
    if (ctx.kind === "post" && ctx.pending.size > 0) this.failed(ctx, `${SESSION_EXPIRED}: the request was lost with session ${ctx.session}`);
  }

  /** Backoff: the server's `retry` (at least {@link MIN_RECONNECT_DELAY_MS}) first, then exponential, never below it. */
  private delay(ctx: StreamCtx, failures: number): number {
    const backoff = Math.min(this.maxDelay, this.initialDelay * Math.pow(this.factor, failures));
    if (ctx.retryMs === undefined) return backoff;
    const retry = Math.max(MIN_RECONNECT_DELAY_MS, ctx.retryMs);
    return failures === 0 ? retry : Math.max(retry, backoff);
  }

  /**
   * Holds the requests sent after `notifications/initialized` until the server has
   * answered the standalone GET that follows it (or refused it, or {@link GET_WAIT_MS}
   * passed): otherwise the first request races the GET, and a server may put the
   * request's messages, its response even, on a GET stream it sees open only afterwards,
   * or take the late GET for a reconnection. The session's first requests wait one GET
   * round trip at most; later ones not at all.
   */
  private holdForGet(): void {
    const bound = new AbortController();
    const opened = new Promise<void>((resolve) => (this.getOpened = resolve));
    const release = (): void => {
      bound.abort();
      this.getOpened = undefined;
      if (this.gate === gate) this.gate = undefined;
    };
    // An injected sleep that rejects opens the gate as well: the held sends go out.
    const gate: Promise<void> = Promise.race([opened, this.sleep(GET_WAIT_MS, bound.signal)]).then(release, release);
    this.gate = gate;
  }

  /**
   * Opens the standalone GET stream, through the reconnection loop of {@link
   * HttpClient.followStream}: a first GET that fails or is refused (but with 405, "no
   * stream here") is retried on the reconnect policy, as a broken stream is, instead of
   * leaving the session without it.
   */
  private startGet(): void {
    this.handshaking = false;
    if (this.getStarted || this.closed || this.options.openGetStream === false) return;
    this.getStarted = true;
    const ctx: StreamCtx = { kind: "get", pending: new Set(), ids: new Map(), lastEventId: "", retryMs: undefined, session: this.sessionId };
    // As in send(): an injected sleep that rejects, or a throwing listener, is reported, never an unhandled rejection.
    this.follow(ctx, undefined)
      .catch((e) => this.closed || this.report(`GET stream failed: ${errorText(e)}`))
      .catch(() => {});
  }

  // -------------------------------------------------------------------------------------
  // Messages in

  private deliver(text: string, ctx: StreamCtx): void {
    const modern = ctx.modern;
    if (modern !== undefined) {
      if (modern.cancelled) return;
      if (modern.wireId !== undefined) {
        const restored = restoreReissued(text, modern);
        if (restored === undefined) return;
        text = restored;
      }
      if (text.indexOf(PROGRESS) !== -1) noteProgress(text, modern);
    } else if (ctx.kind === "post" && ctx.asked !== true && holdsRequest(text)) ctx.asked = true;
    if (ctx.modern?.method === "tools/list" && ctx.pending.size > 0) text = this.screenTools(text);
    if (ctx.pending.size > 0 || this.initKey !== undefined) this.noteResponse(text, ctx);
    this.hand(text);
  }

  /**
   * An event too large to keep ({@link HttpClient.unreadable}). The error names the
   * client's `maxMessageBytes`, not the decoder's event bound (which leaves room for field
   * names).
   */
  private dropped(e: { reason: string; head: string; tail: string }, ctx: StreamCtx): void {
    this.report(`dropped an SSE event: ${e.reason}`);
    this.unreadable(decodeOversized(e.head, e.tail, this.maxBytes), oversizedStandIn(e.head, e.tail, this.maxBytes), ctx);
  }

  /**
   * An event whose data held bytes that are not UTF-8 ({@link HttpClient.unreadable}):
   * "JSON-RPC messages MUST be UTF-8 encoded" (2025-11-25 `basic/transports`), and the
   * replacement characters WHATWG decoding put in their place would parse, so it is
   * refused as the stdio channel refuses such a line.
   */
  private notUtf8Event(data: string, ctx: StreamCtx): void {
    this.report("an SSE event is not valid UTF-8");
    const head = data.slice(0, PEEK_WINDOW);
    const tail = data.slice(-TAIL_WINDOW);
    this.unreadable(decodeInvalidUtf8(head, tail), invalidUtf8StandIn(head, tail), ctx);
  }

  /**
   * An event the client cannot read, classified by the codec from its two ends (`d`), as
   * the stdio channel's lines are. A response fails the request it answers at once
   * (`-32603` "malformed response from the peer"), under the id the kernel knows (a
   * re-issued modern request's wire id is mapped back), instead of waiting on a resumption
   * that can only replay it; this stream stops waiting for it too. Anything else (a server
   * request, which the kernel refuses as the codec says) goes to the kernel as the codec's
   * stand-in.
   */
  private unreadable(d: Decoded, standIn: string, ctx: StreamCtx): void {
    if (d.kind !== "invalid" || d.answers === undefined || d.answers === null) return this.hand(standIn);
    const modern = ctx.modern;
    const key = JSON.stringify(modern?.wireId !== undefined && d.answers === modern.wireId ? modern.id : d.answers);
    const id = ctx.ids.get(key);
    if (id === undefined || !ctx.pending.has(key)) return;
    ctx.pending.delete(key);
    this.hand(JSON.stringify(malformedResponseAnswer(id, d.reason)));
  }

  /** Hands text to the receiver, or keeps it until one registers. */
  private hand(text: string): void {
    if (this.receiver !== undefined) this.receiver(text);
    else this.buffered.push(text);
  }

  /** Marks the responses in `text` as arrived; learns the negotiated version from the initialize result. */
  private noteResponse(text: string, ctx: StreamCtx): void {
    // Only responses carry "result" or "error"; anything else is not parsed here.
    if (text.indexOf('"result"') === -1 && text.indexOf('"error"') === -1) return;
    const value = parse(text);
    // An array answers a batch, or is a 2025-03-26 server batching its messages on a stream
    // (2025-03-26 transports: "These responses MAY be batched"), which the kernel reads as
    // well; in any other session the kernel refuses it and fails at once the requests its
    // responses name: answered either way.
    for (const m of Array.isArray(value) ? value : [value]) {
      // A response with both result and error still answers: the kernel fails its request as malformed.
      if (typeof m !== "object" || m === null || "method" in m) continue;
      const { id, result } = m as { id?: unknown; result?: { protocolVersion?: unknown } };
      const key = JSON.stringify(id);
      ctx.pending.delete(key);
      if (ctx.modern !== undefined && result !== undefined) this.protocolVersion = ctx.modern.version;
      if (key === this.initKey) {
        this.initKey = undefined;
        const v = result?.protocolVersion;
        if (isProtocolVersion(v)) this.protocolVersion = v;
      }
    }
  }

  /**
   * Answers the requests of `ctx` that got no response, so the caller does not wait for a
   * timeout: `-32000` "connection closed" when the connection failed (a network error, a
   * stream that broke), `-32603` when the server answered this request badly (an HTTP error
   * status without a JSON-RPC error, no response in the body, another content type) and
   * the session serves on.
   */
  private failed(ctx: StreamCtx, why: string, code: number = ErrorCode.ConnectionClosed): void {
    this.answerWaiting(ctx, why, { code, message: code === ErrorCode.ConnectionClosed ? `connection closed: ${why}` : why });
  }

  /**
   * Answers the requests of `ctx` that got no response with `error`, as it is (a server's
   * own `-32000` gets no "connection closed"); with none waiting, reports `why`.
   */
  private answerWaiting(ctx: StreamCtx, why: string, error: JsonRpcErrorObject): void {
    if (this.closed || ctx.modern?.cancelled || ctx.released) return;
    if (ctx.pending.size === 0) return this.report(why);
    for (const key of [...ctx.pending]) {
      const id = ctx.ids.get(key)!;
      ctx.pending.delete(key);
      this.deliver(JSON.stringify({ jsonrpc: "2.0", id, error }), ctx);
    }
  }

  /** A POST's fetch rejected: a network failure closes what it carried; a fetch wrapper's refusal ({@link isRefusal}) is only that request's failure. */
  private fetchFailed(ctx: StreamCtx, e: unknown): void {
    if (isRefusal(e)) return this.failed(ctx, `the request was not sent: ${errorText(e)}`, ErrorCode.InternalError);
    this.failed(ctx, `POST failed: ${errorText(e)}`);
  }

  // -------------------------------------------------------------------------------------
  // Headers, closing

  /**
   * `x-mcp-header` (draft `streamable-http`, "Custom Headers from Tool Parameters"): a
   * modern `tools/list` result teaches the client which arguments of each tool it mirrors
   * into `Mcp-Param-*` headers, and a tool whose declarations break the rules MUST be
   * excluded from the result (with a warning through `onError`).
   */
  private screenTools(text: string): string {
    const m = parse(text) as { result?: { tools?: unknown } } | undefined;
    const tools = m?.result?.tools;
    if (!Array.isArray(tools)) return text;
    const kept: unknown[] = [];
    for (const t of tools) {
      const name = (t as { name?: unknown } | null)?.name;
      const scan = paramHeadersOf((t as { inputSchema?: unknown } | null)?.inputSchema);
      if (!scan.ok) {
        this.report(`excluded tool ${JSON.stringify(name)} from tools/list: invalid x-mcp-header (${scan.reason})`);
        continue;
      }
      if (typeof name === "string") {
        if (scan.headers.length > 0) this.paramHeaders.set(name, scan.headers);
        else this.paramHeaders.delete(name);
        const hints = (t as { annotations?: { readOnlyHint?: unknown; idempotentHint?: unknown } }).annotations;
        if (hints?.readOnlyHint === true || hints?.idempotentHint === true) this.repeatable.add(name);
        else this.repeatable.delete(name);
      }
      kept.push(t);
    }
    if (kept.length === tools.length) return text;
    m!.result!.tools = kept;
    return JSON.stringify(m);
  }

  private headersFor(text: string | undefined, post: boolean, modern?: Record<string, string>): Record<string, string> {
    const h: Record<string, string> = { ...this.base };
    h[H.accept] = post ? `${JSON_TYPE}, ${SSE_TYPE}` : SSE_TYPE;
    if (post) h[H.contentType] = JSON_TYPE;
    if (modern !== undefined) Object.assign(h, modern);
    else {
      if (this.sessionId !== undefined) h[H.sessionId] = this.sessionId;
      if (this.protocolVersion !== undefined) h[H.protocolVersion] = this.protocolVersion;
    }
    const extra = text === undefined ? undefined : this.options.requestHeaders?.(text);
    if (extra !== undefined) {
      for (const k in extra) {
        if (isHeaderName(k) && isSafeHeaderValue(extra[k])) h[k] = extra[k];
        else this.report(`dropped unsafe header ${JSON.stringify(k)}`);
      }
    }
    return h;
  }

  private shut(reason: string, deleteSession: boolean): void {
    if (this.closed) return;
    this.closed = true;
    this.abort.abort();
    this.getOpened?.();
    for (const f of this.fetches) f.abort();
    this.fetches.clear();
    for (const ctx of this.inflight.values()) ctx.modern?.abort.abort("transport closed");
    this.inflight.clear();
    for (const ctx of this.followed) letGo(ctx.reader);
    if (deleteSession) this.deleteSession();
    this.closeReason = reason;
    this.closeListener?.(reason);
  }

  /** Spec: clients that no longer need a session SHOULD DELETE it (405 means the server keeps it). */
  private deleteSession(): void {
    if (this.sessionId === undefined) return;
    // A courtesy (SHOULD): a custom fetch or header callback that throws at once must not make close() throw.
    try {
      Promise.resolve(this.fetch(this.url, { method: "DELETE", headers: this.headersFor(undefined, false) })).then(discard, () => {});
    } catch {
      // nothing to undo: the session is left to the server's idle timeout
    }
  }

  private report(message: string): void {
    this.options.onError?.(message);
  }
}

/**
 * `MetaKey.protocolVersion` quoted, whose presence marks a modern message. Spelled out: a
 * top-level property read is a statement a bundler keeps, in every consumer's bundle.
 * Exported for the test that ties it to `MetaKey.protocolVersion`.
 * @internal
 */
export const META_VERSION = '"io.modelcontextprotocol/protocolVersion"';

/** A modern request or notification, as far as its headers need it. */
interface ModernMessage {
  id?: RequestId;
  method: string;
  params?: JsonObject;
  version: string;
}

/** The message in `text` when it is a single request or notification carrying `_meta` protocolVersion. */
function modernMessage(text: string): ModernMessage | undefined {
  const m = parse(text) as { id?: unknown; method?: unknown; params?: { _meta?: Record<string, unknown> } } | undefined;
  if (m === null || typeof m !== "object" || Array.isArray(m) || typeof m.method !== "string") return undefined;
  const version = m.params?._meta?.[MetaKey.protocolVersion];
  if (typeof version !== "string") return undefined;
  const out: ModernMessage = { method: m.method, params: m.params as JsonObject, version };
  if (typeof m.id === "string" || typeof m.id === "number") out.id = m.id;
  return out;
}

const LISTEN = "subscriptions/listen";
const PROGRESS = '"notifications/progress"';

/** `text` (a modern request) with its id replaced by `id`. */
function withId(text: string, id: string): string {
  const m = JSON.parse(text) as { id?: unknown };
  m.id = id;
  return JSON.stringify(m);
}

/** The `progress` of a progress notification in `text`, or undefined. */
function progressOf(text: string): number | undefined {
  const m = parse(text) as { method?: unknown; params?: { progress?: unknown } } | undefined;
  const p = m?.method === "notifications/progress" ? m.params?.progress : undefined;
  return typeof p === "number" ? p : undefined;
}

function noteProgress(text: string, modern: ModernCtx): void {
  const p = progressOf(text);
  if (p !== undefined && (modern.progress === undefined || p > modern.progress)) modern.progress = p;
}

/**
 * A message on a re-issued request's stream, as the kernel must see it: the response to
 * the new id carries the kernel's id again; a progress notification not past what was
 * delivered already is a repeat of the lost attempt's, and is dropped (undefined).
 */
function restoreReissued(text: string, modern: ModernCtx): string | undefined {
  if (text.indexOf(PROGRESS) !== -1) {
    const p = progressOf(text);
    return p !== undefined && modern.progress !== undefined && p <= modern.progress ? undefined : text;
  }
  if (text.indexOf(modern.wireId!) === -1) return text;
  const m = parse(text) as { id?: unknown; method?: unknown } | undefined;
  if (m === undefined || m === null || typeof m !== "object" || Array.isArray(m) || "method" in m || m.id !== modern.wireId) return text;
  m.id = modern.id;
  return JSON.stringify(m);
}

/**
 * Whether `ctx` is a request's POST stream with nothing left to wait for on it: every
 * request it carried is answered (or cancelled). Never the standalone GET stream, nor a
 * `subscriptions/listen` stream, whose notifications are what it is for.
 */
function answered(ctx: StreamCtx): boolean {
  return ctx.kind === "post" && ctx.pending.size === 0 && ctx.ids.size > 0 && ctx.modern?.method !== LISTEN;
}

function track(ctx: StreamCtx, id: RequestId): void {
  const key = JSON.stringify(id);
  ctx.pending.add(key);
  ctx.ids.set(key, id);
}

/**
 * Whether an error body names a request of `ctx` still waiting: as its id, or (a
 * 2025-03-26 batch's errors, one per invalid member) as the id of one of its members.
 */
function answersPending(reply: unknown, ctx: StreamCtx): boolean {
  const names = (m: unknown): boolean => {
    const id = typeof m === "object" && m !== null ? (m as { id?: unknown }).id : undefined;
    return (typeof id === "string" || typeof id === "number") && ctx.pending.has(JSON.stringify(id));
  };
  return Array.isArray(reply) ? reply.some(names) : names(reply);
}

/** Whether `s` can be a header value for fetch as far as its characters go: none above U+00FF. */
function isByteString(s: string): boolean {
  return !/[^\u0000-\u00ff]/.test(s);
}

/**
 * Whether a message (or a 2025-03-26 batch) holds a request. The peek reads only the start
 * of one object; SDK 1.x writes a request's `id` after its params, and a batch is an array:
 * then, when the text names both, it is parsed.
 */
function holdsRequest(text: string): boolean {
  if (peekRequestId(text) !== null) return true;
  if (text.indexOf('"method"') === -1 || text.indexOf('"id"') === -1) return false;
  const v = parse(text);
  const isRequest = (m: unknown): boolean => typeof m === "object" && m !== null && "method" in m && "id" in m;
  return Array.isArray(v) ? v.some(isRequest) : isRequest(v);
}

/**
 * Why a response body (`what`) whose bytes are not UTF-8 fails what it answers: "JSON-RPC
 * messages MUST be UTF-8 encoded" (2025-11-25 `basic/transports`), so no code or id in it
 * can be trusted.
 */
function notUtf8(what: string): string {
  return malformedResponseMessage(`${what} is not valid UTF-8`);
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The first message of a JSON or SSE response body, of at most `maxBytes` (the rest is
 * discarded); {@link NOT_UTF8_BODY} when its bytes are not UTF-8, undefined when there is
 * none to read.
 */
async function firstMessage(res: Response, maxBytes: number): Promise<string | typeof NOT_UTF8_BODY | undefined> {
  if (mediaTypeOf(res.headers.get(H.contentType)) !== SSE_TYPE) {
    const read = await readBodyText(res, maxBytes);
    return read.ok ? read.text : read === NOT_UTF8_BODY ? read : undefined;
  }
  if (res.body === null) return undefined;
  const reader = res.body.getReader();
  const decoder = createSseDecoder(sseLimits(maxBytes));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return undefined;
      for (const o of feedSse(decoder, value)) if (o.type === "event" && o.data !== "") return o.invalidUtf8 === true ? NOT_UTF8_BODY : o.data;
    }
  } catch {
    return undefined;
  } finally {
    letGo(reader);
  }
}

/** An SSE event may hold a message of `maxBytes` and its field names. */
function sseLimits(maxBytes: number): { maxEventSize: number } {
  return { maxEventSize: maxBytes + 1024 };
}

/**
 * Why a session cannot go on whose initialize answer carried no `MCP-Session-Id` the client
 * could read, while the server refuses the next request (400) as it lacks one: the client
 * MUST send the id on every later request (2025-11-25 `basic/transports`, Session
 * Management), so each would fail and the server's session is left behind. A server on
 * another origin that does not expose the header looks like this: fetch hides it.
 * `refusal` is the 400's own error message, if it had one.
 */
function unreadSession(refusal: string | undefined): string {
  const said = refusal === undefined ? "" : ` ("${refusal}")`;
  return `the server answered notifications/initialized with HTTP 400${said} and its initialize answer had no MCP-Session-Id the client could read: the response was cross-origin, and a server on another origin must expose it with Access-Control-Expose-Headers: MCP-Session-Id`;
}

/** The `error.message` of a response whose body is a JSON-RPC error (read up to `maxBytes`). */
async function errorMessageOf(res: Response, maxBytes: number): Promise<string | undefined> {
  const read = await readBodyText(res, maxBytes);
  const reply = read.ok ? (parse(read.text) as { error?: { message?: unknown } } | null | undefined) : undefined;
  return typeof reply?.error?.message === "string" ? reply.error.message : undefined;
}

/** Releases a response body we will not read. */
function discard(res: Response): void {
  letGo(res.body);
}

/** An error a fetch wrapper marks as final (`retryable: false`): the connection is fine, the request cannot be sent as it is. */
function isRefusal(e: unknown): boolean {
  return typeof e === "object" && e !== null && (e as { retryable?: unknown }).retryable === false;
}
