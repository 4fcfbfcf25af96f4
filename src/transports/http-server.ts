/**
 * The Streamable HTTP server: a fetch-style handler, `(Request) => Promise<Response>`,
 * that runs one session kernel per MCP session.
 *
 * Spec: 2025-11-25 `basic/transports` ("Streamable HTTP"), the same page of 2025-06-18
 * and 2025-03-26 (batches), SEP-1699 (polling by server-side disconnect); the draft's
 * `basic/transports/streamable-http` and `basic/versioning` for the modern era.
 *
 * Theory of operation. The handler owns HTTP mechanics only. Per request, in order:
 * endpoint path, the request guards (`http/request-guards.ts`): DNS-rebinding checks
 * (`Host`, then `Origin`: 403, both eras) and CORS for an admitted `Origin` (a preflight is
 * answered there and then; every other answer gets the origin's headers), the era
 * (a modern `MCP-Protocol-Version` skips every session rule; GET and DELETE are then 405),
 * then the method: POST carries messages, GET opens or resumes an SSE stream, DELETE ends
 * the session, anything else is 405. A POST whose body is a request naming its protocol
 * version in `_meta` is modern as well, with or without a session id (draft
 * `basic/versioning`: the server chooses per request), and is served statelessly by
 * {@link serveModern}: one kernel per
 * request, the request metadata headers checked against the body, cancellation by
 * closing the response stream (see `http/modern-request.ts`). A POST is checked outside in: `Accept` (406),
 * `Content-Type` (415), session id (400 missing, 404 unknown), protocol version (400),
 * body size (413), then the codec (400 with the JSON-RPC error: -32700 for bad JSON,
 * -32600 for a bad message or a batch outside 2025-03-26). Only then does the kernel see
 * the body; of a 2025-03-26 batch, only its valid members (each invalid one is answered
 * on its own, JSON-RPC 2.0 §6: see `partlyInvalid`). Notifications and responses alone
 * get 202; requests get an SSE stream (or, with `enableJsonResponse`, one JSON body) that
 * {@link HttpSession} routes messages to (`http/legacy-exchange.ts`).
 *
 * The checks run on an {@link HttpRequestView} and answer a `Response` or an
 * {@link HttpReply} (`http-view.ts`): the public `(Request) => Promise<Response>` entry
 * wraps the `Request` and turns replies into `Response`s, and the node:http bridge reaches
 * the same core through the handler's fast entry, without Fetch objects.
 *
 * Every JSON-RPC decision (what to answer, in which phase, with which error) is the
 * kernel's, run by an {@link Endpoint} built from the application's `createSession`
 * factory. Sessions are created by a POSTed `initialize` and kept only if the kernel
 * accepted it; they end by DELETE, by idle timeout, by a fatal kernel error, or by
 * {@link HttpHandler.terminate} (the table: `http/session-table.ts`). With `stateless`,
 * no session outlives its POST: each gets a kernel of its own (`http/stateless.ts`). With
 * `httpSse`, the handler also serves the deprecated HTTP+SSE transport at its two paths,
 * whose sessions a GET opens (`http/http-sse-server.ts`). Time comes from a
 * {@link Clock}, so tests drive polling and idle timeouts on virtual time.
 *
 * This file keeps the public types, {@link createHttpHandler} (option defaults, the order
 * of the checks, the POST, GET and DELETE handlers, the handler's operations) and the
 * refusals of a modern-only server. The rest is under `http/`: the option checks
 * (`handler-options.ts`), the request guards, the legacy session table, the legacy POST's
 * exchange, the stateless POST (`stateless.ts`), the HTTP+SSE transport
 * (`http-sse-server.ts`), the modern request (`modern-request.ts`) and one session's
 * streams (`server-session.ts`).
 *
 * Header choices the spec leaves open, and why:
 * - a `Host` outside `allowedHosts` gets 403, like a bad `Origin`: both checks are the
 *   spec's DNS-rebinding defence ("MUST respond with HTTP 403 Forbidden"), and a
 *   rebinding page sends its own host name, so one status keeps clients' handling
 *   uniform (421 Misdirected Request would claim a routing error, which it is not);
 * - an absent `MCP-Protocol-Version` in a session means the version the session
 *   negotiated: the spec has the server assume 2025-03-26 only when it has "no other way
 *   to identify the version", and names "relying on the protocol version negotiated
 *   during initialization" as such a way (`strictProtocolVersionHeader: true` assumes
 *   2025-03-26 instead, so a session at a later version answers 400); a header naming
 *   another version than the session's is "unsupported" for that session: 400;
 * - each GET without `Last-Event-ID` gets a stream of its own (see server-session.ts); a
 *   GET with `Last-Event-ID` replaces whatever connection that stream had (the client
 *   has evidently lost it).
 */
import { errorText } from "./error-text.js";
import type { Endpoint, EndpointHooks, RequestHandler } from "../driver/endpoint.js";
import { systemClock, type Clock } from "../driver/clock.js";
import type { Callback } from "../driver/listener.js";
import { decode, encode, type Decoded } from "../jsonrpc/codec.js";
import { ErrorCode } from "../jsonrpc/errors.js";
import type { JsonObject, RequestId } from "../jsonrpc/types.js";
import { isModernVersion, MODERN_VERSIONS } from "../model/versions.js";
import { acceptsBatches } from "../session/session.js";
import type { SessionOptions, SessionOutput } from "../session/types.js";
import { DEFAULT_MAX_BODY_BYTES, httpError, jsonResponse, refusalReason, refusedBodyText, RETRY_SOON } from "./http/body.js";
import { parseEventId, type EventStoreLimits } from "./http/event-log.js";
import { accepts, H, isJsonContentType, JSON_TYPE, SSE_TYPE, type AllowList } from "./http/headers.js";
import type { HttpSession } from "./http/server-session.js";
import type { SseConnection } from "./http/connection.js";
import { modernVersionOf, serveModern, type ModernConfig } from "./http/modern-request.js";
import { paramHeadersOf, type ParamHeader } from "./http/request-metadata.js";
import { refuseMisreadOptions } from "./http/handler-options.js";
import { doorRefusal, guarded, requestGuards } from "./http/request-guards.js";
import { contextOf, createSessionTable } from "./http/session-table.js";
import { exchange, partlyInvalid, type ExchangeContext } from "./http/legacy-exchange.js";
import { Drain, drainMsOf } from "./http/drain.js";
import { serveStateless, statelessVersion, type StatelessContext } from "./http/stateless.js";
import { createHttpSseSessions, type HttpSseOptions, type HttpSseSessions } from "./http/http-sse-server.js";
import { DOOR_CHECK, emptyReply, FAST_ENTRY, RequestView, sseReply, toResponse, type FastEntry, type HttpReply, type HttpRequestView } from "./http-view.js";

/** What the session factory is told. */
export interface HttpSessionContext {
  /** The id this session will have if `initialize` succeeds (an HTTP+SSE session's, from its GET); `""` when there is no session: a modern request, or a 2025-era POST on a stateless handler. */
  sessionId: string;
  /** The HTTP request that opens the session (its `initialize`; an HTTP+SSE session's GET), or the request served without one (headers for authentication, say). */
  request: Request;
  /** `legacy`: a session for `initialize` (on a stateless handler: for one POST); `modern`: one stateless 2026-07-28 request, ended with its response. */
  era: "legacy" | "modern";
}

/**
 * What the session factory returns: the kernel's options and the application's handlers.
 * For a modern request the same hooks run for that one request: `onOpen` before it is
 * fed, `onClose` once it is answered or cancelled. Whenever the factory has run, `onClose`
 * runs once: a session or request refused before it opened (an `initialize` or a request
 * over the limits, a header mismatch) gets it without `onOpen`.
 */
export interface HttpSessionSetup {
  /** Server session options (role `server`). */
  options: SessionOptions;
  /** Serves the client's requests (default: every request is method-not-found). */
  onRequest?: RequestHandler | undefined;
  /** The client's notifications. */
  onNotification?: Callback<(method: string, params: JsonObject | undefined) => void> | undefined;
  /** Every other kernel output (diagnostics, `initialized`, ...). */
  onEvent?: Callback<(event: SessionOutput) => void> | undefined;
  /** Where an error an application callback of the session's endpoint throws goes (see {@link EndpointHooks.onError}). */
  onError?: Callback<(error: unknown) => void> | undefined;
  /** The session's endpoint exists (use it for server-initiated messages, e.g. list_changed). */
  onOpen?: Callback<(endpoint: Endpoint, sessionId: string) => void> | undefined;
  /** The session ended, with why. */
  onClose?: Callback<(reason: string) => void> | undefined;
  /**
   * Records this session's endpoint as a kernel transcript (see {@link EndpointHooks.record}):
   * the factory runs once per legacy session, stateless POST and modern request, so each
   * gets its own transcript (the context's `sessionId` and `era` tell them apart).
   */
  record?: Callback<(line: string) => void> | undefined;
  /**
   * Who a request speaks for (with `protectedResource`: `(req) => authInfo(req)?.token.subject`).
   * A legacy session is bound to the principal of its `initialize` (an HTTP+SSE session: of its GET): a later POST, GET or
   * DELETE naming the session whose principal differs is answered 404 exactly as an
   * unknown session is (2025-11-25 Security Best Practices, "Session Hijacking": servers
   * MUST NOT use sessions for authentication and SHOULD bind session ids to user-specific
   * information). A session whose `initialize` had no principal is bound to none.
   * `McpServer.httpSession({ principalOf })` supplies it.
   */
  principalOf?: Callback<(request: Request) => string | undefined> | undefined;
  /**
   * The `inputSchema` of the tool `name` as registered now (undefined: no such tool), so
   * a modern `tools/call` has the `Mcp-Param-*` headers of its `x-mcp-header` parameters
   * checked against its body (draft `streamable-http`, "Server Behavior for Custom
   * Headers"). `McpServer.httpSession()` supplies it from the server's registry.
   */
  toolInputSchema?: Callback<(name: string) => unknown> | undefined;
}

/** A transport-level event worth telling the operator about, that needs no action. */
export interface HttpDiagnostic {
  code: string;
  message: string;
  sessionId?: string;
  detail?: unknown;
}

/** Options of {@link createHttpHandler}. */
export interface HttpHandlerOptions {
  /** Builds a session when a client initializes. May throw (the client gets 500). */
  createSession(ctx: HttpSessionContext): HttpSessionSetup;
  /** Serve only this path (e.g. `/mcp`); other paths get 404, but `httpSse`'s. Default: every path. */
  path?: string | undefined;
  /** Origins allowed to call (list or predicate). Default: http(s) on localhost, 127.0.0.1, [::1], any port. Requests without `Origin` are allowed. */
  allowedOrigins?: AllowList | undefined;
  /**
   * CORS for the allowed origins (`http/cors.ts`): a browser page on another origin that
   * `allowedOrigins` accepts gets its preflight answered and can read `MCP-Session-Id`.
   * Only allowed origins are echoed, never `*`. Default true; `false` answers no CORS.
   */
  cors?: boolean | undefined;
  /** Host names (no port) allowed in `Host`. Default: localhost, 127.0.0.1, [::1]. `false` disables the check (behind a proxy that does it). */
  allowedHosts?: AllowList | false | undefined;
  /**
   * Answer requests with one JSON body instead of an SSE stream. Default false. A legacy
   * request's notifications then go to the session's GET stream; a modern (2026-07-28)
   * request has no other stream, so its notifications (log messages, progress) are dropped.
   */
  enableJsonResponse?: boolean | undefined;
  /**
   * `false` for a server that speaks only 2026-07-28 (its sessions' `versions` should hold
   * no 2025-era version): a GET or DELETE from an older client is then 405 with `Allow: POST`
   * (draft streamable-http, Backward Compatibility: SHOULD) instead of the 2025-era
   * session rules' 400, and every `initialize` gets 400 -32022 naming the versions, no
   * session (even if the sessions' `versions` list a 2025-era one). Default true.
   */
  legacy?: boolean | undefined;
  /**
   * Serve 2025-era clients without sessions (`http/stateless.ts`), for deployments where
   * any instance may get any request (serverless, edge workers): no `MCP-Session-Id` is
   * issued, each POST is served by a kernel of its own that is handed the client's
   * handshake (at the version its `MCP-Protocol-Version` names), GET and DELETE get 405.
   * The client then has no capabilities: the server cannot send it requests (sampling,
   * elicitation, roots), only notifications on a request's stream; `maxSessions` bounds
   * the POSTs in progress. The SDK's `sessionIdGenerator: undefined`. Default false.
   */
  stateless?: boolean | undefined;
  /**
   * Also serve the deprecated HTTP+SSE transport (2024-11-05) for older clients, at these
   * paths of the same origin (`{ path: "/sse", messagesPath: "/messages" }`): a GET of
   * `path` opens a session and its stream, whose first event names the POST endpoint
   * (`http/http-sse-server.ts`). Its sessions count under `maxSessions` with the others,
   * and end with their stream. Default: not served (404).
   */
  httpSse?: HttpSseOptions | undefined;
  /** Session ids: visible ASCII, unguessable. Default: 128 bits from `crypto.getRandomValues`, as hex. */
  sessionIdGenerator?: (() => string) | undefined;
  /** Most sessions at once; an `initialize` past it gets 503. Default 1000. */
  maxSessions?: number | undefined;
  /** Replay log bounds, and how many finished POST streams a session keeps for replay (default 64). */
  eventStore?: (EventStoreLimits & { maxRetainedStreams?: number | undefined }) | undefined;
  /** The `retry` field of priming events and of server-side closes, in ms. Default 1000. Sessions before 2025-11-25 get no priming event (SEP-1699 is 2025-11-25). */
  retryMs?: number | undefined;
  /** SEP-1699 polling: close each SSE connection this long after it opens (the stream lives on). Default 0: never. Only sessions at 2025-11-25: earlier versions' servers SHOULD NOT close a stream before its response. */
  pollingCloseAfterMs?: number | undefined;
  /** End a session after this long without requests and without open connections (SSE streams, and POSTs whose client still awaits a JSON answer), in ms. Default 30 min; 0 disables. */
  sessionIdleMs?: number | undefined;
  /** Largest request body, in bytes (413 past it). Default 4 MiB. */
  maxBodyBytes?: number | undefined;
  /**
   * Most bytes queued on one SSE connection for a slow reader before it is closed (the client
   * resumes); the reader gets what was queued, but what it has not taken 30 s later is
   * dropped (the body errors). Default 8 MiB.
   */
  maxQueuedBytes?: number | undefined;
  /**
   * An SSE comment line (`: keepalive`) on every open SSE stream (GET and POST streams, modern
   * streams, `subscriptions/listen`) that wrote nothing for a whole interval, in ms (draft
   * `streamable-http`: servers are encouraged to emit one during quiet periods). It keeps
   * proxies from timing out a quiet stream, and a peer that vanished without closing TCP
   * fails the write, so its connection (and then its idle session) is reclaimed. Default
   * 8 000, under Bun.serve's default `idleTimeout` of 10 s, which otherwise cuts a quiet
   * stream (and, for a modern request, cancels its tool); 0 disables.
   */
  sseKeepAliveMs?: number | undefined;
  /** Most modern (2026-07-28) requests in progress at once, `subscriptions/listen` streams included; past it a request gets 503 with a JSON-RPC error body. Default 1000. */
  maxModernRequests?: number | undefined;
  /**
   * Most `subscriptions/listen` streams open at once (modern era), within
   * `maxModernRequests`: past it a listen gets 503 with a JSON-RPC error body, so that
   * streams, which last as long as their clients like, cannot take every place and leave
   * calls and `server/discover` with none. Default: half of `maxModernRequests` (at least 1).
   */
  maxListenStreams?: number | undefined;
  /**
   * Modern era: how long a request that has sent nothing waits before its response becomes
   * an SSE stream, in ms. Until then an answer is one JSON body with the status the draft
   * ties to it (400 for -32021 / -32602 `_meta` errors). Default 1000.
   */
  modernStreamAfterMs?: number | undefined;
  /** Treat an absent `MCP-Protocol-Version` in a session as 2025-03-26 rather than as the session's negotiated version (see the module comment). Default false. */
  strictProtocolVersionHeader?: boolean | undefined;
  /** Time source for polling and idle timeouts. Default: {@link systemClock}. */
  clock?: Clock | undefined;
  /** Transport diagnostics (lost or unroutable messages, replay gaps). */
  onDiagnostic?: Callback<(d: HttpDiagnostic) => void> | undefined;
  /**
   * The `inputSchema` of a tool, so the `Mcp-Param-*` headers of its `x-mcp-header`
   * parameters are validated against a `tools/call` body (draft `streamable-http`,
   * "Custom Headers from Tool Parameters"). When given it takes the place of the
   * setup's {@link HttpSessionSetup.toolInputSchema}; with neither, no `Mcp-Param-*`
   * header is recognized (and so none is checked).
   */
  toolInputSchema?: Callback<(name: string) => unknown> | undefined;
  /**
   * Replaces the built-in modern-era path: requests whose `MCP-Protocol-Version` is a
   * modern version come here, untouched (body unread), after the path, Host and Origin
   * checks. Default: {@link serveModern}, one stateless request per POST.
   */
  modern?: Callback<(req: Request) => Promise<Response>> | undefined;
}

/** The handler, plus operations on its sessions. */
export interface HttpHandler {
  /** Serves one HTTP request. Never rejects. */
  (req: Request): Promise<Response>;
  /** The endpoint of a live session; undefined for an id of none (or none at all: a `ctx.sessionId` of a modern request). */
  session(sessionId: string | undefined): Endpoint | undefined;
  /** Live sessions, of both transports (on a stateless handler: its POSTs in progress). */
  readonly sessionCount: number;
  /** Server-side close of every live SSE connection (of one session, or all); streams stay resumable (SEP-1699). A session before 2025-11-25 keeps its POST streams (closed before their first event, they could not be resumed). Returns how many closed. */
  closeConnections(sessionId?: string): number;
  /** Ends a session (later requests with its id get 404). Returns false if there was none. */
  terminate(sessionId: string, reason?: string): boolean;
  /**
   * Ends every session (each running request answered with `-32000`), and every modern
   * request in progress: a `subscriptions/listen` stream gets its completion result, any
   * other request `-32603` (the draft keeps `-32000` for legacy use), then its stream ends. The handler then takes no more work: a later
   * request gets 503 with a JSON-RPC error body (an `initialize`, a modern request), or 404
   * when it names one of the ended sessions.
   *
   * With `drainMs`, a graceful close: from now on no session, modern request, or request on
   * a live session starts (503), each open `subscriptions/listen` gets its completion
   * result, and each legacy session with no request running nor answer waiting for its client ends (its next request gets
   * 404); the requests in flight run on, and what they need still comes in (the client's
   * answers to the server's requests, cancellations, GET streams and their resumption),
   * each session ending once its last is answered and the answer reached its client (one
   * waiting in the replay log for a client between SEP-1699 polls holds the session until
   * that client resumes). Once none is left, or `drainMs` has
   * passed, the handler closes as above. The promise
   * resolves then (at once without `drainMs`); it never rejects (a `drainMs` that is not a
   * number >= 0 throws a `RangeError` at once). A later call can only bring
   * the end nearer. Tasks run on in their runtime: a drain does not wait for them, except
   * for a 2025-11-25 `tasks/result` still waiting on its task, which is a request in flight.
   */
  close(options?: HttpCloseOptions): Promise<void>;
}

/** Options of {@link HttpHandler.close}. */
export interface HttpCloseOptions {
  /**
   * How long the requests in flight may run on, in ms (`Infinity`: until they are done).
   * Default 0: close at once.
   */
  drainMs?: number | undefined;
}

const ALLOW = "GET, POST, DELETE";

/** Builds a Streamable HTTP handler. See the module comment. */
export function createHttpHandler(options: HttpHandlerOptions): HttpHandler {
  refuseMisreadOptions(options);
  const clock = options.clock ?? systemClock;
  const retryMs = options.retryMs ?? 1000;
  if (!Number.isSafeInteger(retryMs) || retryMs < 0) throw new RangeError("retryMs must be a non-negative integer");
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxQueuedBytes = options.maxQueuedBytes ?? 8 * 1024 * 1024;
  const sseKeepAliveMs = options.sseKeepAliveMs ?? 8_000;
  const jsonMode = options.enableJsonResponse === true;
  const guards = requestGuards(options);

  const diagnose = (code: string, message: string, sessionId?: string, detail?: unknown): void => {
    options.onDiagnostic?.(sessionId === undefined ? { code, message, detail } : { code, message, sessionId, detail });
  };
  const live = new Set<{ shutdown(reason: string): void }>();
  const listens = new Set<{ shutdown(reason: string): void }>();
  const maxRequests = options.maxModernRequests ?? 1000;
  // 503: nothing of the request ran, so a client may send it again, and `Connection: close`
  // moves its next attempt off this server's pooled connection (behind a load balancer, to
  // another instance).
  const goingAway = { ...RETRY_SOON, Connection: "close" };
  const refuseClosed = (id: RequestId | null = null): Response =>
    httpError(503, ErrorCode.InvalidRequest, drain?.over === false ? "the server is closing: it takes no new requests" : "the server is closed", { id, headers: goingAway });
  /** Set by the first `close()`: the handler takes no new work (503); until the drain is over, the requests in flight run on. */
  let drain: Drain | undefined;
  // Counted after the answer is routed, not inside it: the close a drain ends with would
  // otherwise run inside the session's own send.
  const settled = (): void => {
    if (drain !== undefined) queueMicrotask(drain.check);
  };
  // Each schema object is scanned once: a registry hands out the same object per registration.
  const scanned = new WeakMap<object, readonly ParamHeader[] | undefined>();
  const modernConfig: ModernConfig = {
    setup: options.legacy === false ? (req) => modernOnly(options.createSession(contextOf(req, "", "modern"))) : (req) => options.createSession(contextOf(req, "", "modern")),
    clock,
    jsonMode,
    maxQueuedBytes,
    sseKeepAliveMs,
    maxRequests,
    maxListens: options.maxListenStreams ?? Math.max(1, Math.floor(maxRequests / 2)),
    streamAfterMs: options.modernStreamAfterMs ?? 1000,
    paramHeaders: (tool, setup) => {
      const schema = options.toolInputSchema !== undefined ? options.toolInputSchema(tool) : setup.toolInputSchema?.(tool);
      if (schema === null || typeof schema !== "object") return undefined;
      if (scanned.has(schema)) return scanned.get(schema);
      const scan = paramHeadersOf(schema);
      // An invalid declaration: clients exclude the tool, so no header of it is recognized.
      const headers = scan.ok ? scan.headers : undefined;
      scanned.set(schema, headers);
      return headers;
    },
    diagnose: (code, message, detail) => diagnose(code, message, undefined, detail),
    live,
    listens,
    settled,
  };
  const { sessions, newSession, admit, sessionOf, freshId } = createSessionTable({
    options,
    clock,
    retryMs,
    maxQueuedBytes,
    sseKeepAliveMs,
    diagnose,
    settled,
    others: { get size() { return oldSse?.sessions.size ?? 0; }, has: (id: string) => oldSse?.sessions.has(id) ?? false },
  });
  const exchanges: ExchangeContext = { jsonMode, admit, hookFailed: (e) => diagnose("handler-error", errorText(e)) };
  const stateless = options.stateless === true;
  const statelessContext: StatelessContext = { exchanges, newSession, diagnose };
  const oldSse: HttpSseSessions | undefined =
    options.httpSse === undefined ? undefined : createHttpSseSessions({ options, httpSse: options.httpSse, clock, maxBodyBytes, maxQueuedBytes, sseKeepAliveMs, freshId: () => freshId(), settled, diagnose });

  // -------------------------------------------------------------------------------------
  // Methods

  // A client sends the same `Accept` on every POST: its verdict is kept for the next.
  let acceptSeen: string | null | undefined;
  let acceptOk = false;

  /**
   * A POST. `modern`: its `MCP-Protocol-Version` names a modern version, so no session
   * rule applies (a stray `MCP-Session-Id` is ignored, draft `streamable-http`, Backward
   * Compatibility). A request whose `_meta` names a protocol version is modern too, whatever
   * the header says and whatever session it names (its header check then reports the
   * mismatch); so is a notification without a session.
   */
  async function post(req: HttpRequestView, modern: boolean): Promise<Response | HttpReply> {
    const accept = req.header(H.accept);
    if (accept !== acceptSeen) {
      acceptSeen = accept;
      acceptOk = accepts(accept, JSON_TYPE) && accepts(accept, SSE_TYPE);
    }
    if (!acceptOk) {
      return httpError(406, ErrorCode.InvalidRequest, `the client must accept both ${JSON_TYPE} and ${SSE_TYPE}`);
    }
    const ct = req.header(H.contentType);
    if (!isJsonContentType(ct)) return httpError(415, ErrorCode.InvalidRequest, `Content-Type must be ${JSON_TYPE}`);
    let session: HttpSession | undefined;
    // A modern-only server ignores `MCP-Session-Id` (draft streamable-http, Backward
    // Compatibility), and so does a stateless one, which never issued one.
    if (!modern && !stateless && options.legacy !== false && req.header(H.sessionId) !== null) {
      const s = sessionOf(req);
      if (s instanceof Response) return s;
      session = s;
    }
    const body = await req.readBody(maxBodyBytes);
    if (!body.ok) return httpError(body.status, body.status === 413 ? ErrorCode.InvalidRequest : ErrorCode.ParseError, body.reason);
    // Closed while the body was read: no session or modern request starts after close().
    if (drain !== undefined && session === undefined) return refuseClosed();
    if (session?.closed) return httpError(404, ErrorCode.InvalidRequest, "session not found");
    const state = session?.endpoint.state;
    // Batches only where the kernel takes them: a 2025-03-26 session past initialize (on a
    // stateless handler, a POST naming 2025-03-26, or no version).
    const allowBatch = state !== undefined ? acceptsBatches(state) : stateless && !modern && statelessVersion(req) === "2025-03-26";
    // The session's own limits where it has them, so the kernel never refuses what passed here.
    const d = decode(body.bytes, state === undefined ? { allowBatch, maxBytes: maxBodyBytes } : { allowBatch, maxBytes: Math.min(maxBodyBytes, state.options.maxMessageBytes), maxDepth: state.options.maxDepth });
    if (d.kind === "invalid") {
      // A malformed answer to one of the session's requests (alone, or in a refused array)
      // fails that request now, not at its timeout; one that is not UTF-8 goes to the kernel
      // as the stdio channel's stand-in for such a line, which names what it answers.
      // So does a message with neither a method nor an answer naming one of them (`orAnswers`).
      if (session !== undefined && (d.answers != null || d.orAnswers !== undefined)) session.refused(refusedBodyText(body.bytes));
      return jsonResponse(400, encode(d.reply));
    }
    if (session === undefined && (d.kind === "request" || d.kind === "notification") && (modern || modernVersionOf(d.message) !== undefined)) {
      return serveModern(req, d.message, body.bytes, modernConfig);
    }
    // A request whose `_meta` names its version is modern even when it names a legacy
    // session: a dual-era server serves it statelessly (draft basic/versioning), so its
    // headers are checked against its body (draft streamable-http, Protocol Version Header:
    // a mismatch MUST be 400 HeaderMismatch). Handed to the session's kernel it would be
    // served unchecked. A notification stays with the session (a legacy one, cancelling one
    // of its requests say, may carry any `_meta`).
    if (session !== undefined && d.kind === "request" && modernVersionOf(d.message) !== undefined) {
      if (drain !== undefined) return refuseClosed(d.message.id);
      return serveModern(req, d.message, body.bytes, modernConfig);
    }
    // A batch is legacy (2025-03-26 only): a modern request in one has no headers of its
    // own, and this POST's version header is not its version, so it is a mismatch.
    if (d.kind === "batch") {
      if (d.items.some((i) => i.kind === "request" && modernVersionOf(i.message) !== undefined)) {
        return httpError(400, ErrorCode.HeaderMismatch, `Header mismatch: a batched request names its protocol version in _meta, which the ${H.protocolVersion} header of a batch does not (a modern request is POSTed alone)`);
      }
    }
    if (modern) return httpError(400, ErrorCode.InvalidRequest, "the body of a POST MUST be a single JSON-RPC request or notification (clients MUST NOT send responses)");
    const items = d.kind === "batch" ? d.items : [d];
    const ids: RequestId[] = [];
    const messages: unknown[] = [];
    // Where the invalid members of a batch are (a single message's were refused above).
    const invalid: number[] = [];
    let initialize = false;
    for (let i = 0; i < items.length; i++) {
      const each = items[i];
      if (each.kind === "invalid") {
        invalid.push(i);
        continue;
      }
      // Batch members are single messages: the codec classifies a nested array as invalid.
      const item = each as Exclude<Decoded, { kind: "batch" | "invalid" }>;
      messages.push(item.message);
      if (item.kind === "request") {
        ids.push(item.message.id);
        if (item.message.method === "initialize") initialize = true;
      }
    }
    const value = d.kind === "batch" ? messages : messages[0];
    if (stateless) return serveStateless(statelessContext, req, { items, invalid, ids, messages, value, batch: d.kind === "batch", initialize, bytes: body.bytes });
    if (session === undefined) {
      if (options.legacy === false) {
        // No session even when the sessions' versions still list a 2025-era one: it would be
        // one whose every later request this handler refuses (it reads no MCP-Session-Id).
        if (!initialize) return modernOnlyRefusal(req.header(H.protocolVersion), ids[0] ?? null);
        return unsupportedByModernOnly(ids[0] ?? null, d.kind === "request" ? (d.message.params as JsonObject | undefined)?.protocolVersion : undefined);
      }
      if (!initialize) return httpError(400, ErrorCode.InvalidRequest, `the ${H.sessionId} header is required (except for initialize)`, { id: d.kind === "request" ? d.message.id : null });
      const created = newSession(req, body.bytes);
      if (created instanceof Response) return created;
      return exchange(exchanges, created.session, req, ids, value, false, created.setup);
    }
    // Draining: what finishes the requests in flight (responses to the server's own requests,
    // cancellations) is taken; a new request is not, so the drain ends.
    if (drain !== undefined && ids.length > 0) return refuseClosed(d.kind === "request" ? d.message.id : null);
    if (invalid.length > 0) return partlyInvalid(exchanges, session, req, items, invalid, ids, messages, body.bytes);
    return exchange(exchanges, session, req, ids, value, d.kind === "batch", undefined);
  }

  async function get(req: HttpRequestView): Promise<Response | HttpReply> {
    if (!accepts(req.header(H.accept), SSE_TYPE)) return httpError(406, ErrorCode.InvalidRequest, `the client must accept ${SSE_TYPE}`);
    const session = sessionOf(req);
    if (session instanceof Response) return session;
    const last = req.header(H.lastEventId);
    let conn: SseConnection | undefined;
    if (last !== null) {
      const at = parseEventId(last.trim());
      conn = at === undefined ? undefined : session.resume(at.stream, at.seq);
      if (conn === undefined) return httpError(400, ErrorCode.InvalidRequest, "Last-Event-ID names no stream of this session that can be resumed");
    } else {
      conn = session.connectStandalone();
    }
    return sseReply(conn);
  }

  async function del(req: HttpRequestView): Promise<Response | HttpReply> {
    const session = sessionOf(req);
    if (session instanceof Response) return session;
    session.terminate("session terminated by the client (HTTP DELETE)");
    return emptyReply(204);
  }

  /** Serves one request, from either entry. Never rejects. */
  async function core(req: HttpRequestView): Promise<Response | HttpReply> {
    try {
      const pathname = req.url().pathname;
      const old = oldSse?.endpointOf(pathname);
      const answer =
        old !== undefined
          ? await guarded(req, guards, old === "stream" ? "GET" : "POST", (r) => oldSse!.serve(r, old, drain !== undefined))
          : options.path !== undefined && pathname !== options.path
            ? httpError(404, ErrorCode.InvalidRequest, "not an MCP endpoint")
            : await guarded(req, guards, options.legacy === false || stateless ? "POST" : ALLOW, route);
      // What the handler refuses (a bad Origin or Host, a full server, an unknown session…)
      // is the embedder's to see too, not only the client's.
      if (answer.status >= 400 && options.onDiagnostic !== undefined) reportRefusal(req, answer);
      return answer;
    } catch (e) {
      diagnose("handler-error", errorText(e));
      return httpError(500, ErrorCode.InternalError, "the request could not be handled");
    }
  }

  function reportRefusal(req: HttpRequestView, answer: Response | HttpReply): void {
    const reason = refusalReason(answer);
    const detail: Record<string, unknown> = { status: answer.status, method: req.method, path: req.url().pathname };
    if (reason !== undefined) detail.reason = reason;
    // Named by the request, not checked: not the diagnostic's `sessionId` (a refused request
    // may name any session, another client's too).
    const requested = req.header(H.sessionId);
    if (requested !== null) detail.requestedSessionId = requested;
    diagnose("http-refused", `${req.method} answered ${answer.status}${reason === undefined ? "" : `: ${reason}`}`, undefined, detail);
  }

  /** A request past the path, Host and Origin checks: the era, then the method. */
  async function route(req: HttpRequestView): Promise<Response | HttpReply> {
    const pv = req.header(H.protocolVersion);
    const modern = pv !== null && isModernVersion(pv.trim());
    // After close(), no new work (here, past the Host and Origin checks, so a browser can
    // read the 503). A request naming a session still gets the 404 of a terminated session
    // (Session Management item 3: the server MUST answer its id with 404).
    if (drain !== undefined && (modern || stateless || req.header(H.sessionId) === null)) return refuseClosed();
    if (modern && options.modern !== undefined) return await options.modern(req.toRequest());
    // Modern era: no GET stream, no DELETE (no sessions): 405 (draft streamable-http, Backward Compatibility).
    if (modern && req.method !== "POST") return httpError(405, ErrorCode.InvalidRequest, `${req.method} is not supported for ${pv.trim()} (POST only)`, { headers: { Allow: "POST" } });
    // A server of that revision only: an older client's GET stream or DELETE has nothing to reach.
    if (options.legacy === false && req.method !== "POST") return httpError(405, ErrorCode.InvalidRequest, `${req.method} is not supported: this server speaks only 2026-07-28 (POST only)`, { headers: { Allow: "POST" } });
    // Stateless: no session to listen to or to end (2025-11-25 basic/transports: a GET MAY be 405, a DELETE MAY be 405).
    if (stateless && req.method !== "POST") return httpError(405, ErrorCode.InvalidRequest, `${req.method} is not supported: this server is stateless (no sessions; POST only)`, { headers: { Allow: "POST" } });
    switch (req.method) {
      case "POST":
        return await post(req, modern);
      case "GET":
        return await get(req);
      case "DELETE":
        return await del(req);
      default:
        return httpError(405, ErrorCode.InvalidRequest, `${req.method} is not supported`, { headers: { Allow: ALLOW } });
    }
  }

  const handle = async (req: Request): Promise<Response> => toResponse(await core(new RequestView(req)));
  const handler = handle as HttpHandler;
  // The node:http bridge's way in: the same core, without Fetch objects (see http-view.ts).
  const fast: FastEntry = core;
  Object.defineProperty(handler, FAST_ENTRY, { value: fast });
  // What a wrapper asks before answering a request itself: would the Host or Origin check refuse it?
  Object.defineProperty(handler, DOOR_CHECK, { value: (r: Request) => doorRefusal(new RequestView(r), guards) !== undefined });
  Object.defineProperty(handler, "sessionCount", { get: () => sessions.size + (oldSse?.sessions.size ?? 0) });
  // A stateless POST's key in the table names no session a client holds.
  const named = (id: string): HttpSession | undefined => {
    const s = sessions.get(id);
    return s?.stateless === true ? undefined : s;
  };
  handler.session = (id) => (id === undefined ? undefined : (named(id)?.endpoint ?? oldSse?.sessions.get(id)?.endpoint));
  handler.closeConnections = (id) => {
    if (id !== undefined) return sessions.get(id)?.disconnectAll() ?? 0;
    let n = 0;
    for (const s of sessions.values()) n += s.disconnectAll();
    return n;
  };
  handler.terminate = (id, reason = "session terminated by the server") => {
    const s = named(id);
    if (s === undefined) return oldSse?.terminate(id, reason) ?? false;
    s.terminate(reason);
    return true;
  };
  handler.close = (closeOptions) => {
    const drainMs = drainMsOf(closeOptions);
    if (drain === undefined) {
      drain = new Drain(clock, stillRunning, () => {
        for (const s of [...sessions.values()]) ending(() => s.terminate("server closed"));
        for (const id of [...(oldSse?.sessions.keys() ?? [])]) ending(() => oldSse!.terminate(id, "server closed"));
        for (const r of [...live]) ending(() => r.shutdown("server closed"));
      });
      // A listen never finishes by itself: it gets its completion result now, so its client
      // can listen elsewhere, rather than at the drain's end.
      if (drainMs > 0) for (const r of [...listens]) ending(() => r.shutdown("server closing"));
    }
    drain.until(drainMs);
    return drain.done;
  };
  /**
   * The drain's count of requests not answered yet: every session's, and the modern ones
   * but `subscriptions/listen`; a legacy session whose answer waits for its client to
   * resume counts one. A legacy session with none is ended first: its next request
   * gets 404, and its client starts a new session (behind a load balancer, on another
   * instance) rather than meeting 503s for the rest of the drain.
   */
  function stillRunning(): number {
    // The old transport's idle sessions end now, as idle sessions do below (their clients
    // connect again elsewhere); the others end with their stream, or at the drain's end.
    oldSse?.endIdle("server closing");
    let n = live.size - listens.size + (oldSse?.running() ?? 0);
    for (const s of [...sessions.values()]) {
      if (s.running > 0) n += s.running;
      // An answer waiting in the replay log for its client to resume (between SEP-1699
      // polls) is a request not finished yet: ended now, the session would take it along,
      // and the client's resumption would get 404 for a tool that ran.
      else if (s.undelivered) n++;
      else ending(() => s.terminate("server closing"));
    }
    return n;
  }
  /** Ends one session or request of a closing handler: an application hook that throws (its `onClose`) neither stops the others nor escapes into a timer. */
  function ending(end: () => void): void {
    try {
      end();
    } catch (e) {
      diagnose("handler-error", `closing: ${errorText(e)}`);
    }
  }
  return handler;
}

/** @internal Exported for the test that ties it to `H.sessionId`. */
export { SESSION_ID_FIELD } from "./http/session-table.js";

/**
 * A `legacy: false` endpoint's setup for a modern request: its sessions' versions without the
 * legacy ones, which this endpoint refuses (`server/discover` and a `-32022` then name only
 * what it serves; a dual-era McpServer's sessions list every version). Left as it is when
 * it names no modern version (the request is then refused with `-32022`, as before).
 */
function modernOnly(setup: HttpSessionSetup): HttpSessionSetup {
  const versions = setup.options.versions?.filter(isModernVersion);
  if (versions === undefined || versions.length === 0 || versions.length === setup.options.versions!.length) return setup;
  return { ...setup, options: { ...setup.options, versions } };
}

/**
 * A modern-only server (`legacy: false`) and a POST that is neither modern nor
 * `initialize`. Draft `streamable-http`: a server that does not support clients older
 * than 2025-06-18 "MUST reject a request without the header per Server Validation"
 * (-32020, a required header is missing); a header naming a version it does not
 * implement gets 400 with `UnsupportedProtocolVersionError` listing what it speaks.
 */
function modernOnlyRefusal(header: string | null, id: RequestId | null): Response {
  if (header === null) return httpError(400, ErrorCode.HeaderMismatch, `Header mismatch: the ${H.protocolVersion} header is required`, { id });
  return unsupportedByModernOnly(id, header.trim());
}

/**
 * 400 `UnsupportedProtocolVersionError` from a modern-only server: for a 2025-era version
 * header, and for every `initialize` (the `requested` of its params), as the kernel of a
 * session without a legacy version answers it (draft `basic/versioning`: SHOULD name the
 * supported versions; the draft schema: "For HTTP, the response status code MUST be 400").
 */
function unsupportedByModernOnly(id: RequestId | null, requested: unknown): Response {
  return httpError(400, ErrorCode.UnsupportedProtocolVersion, `Unsupported protocol version: this server speaks only ${MODERN_VERSIONS.join(", ")}`, {
    id,
    data: { supported: [...MODERN_VERSIONS], requested },
  });
}

