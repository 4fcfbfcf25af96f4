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
 *   it; one below `MIN_RECONNECT_DELAY_MS` (http/client-stream.ts) is taken as that) or an exponential
 *   backoff, and gives up after `maxRetries` failures in a row by answering the request
 *   itself with a -32000 "connection closed" error (a reconnection the server accepts
 *   but ends without sending anything, not even the `retry` of a polling close, is a
 *   failure); once every request of a POST stream is answered, the client closes it
 *   (the server SHOULD have ended it; one that does not would hold a connection per
 *   answered request);
 * - a 404 to a request that carried a session id: the session is gone (spec: the client
 *   MUST start a new session). The transport replays the kernel's `initialize` and
 *   `notifications/initialized` (see {@link renewSession}) and sends the
 *   request again; when that is refused it closes with a reason starting
 *   `SESSION_EXPIRED` (http/client-session.ts), and when the server cannot be reached
 *   yet (a failed fetch, 5xx, 429) that request fails and the next one tries again. The old session's streams end with it: their event ids are
 *   that session's, so none is resumed under the new one, and the requests still waiting
 *   on them fail at once with that error.
 *
 * Modern era (draft `basic/transports/streamable-http`). A message whose `_meta` names
 * its protocol version is modern: it goes without session id, with the request metadata
 * headers built from its body, on a fetch of its own that the kernel's cancellation
 * aborts; a stream of it that breaks is not resumed but re-issued under a new id. The
 * whole account is in `http/client-modern.ts`.
 *
 * `close()` aborts every fetch, sends DELETE for the session (a 405 is fine), and calls
 * the close listener once. Delays go through an injectable `sleep`, so tests never wait.
 *
 * Where the code is. This file holds the options, the {@link HttpClient} class with its
 * state, the {@link Transport} methods, the POST of each message (both eras' dispatch,
 * the 2025-era gates and answer), the messages in (delivery, the requests answered by the
 * transport itself), headers and closing. The rest are functions of the client, in
 * `http/`: `client-stream.ts` (a POST's answer; SSE streams read and resumed),
 * `client-session.ts` (session id, renewal after a 404, the standalone GET's gate),
 * `client-modern.ts` (the modern per-request path, `x-mcp-header`, re-issue) and
 * `client-body.ts` (bounded readers of response bodies) and `http-sse-client.ts` (the
 * deprecated HTTP+SSE transport of 2024-11-05, which the connection's first `initialize`
 * falls back to after a 400, 404 or 405: see {@link HttpClient.fallBack}).
 */
import { errorText } from "./error-text.js";
import { ChurnMap } from "../driver/churn-map.js";
import { systemClock } from "../driver/clock.js";
import { callListener, type Callback } from "../driver/listener.js";
import type { Transport } from "../api/transport.js";
import { knownNames, refuseMisreadNumbers, refuseMisspelledOptions, shownValue } from "../api/option-names.js";
import { DEFAULT_LIMITS } from "../jsonrpc/codec.js";
import { ErrorCode, type JsonRpcErrorObject } from "../jsonrpc/errors.js";
import { peekRequestId } from "../jsonrpc/safe-json.js";
import type { JsonObject, RequestId } from "../jsonrpc/types.js";
import { isProtocolVersion } from "../model/versions.js";
import { letGo, readBodyText, type AbortWatch } from "./http/body.js";
import { discard, errorMessageOf, isModernRefusal, isRefusal, parse } from "./http/client-body.js";
import { META_VERSION, modernMessage, noteProgress, postModern, PROGRESS, restoreReissued, screenTools, TOOLS_CHANGED } from "./http/client-modern.js";
import { adoptSession, endStreams, expired, holdForGet, notYet, renewSession, unreadSession, type Renewal } from "./http/client-session.js";
import { answer, bodiless, follow, LISTEN, PostGate, track } from "./http/client-stream.js";
import { sameOriginRedirects } from "./http/redirect.js";
import { H, isHeaderName, isSafeHeaderValue, JSON_TYPE, mediaTypeOf, SSE_TYPE } from "./http/headers.js";
import { ENDPOINT_WAIT_MS, HttpSseClient } from "./http/http-sse-client.js";
import type { ParamHeader } from "./http/request-metadata.js";

export { META_VERSION, REISSUE_ID_PREFIX } from "./http/client-modern.js";
export { GET_WAIT_MS, SESSION_EXPIRED } from "./http/client-session.js";
export { ENDPOINT_WAIT_MS, POST_WAIT_MS } from "./http/http-sse-client.js";
export { MAX_BODILESS_POSTS, MIN_RECONNECT_DELAY_MS } from "./http/client-stream.js";

/** How lost SSE connections are re-established. */
export interface ReconnectOptions {
  /** First delay when the server sent no `retry`, in ms. Default 1000. */
  initialDelayMs?: number | undefined;
  /** Longest delay, in ms. Default 30 000. */
  maxDelayMs?: number | undefined;
  /** Growth of the delay per failed attempt. Default 1.5. */
  factor?: number | undefined;
  /**
   * Failed attempts in a row before giving up on a stream. Default 5. A reconnection the
   * server accepts but ends without sending anything (no event, no `retry`) is a failure.
   */
  maxRetries?: number | undefined;
  /**
   * Times a modern request whose response stream broke is re-issued under a new id (0: never). Default 2.
   * A `tools/call` only for a tool the modern `tools/list` showed with `readOnlyHint` or `idempotentHint`.
   * Also how many times a modern request the server answers 503 is sent again, after the
   * backoff: any request, since none of it ran (a server closing, or full).
   */
  maxReissues?: number | undefined;
}

/** Options of {@link httpClientTransport}. */
export interface HttpClientOptions {
  /**
   * The fetch to use. Default: `globalThis.fetch`. A rejection is a network failure (a
   * stream is resumed, a modern request re-issued), except one whose error has
   * `retryable: false`: a wrapper's own refusal (`oauthFetch` that could not authorize),
   * which fails the request at once with `-32603` and its message. It is called with
   * `redirect: "manual"`: the transport follows redirects within the server's origin only
   * (http/redirect.ts).
   */
  fetch?: ((input: string, init: RequestInit) => Promise<Response>) | undefined;
  /**
   * Headers sent on every request (e.g. `Authorization`), as an object, a `Headers` or a `Map`. Names must be tokens and values header-safe.
   * Names are compared case-insensitively: one the transport sets itself (`Accept`, `Content-Type`,
   * `MCP-Session-Id`, `MCP-Protocol-Version`, a modern request's `Mcp-*`) is sent as the transport sets it.
   */
  headers?: Record<string, string> | Headers | ReadonlyMap<string, string> | undefined;
  /**
   * Largest message read from the server, in bytes: a JSON response body, or one SSE event
   * (with 1 KiB for its field names). Past it a JSON body is cancelled and its request fails
   * with `-32603`; an SSE event is dropped. Default: the codec's 4 MiB; raise it with the
   * session's `maxMessageBytes`.
   */
  maxMessageBytes?: number | undefined;
  reconnect?: ReconnectOptions | undefined;
  /** Waits `ms` (resolves early, or rejects, when `signal` aborts). Default: a timer. Tests inject their own. */
  sleep?: ((ms: number, signal: AbortSignal) => Promise<void>) | undefined;
  /** Open the standalone GET stream after initialization. Default true. */
  openGetStream?: boolean | undefined;
  /**
   * When the connection's first `initialize` POST gets 400, 404 or 405, GET the same URL and,
   * if its SSE stream opens with an `endpoint` event (within `ENDPOINT_WAIT_MS`, 5 s), go on
   * over the deprecated HTTP+SSE transport of 2024-11-05 (2025-11-25 `basic/transports`,
   * Backwards Compatibility). Not after one whose body is a recognized modern JSON-RPC
   * error (draft `basic/versioning`): that answers the initialize. Default true.
   */
  sseFallback?: boolean | undefined;
  /**
   * An SSE stream that brings nothing, not even a keep-alive comment, for this long is taken
   * for a broken connection (one gone half-open, which no error reports): a 2025-era stream
   * is resumed, a modern request's is ended (a `listen()` then ends, `graceful: false`).
   * Give it above the server's keep-alive interval (a kernel server's `sseKeepAliveMs`,
   * default 8 s: say 30 000). Default 0: none, as a server need not send keep-alives.
   */
  readIdleMs?: number | undefined;
  /** Transport problems that need no action (a failed notification POST, a stream given up). */
  onError?: Callback<(message: string) => void> | undefined;
  /**
   * Extra headers for one outgoing message. The transport sends the request metadata
   * headers of modern requests itself; this adds or overrides headers per message (any of
   * them, `headers` too, names compared case-insensitively).
   * Unsafe names or values are dropped with an `onError`.
   */
  requestHeaders?: Callback<(message: string) => Record<string, string> | undefined> | undefined;
}

/** The transport, plus what it learned about the session. */
export interface HttpClientTransport extends Transport {
  /** The server's `MCP-Session-Id`, once initialized. */
  readonly sessionId: string | undefined;
  /** The negotiated version sent as `MCP-Protocol-Version`, once initialized. */
  readonly protocolVersion: string | undefined;
}

/** One SSE stream the client follows: a POST's, or the standalone GET stream. */
export interface StreamCtx {
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
   * that session: see {@link endStreams}.
   */
  session?: string;
  /** The reader of the connection being read, cancelled when the session ends or the transport closes. */
  reader?: ReadableStreamDefaultReader<Uint8Array>;
  /** The POST carried a batch (2025-03-26): only then may its answer be an array. */
  batch?: boolean;
  /** Aborts the legacy fetch in flight for the stream (its POST, or a resumption GET), or the read of its JSON body. */
  fetching?: Abortable;
  /** The controller of a legacy POST's fetch, while its body may still be read (see {@link ControllerPool.release}). */
  lease?: { abort: AbortController };
  /** Every request of this legacy POST stream was cancelled: nothing more is read from it. */
  released?: boolean;
  /** The server sent a request of its own on this legacy POST stream (an elicitation for the call). */
  asked?: boolean;
  /** This legacy POST waits on the client's gate (a renewal, {@link holdForGet}): the server has not seen it yet. */
  gated?: boolean;
  /**
   * A session renewal's `initialize` (http/client-session.ts): the response to it is taken
   * by this, once, instead of going to the kernel, whose own initialize was answered long ago.
   */
  renewal?: (text: string, local: boolean) => void;
}

/** A modern request's state across its attempts. */
export interface ModernCtx {
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

/** What close() (and a legacy request's cancellation) stops: a fetch's controller, or a body read's {@link BodyCut}. */
type Abortable = Pick<AbortController, "abort">;

/**
 * The cancellation of one JSON body read (`readText`): `abort` calls the reader's listener
 * once, as an `AbortController` would, without making an `AbortSignal`.
 */
class BodyCut implements AbortWatch {
  private listener: (() => void) | undefined;
  private aborted = false;

  addEventListener(_type: "abort", listener: () => void): void {
    if (!this.aborted) this.listener = listener;
  }

  removeEventListener(_type: "abort", listener: () => void): void {
    if (this.listener === listener) this.listener = undefined;
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    const fn = this.listener;
    this.listener = undefined;
    fn?.();
  }
}

/**
 * The `AbortController`s of POSTs, reused. Each POST's fetch carries a signal (a modern
 * request's cancellation is the connection's close, draft `streamable-http`; close() ends
 * the fetches still waiting for their headers), and in Node a fresh
 * controller and the first registration of its signal with `fetch` cost about a sixth of a
 * whole request's client side (cachegrind: some 100k of 1.6M instructions), a signal `fetch`
 * has seen before much less. A controller goes back only from a request that is over (its
 * fetch and body done with) and never aborted: aborting it later, for another request,
 * reaches only fetches that have ended. `fetch` leaves a listener on the signal for each
 * request until the garbage collector takes that request, so a controller serves at most
 * {@link CONTROLLER_USES} requests: Node warns past 1500 listeners.
 */
export class ControllerPool {
  private readonly spare: AbortController[] = [];
  private readonly uses = new WeakMap<AbortController, number>();

  take(): AbortController {
    return this.spare.pop() ?? new AbortController();
  }

  /**
   * The request `holder` made is over, its fetch and body done with: its controller, if never
   * aborted, serves another, and it holds a spent one instead, so that a late cancellation
   * of it aborts nothing in use. Called as soon as that is known (a JSON body read whole),
   * before the answer is handed on: the caller's next request may go out at once.
   */
  release(holder: { abort: AbortController }): void {
    const c = holder.abort;
    holder.abort = spent();
    const n = (this.uses.get(c) ?? 0) + 1;
    if (c.signal.aborted || n >= CONTROLLER_USES || this.spare.length >= MAX_SPARE_CONTROLLERS) return;
    this.uses.set(c, n);
    this.spare.push(c);
  }
}

let spentController: AbortController | undefined;

/**
 * A controller aborted already: what a finished request holds (see
 * {@link ControllerPool.release}). Made on first use, not at load: a Cloudflare worker may
 * not abort a controller in its global scope.
 */
function spent(): AbortController {
  if (spentController === undefined) {
    spentController = new AbortController();
    spentController.abort("the request is over");
  }
  return spentController;
}

/** Requests one pooled controller carries at most (see {@link ControllerPool}). */
const CONTROLLER_USES = 128;
/** Spare controllers kept: as many modern requests in flight at once as are usual. */
const MAX_SPARE_CONTROLLERS = 64;

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
  refuseMisreadOptions(url, options);
  return new HttpClient(String(url), options);
}

const OPTION_NAMES = /* @__PURE__ */ knownNames<HttpClientOptions>()(["fetch", "headers", "maxMessageBytes", "reconnect", "sleep", "openGetStream", "sseFallback", "readIdleMs", "onError", "requestHeaders"]);
const RECONNECT_NAMES = /* @__PURE__ */ knownNames<ReconnectOptions>()(["initialDelayMs", "maxDelayMs", "factor", "maxRetries", "maxReissues"]);

/**
 * Options the transport would misread rather than refuse, named: a misspelled name
 * (`header` sent no `Authorization`, and every request got 401), a count or delay given as
 * text or negative (`maxMessageBytes: -1` refused every answer), a callback that is none.
 */
function refuseMisreadOptions(url: unknown, options: HttpClientOptions): void {
  if (typeof url !== "string" && !(url instanceof URL)) throw new TypeError("httpClientTransport takes the server's MCP endpoint URL (a string or URL)");
  if (typeof options !== "object" || options === null) throw new TypeError("httpClientTransport: options must be an object");
  refuseMisspelledOptions("httpClientTransport", options, OPTION_NAMES);
  const o = options as Record<string, unknown>;
  for (const key of ["fetch", "sleep", "onError", "requestHeaders"]) {
    if (o[key] !== undefined && typeof o[key] !== "function") throw new TypeError(`httpClientTransport: ${key} must be a function`);
  }
  if (o.headers !== undefined && (typeof o.headers !== "object" || o.headers === null || Array.isArray(o.headers))) throw new TypeError("httpClientTransport: headers must be an object of header names to values, or a Headers");
  if (o.maxMessageBytes !== undefined && !(isCount(o.maxMessageBytes) && o.maxMessageBytes > 0)) {
    throw new RangeError(`httpClientTransport: maxMessageBytes must be a positive integer or Infinity (got ${shownValue(o.maxMessageBytes)})`);
  }
  refuseMisreadNumbers("httpClientTransport", options, ["readIdleMs"]);
  const r = o.reconnect;
  if (r === undefined) return;
  if (typeof r !== "object" || r === null) throw new TypeError("httpClientTransport: reconnect must be an object");
  refuseMisspelledOptions("httpClientTransport reconnect", r, RECONNECT_NAMES);
  const rec = r as Record<string, unknown>;
  const bad = (key: string, rule: string): never => {
    throw new RangeError(`httpClientTransport: reconnect.${key} must be ${rule} (got ${shownValue(rec[key])})`);
  };
  const delay = (v: unknown, finite: boolean) => typeof v === "number" && v >= 0 && (!finite || Number.isFinite(v));
  if (rec.initialDelayMs !== undefined && !delay(rec.initialDelayMs, true)) bad("initialDelayMs", "a finite number of milliseconds >= 0");
  if (rec.maxDelayMs !== undefined && !delay(rec.maxDelayMs, false)) bad("maxDelayMs", "a number of milliseconds >= 0 (Infinity: no cap)");
  if (rec.factor !== undefined && !(typeof rec.factor === "number" && Number.isFinite(rec.factor) && rec.factor >= 1)) bad("factor", "a finite number >= 1");
  for (const key of ["maxRetries", "maxReissues"]) if (rec[key] !== undefined && !isCount(rec[key])) bad(key, "a non-negative integer or Infinity");
}

/** A non-negative integer, or Infinity (no bound), as the HTTP handler's bounds take it. */
function isCount(v: unknown): v is number {
  return v === Number.POSITIVE_INFINITY || (Number.isSafeInteger(v) && (v as number) >= 0);
}

/**
 * The transport. Its members are not private: the functions in `http/client-*.ts` are the
 * rest of its methods, and read and write its state as these do.
 * @internal
 */
export class HttpClient implements HttpClientTransport {
  sessionId: string | undefined;
  protocolVersion: string | undefined;
  readonly fetch: NonNullable<HttpClientOptions["fetch"]>;
  /** The caller's `headers`, but those the transport sets itself (see {@link headersFor}). */
  private readonly base: Record<string, string>;
  readonly sleep: NonNullable<HttpClientOptions["sleep"]>;
  readonly initialDelay: number;
  readonly maxDelay: number;
  /** {@link HttpClientOptions.maxMessageBytes}. */
  readonly maxBytes: number;
  readonly factor: number;
  readonly maxRetries: number;
  readonly maxReissues: number;
  /** See {@link HttpClientOptions.readIdleMs}; 0: no bound. */
  readonly readIdleMs: number;
  /** Re-issues so far, numbering their ids. */
  reissues = 0;
  /** The legacy fetches waiting for their response headers, the JSON bodies being read ({@link readText}) and the streams' backoff waits ({@link pause}): aborted on close. */
  private readonly fetches = new Set<Abortable>();
  /** The POSTs without a request waiting for their answer, which hold the streams' reading back. */
  readonly posts = new PostGate();
  /** The controllers of POSTs (see {@link ControllerPool}). */
  readonly controllers = new ControllerPool();
  closed = false;
  private receiver: ((text: string, local?: boolean) => void) | undefined;
  /** What arrived before a receiver registered, with its `local` flag ({@link hand}). */
  private buffered: [string, boolean][] = [];
  private closeListener: ((reason: string) => void) | undefined;
  /** Told the server's new InitializeResult when a session is renewed (the client's view of the server changes with it). */
  renewListener: ((result: JsonObject) => void) | undefined;
  /** Why the last session renewal failed, for the close reason. */
  renewFailure: string | undefined;
  private closeReason: string | undefined;
  /** Until the GET stream is started, outgoing messages are parsed to spot the handshake. */
  private handshaking = true;
  /** Key of the initialize request in flight. */
  private initKey: string | undefined;
  /** Sends wait on this while `initialize` has not answered with its headers. */
  gate: Promise<void> | undefined;
  getStarted = false;
  /** Releases the requests held while the standalone GET is being opened. */
  getOpened: (() => void) | undefined;
  /** The SSE streams being read or waiting to be resumed (their readers are cancelled on close). */
  readonly followed = new Set<StreamCtx>();
  /** Requests in flight, by id key: cancelling a modern one closes its stream, a legacy one stops its resumption. */
  readonly inflight = new ChurnMap<string, StreamCtx>();
  /** The kernel's `initialize` and `notifications/initialized`, replayed to renew an expired session. */
  initText: string | undefined;
  initializedText: string | undefined;
  renewing: Promise<Renewal> | undefined;
  /** `x-mcp-header` declarations of the tools the last modern `tools/list` pages showed. */
  readonly paramHeaders = new Map<string, ParamHeader[]>();
  /** Tools those pages annotated `readOnlyHint` or `idempotentHint`: the only calls a re-issue cannot run twice to harm. */
  readonly repeatable = new Set<string>();
  /** The deprecated HTTP+SSE transport this connection fell back to ({@link fallBack}), which carries it from then on. */
  private httpSse: HttpSseClient | undefined;

  constructor(
    readonly url: string,
    readonly options: HttpClientOptions,
  ) {
    // Every request of the transport (its POSTs, GETs, DELETE, the HTTP+SSE fallback's)
    // follows redirects within the server's origin only: fetch would carry the session ID,
    // the caller's headers and the body to any other (http/redirect.ts).
    this.fetch = sameOriginRedirects(options.fetch ?? ((input, init) => globalThis.fetch(input, init)));
    this.sleep = options.sleep ?? defaultSleep;
    const r = options.reconnect ?? {};
    this.initialDelay = r.initialDelayMs ?? 1000;
    this.maxDelay = r.maxDelayMs ?? 30_000;
    this.maxBytes = options.maxMessageBytes ?? DEFAULT_LIMITS.maxBytes;
    this.factor = r.factor ?? 1.5;
    this.maxRetries = r.maxRetries ?? 5;
    this.maxReissues = r.maxReissues ?? 2;
    this.readIdleMs = options.readIdleMs ?? 0;
    this.base = {};
    // A Headers or a Map is read by its entries (Object.entries would see none and send nothing).
    const given = options.headers;
    for (const [k, v] of given instanceof Headers || given instanceof Map ? (given.entries() as Iterable<[string, string]>) : Object.entries(given ?? {})) {
      if (!isHeaderName(k) || !isSafeHeaderValue(v)) throw new TypeError(`header ${JSON.stringify(k)} is not a valid HTTP header`);
      // One the transport sets itself is sent as the transport sets it (a `Headers` names it
      // in lower case, which would otherwise go beside the transport's, joined).
      if (!OWN_HEADERS.has(k.toLowerCase())) putHeader(this.base, k, v);
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

  onMessage(fn: (text: string, local?: boolean) => void): void {
    this.receiver = fn;
    const early = this.buffered;
    this.buffered = [];
    for (const [text, local] of early) callListener(fn, text, local, undefined);
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
  async request(init: RequestInit, ctx?: StreamCtx): Promise<Response> {
    // A POST's controller may carry later requests once its body is read whole; a GET's is its stream's alone.
    const abort = ctx !== undefined && init.method === "POST" ? (ctx.lease = { abort: this.controllers.take() }).abort : new AbortController();
    this.fetches.add(abort);
    if (ctx !== undefined) ctx.fetching = abort;
    try {
      return await this.fetch(this.url, { ...init, signal: abort.signal });
    } finally {
      this.fetches.delete(abort);
      if (ctx?.fetching === abort) ctx.fetching = undefined;
    }
  }

  /**
   * A stream's backoff wait of `ms`, cut short when the transport closes. Each on its own
   * signal, as each fetch is: a dozen streams resuming at once on one shared signal
   * would pile a listener each on it (and Node warns of a leak past ten).
   */
  async pause(ms: number): Promise<void> {
    const wake = new AbortController();
    this.fetches.add(wake);
    try {
      await this.sleep(ms, wake.signal);
    } finally {
      this.fetches.delete(wake);
    }
  }

  /**
   * A JSON body read to the message limit, cut short when the transport closes: once its
   * headers have come, a fetch is no longer among those close() aborts, and a server
   * trickling the body (or a proxy holding its end) would keep the connection, and a Node
   * process, alive after close(). Read for the requests of `ctx`, it is cut short as well
   * when they are all cancelled ({@link release}), as their SSE stream would be.
   */
  async readText(res: Response, ctx?: StreamCtx): ReturnType<typeof readBodyText> {
    if (this.closed) {
      discard(res);
      return { ok: false, status: 400, reason: "the transport is closed" };
    }
    // Not an AbortController: nothing but this read watches it, and in Node 20 making one
    // and adding and removing a listener cost about as much CPU as the rest of the read.
    const cut = new BodyCut();
    this.fetches.add(cut);
    if (ctx !== undefined) ctx.fetching = cut;
    try {
      return await readBodyText({ headers: res.headers, body: res.body, signal: cut }, this.maxBytes);
    } finally {
      this.fetches.delete(cut);
      if (ctx?.fetching === cut) ctx.fetching = undefined;
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
      if (modern !== undefined) return await postModern(this, text, modern, ctx);
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
      // (Not after a fall back to HTTP+SSE: that server's stream is the one its GET opened.)
      if (method === "notifications/initialized" && this.httpSse === undefined) this.startGet();
    }
  }

  /** A 2025-era POST (after {@link HttpClient.post} noted its requests in `ctx`): session gates, the answer. */
  private async postLegacy(text: string, retried: boolean, ctx: StreamCtx, method: string | undefined): Promise<void> {
    let release: (() => void) | undefined;
    // The session this message was made in (undefined while a renewal runs: the old one's).
    const born = this.sessionId;
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
    } else if (this.gate !== undefined) {
      // A renewal may start while this waits on the gate before it: wait for the last one.
      ctx.gated = true;
      while (this.gate !== undefined) await this.gate;
      ctx.gated = false;
      // Cancelled while it waited (see cancelInflight): the server never saw it, so it is
      // not sent now only to be cancelled (a tool would start for no one).
      if (ctx.released) return;
      // An answer made before the renewal this waited on answers the old session's request:
      // not sent to the new one (below, after a 404, likewise).
      if (this.sessionId !== born && isResponse(text)) return;
      // The initialize it waited on fell back to HTTP+SSE: this message goes there too.
      if (this.httpSse !== undefined) return this.httpSse.send(text);
    }
    // Closed meanwhile (a renewal failed, the application closed): the kernel has failed
    // this request already, and nothing more goes to the server.
    if (this.closed) return release?.();
    // Only the connection's first initialize may find a server of the old transport; a
    // renewal's (client-session.ts) does not come this way.
    const first = method === "initialize" && this.initText === undefined;
    if (first) this.initText = text;
    // A dual-era client falls back to initialize after a modern probe: the probe's version
    // is not this session's, and a legacy server answers 400 to a version it does not speak.
    if (method === "initialize" && this.sessionId === undefined) this.protocolVersion = undefined;
    if (method === "notifications/initialized") {
      this.initializedText = text;
      if (!this.getStarted && this.options.openGetStream !== false) holdForGet(this);
    }
    const sid = this.sessionId;
    // A response or notification: counted while it waits for the server (see PostGate).
    const noRequest = ctx.pending.size === 0;
    if (noRequest) this.posts.enter();
    let res: Response;
    try {
      res = await this.request({ method: "POST", headers: this.headersFor(text, true), body: text }, ctx);
    } catch (e) {
      release?.();
      return this.fetchFailed(ctx, e);
    } finally {
      if (noRequest) this.posts.leave();
    }
    if (release !== undefined) {
      if (first && (res.status === 400 || res.status === 404 || res.status === 405) && this.options.sseFallback !== false) return this.fallBack(text, ctx, res, release);
      adoptSession(this, res);
      release();
    }
    // An initialize's stream belongs to the session it opened.
    ctx.session = sid ?? this.sessionId;
    if (this.closed || ctx.released) return discard(res);
    if (res.status === 404 && sid !== undefined) {
      discard(res);
      // Session Management item 4: a new session, then this message again (once).
      // (The renewal itself sends notifications/initialized.)
      // Waiting for the renewal, the request is unknown to any session (the old one answered
      // 404): cancelled meanwhile, neither it nor its notification is sent (cancelInflight).
      ctx.gated = true;
      const renewal = retried ? false : await renewSession(this, sid);
      ctx.gated = false;
      if (renewal === "later") return this.failed(ctx, notYet(this, sid));
      if (renewal) {
        // Cancelled while the session was renewed: the request is not sent again (the
        // server would run it for no one), nor was its notification.
        if (ctx.released) return;
        // Nor is an answer: the request it answers was the old session's, and the new one,
        // which numbers its requests afresh, would take it for the answer to its own
        // request of that id (the user's reply to another question).
        if (isResponse(text)) return;
        return method === "notifications/initialized" ? undefined : this.post(text, true);
      }
      return this.shut(expired(this, sid), false);
    }
    // The GET stream gave up during an outage this POST shows is over: it opens again.
    if (res.ok && !this.getStarted && !this.handshaking && sid !== undefined) this.startGet();
    if (res.status === 202 || res.status === 204) {
      discard(res);
      return bodiless(this, ctx, res.status);
    }
    // Only a cross-origin response can hide the header: a server without sessions may
    // refuse the notification for its own reasons, reported as any 400 is.
    if (method === "notifications/initialized" && res.status === 400 && this.sessionId === undefined && res.type === "cors") {
      return this.shut(unreadSession(await errorMessageOf(res, (r) => this.readText(r))), false);
    }
    // The session is open whatever the body holds. A server that answers the notification with
    // an SSE stream (it MUST answer 202) and keeps it open held back the standalone GET, and
    // the session's first requests waiting on it (holdForGet), until that stream ended.
    if (method === "notifications/initialized" && this.httpSse === undefined) this.startGet();
    // Only a modern request's answer can come back as lost, and this one is legacy.
    await answer(this, ctx, res);
  }

  /**
   * The first initialize POST got 400, 404 or 405: 2025-11-25 `basic/transports`
   * (Backwards Compatibility) has the client GET the same URL and, when the stream's first
   * event is `endpoint`, use the deprecated HTTP+SSE transport for all that follows. The
   * initialize goes again over it, and every later message with it ({@link send} is
   * replaced, so the Streamable HTTP path pays nothing for this). When the GET gives no
   * endpoint (an error, another event, or none within {@link ENDPOINT_WAIT_MS}), a JSON
   * body of the POST (a Streamable HTTP server's own refusal) answers the initialize as it
   * would have; otherwise the initialize fails naming both attempts.
   */
  private async fallBack(text: string, ctx: StreamCtx, res: Response, release: () => void): Promise<void> {
    // A recognized modern error (-32022 naming the server's versions, say) identifies a
    // server of the 2026 era, not one of the old transport (draft basic/versioning,
    // Backward Compatibility): it answers the initialize, and no GET is made.
    if (mediaTypeOf(res.headers.get(H.contentType)) === JSON_TYPE && (await isModernRefusal(res, (r) => this.readText(r)))) {
      release();
      if (this.closed) return discard(res);
      await answer(this, ctx, res);
      return;
    }
    // Closed while that body was read: no GET goes out, whose stream nothing would end.
    if (this.closed) {
      release();
      return discard(res);
    }
    const sse = (this.httpSse = new HttpSseClient(this, this.url));
    const failure = await sse.opened;
    if (failure === undefined && !this.closed) {
      discard(res);
      this.send = (message) => sse.send(message);
      sse.send(text);
      return release();
    }
    this.httpSse = undefined;
    release();
    if (this.closed) return discard(res);
    const why = `the initialize POST got HTTP ${res.status} (Streamable HTTP), and ${failure} (the deprecated HTTP+SSE transport)`;
    if (mediaTypeOf(res.headers.get(H.contentType)) === JSON_TYPE) {
      this.report(why);
      await answer(this, ctx, res);
      return;
    }
    discard(res);
    this.failed(ctx, why, ErrorCode.InternalError);
  }

  /**
   * `text` is a `notifications/cancelled`: the request it names is no longer awaited. Draft
   * `streamable-http` (Cancellation): closing a modern request's response stream is the
   * cancellation, and no notification is sent (true). A 2025-era request's notification
   * is sent (false), and its POST stream is no longer resumed for it: the server may never
   * answer it again, and a resumption loop would go on until the transport closed. One
   * still waiting on the client's gate is never POSTed, nor its notification (true).
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
      if (ctx.pending.size === 0 && ctx.kind === "post" && ctx.asked !== true) {
        this.release(ctx);
        // Still waiting on the gate, it is never sent (postLegacy), and neither is this
        // notification: it MUST only name a request previously issued (basic/utilities/cancellation).
        return ctx.gated === true;
      }
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

  // -------------------------------------------------------------------------------------
  // The standalone GET stream (read and resumed in http/client-stream.ts)

  /**
   * Opens the standalone GET stream, through the reconnection loop of `followStream`
   * (`http/client-stream.ts`): a first GET that fails or is refused (but with 405, "no
   * stream here") is retried on the reconnect policy, as a broken stream is, instead of
   * leaving the session without it.
   */
  startGet(): void {
    this.handshaking = false;
    if (this.getStarted || this.closed || this.options.openGetStream === false) return;
    this.getStarted = true;
    const ctx: StreamCtx = { kind: "get", pending: new Set(), ids: new Map(), lastEventId: "", retryMs: undefined, session: this.sessionId };
    // As in send(): an injected sleep that rejects, or a throwing listener, is reported, never an unhandled rejection.
    follow(this, ctx, undefined)
      .catch((e) => this.closed || this.report(`GET stream failed: ${errorText(e)}`))
      .catch(() => {});
  }

  // -------------------------------------------------------------------------------------
  // Messages in

  /** Hands on what a stream carried; `local`: this transport wrote `text` in the server's place (see {@link answerWaiting}). */
  deliver(text: string, ctx: StreamCtx, local = false): void {
    const modern = ctx.modern;
    if (modern !== undefined) {
      if (modern.cancelled) return;
      if (modern.wireId !== undefined) {
        const restored = restoreReissued(text, modern);
        if (restored === undefined) return;
        text = restored;
      }
      if (text.indexOf(PROGRESS) !== -1) noteProgress(text, modern);
      // A hint learned from an older list may no longer hold (a tool no longer read-only).
      else if (modern.method === LISTEN && text.indexOf(TOOLS_CHANGED) !== -1) this.repeatable.clear();
    } else if (ctx.kind === "post" && ctx.asked !== true && holdsRequest(text)) ctx.asked = true;
    if (ctx.modern?.method === "tools/list" && ctx.pending.size > 0) text = screenTools(this, text);
    if (ctx.pending.size > 0 || this.initKey !== undefined) this.noteResponse(text, ctx);
    const renewal = ctx.renewal;
    if (renewal !== undefined && ctx.pending.size === 0) {
      ctx.renewal = undefined;
      return renewal(text, local);
    }
    this.hand(text, local);
  }

  /** Hands text to the receiver, or keeps it until one registers; `local` marks a message this transport wrote itself. */
  hand(text: string, local = false): void {
    // Over HTTP+SSE the initialize is answered this way: the version it names is the connection's.
    if (this.initKey !== undefined && this.httpSse !== undefined && !local) this.noteResponse(text);
    // A receiver that throws (an endpoint rethrows its hook's error from `receive`) costs
    // the connection nothing: the message counts as delivered and the error is rethrown on
    // a fresh microtask. Let through, it read as a broken stream: a Streamable HTTP stream
    // was resumed from before that message, which threw again (a reconnection a second, for
    // good), an HTTP+SSE stream closed the transport, and the other requests a loop was
    // answering (answerWaiting) were left waiting.
    if (this.receiver !== undefined) callListener(this.receiver, text, local, undefined);
    else this.buffered.push([text, local]);
  }

  /** Marks the responses in `text` as arrived on `ctx` (if any); learns the negotiated version from the initialize result. */
  private noteResponse(text: string, ctx?: StreamCtx): void {
    // Only responses carry "result" or "error"; anything else is not parsed here but a message
    // with no method either (an answer that lost its result, which the kernel takes as our
    // request's malformed answer: the codec's `orAnswers`).
    if (text.indexOf('"result"') === -1 && text.indexOf('"error"') === -1 && text.indexOf('"method"') !== -1) return;
    const value = parse(text);
    // An array answers a batch, or is a 2025-03-26 server batching its messages on a stream
    // (2025-03-26 transports: "These responses MAY be batched"), which the kernel reads as
    // well; in any other session the kernel refuses it and fails at once the requests its
    // responses name: answered either way.
    for (const m of Array.isArray(value) ? value : [value]) {
      // A response with both result and error still answers: the kernel fails its request as malformed.
      if (typeof m !== "object" || m === null || "method" in m) continue;
      // Neither answer, with params: a request that lost its method, which answers nothing.
      if (!("result" in m) && !("error" in m) && "params" in m) continue;
      const { id, result } = m as { id?: unknown; result?: { protocolVersion?: unknown } };
      // Only a string or number names a request: any other id (an array nested thousands
      // deep, which JSON.stringify overflows on) is the kernel's to refuse, and must not cost
      // the stream the messages after it.
      if (typeof id !== "string" && typeof id !== "number") continue;
      const key = JSON.stringify(id);
      ctx?.pending.delete(key);
      if (ctx?.modern !== undefined && result !== undefined) this.protocolVersion = ctx.modern.version;
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
  failed(ctx: StreamCtx, why: string, code: number = ErrorCode.ConnectionClosed): void {
    this.answerWaiting(ctx, why, { code, message: code === ErrorCode.ConnectionClosed ? `connection closed: ${why}` : why }, true);
  }

  /**
   * Answers the requests of `ctx` that got no response with `error`, as it is (a server's
   * own `-32000` gets no "connection closed"); with none waiting, reports `why`. `local`:
   * the error is this transport's, not one the server sent without an id (draft
   * `basic/index`: a local error must not be mistaken for the peer's), and the kernel
   * reports it so.
   */
  answerWaiting(ctx: StreamCtx, why: string, error: JsonRpcErrorObject, local: boolean): void {
    if (this.closed || ctx.modern?.cancelled || ctx.released) return;
    if (ctx.pending.size === 0) return this.report(why);
    for (const key of [...ctx.pending]) {
      const id = ctx.ids.get(key)!;
      ctx.pending.delete(key);
      this.deliver(JSON.stringify({ jsonrpc: "2.0", id, error }), ctx, local);
    }
  }

  /** A POST's fetch rejected: a network failure closes what it carried; a fetch wrapper's refusal ({@link isRefusal}) is only that request's failure. */
  fetchFailed(ctx: StreamCtx, e: unknown): void {
    if (isRefusal(e)) return this.failed(ctx, `the request was not sent: ${errorText(e)}`, ErrorCode.InternalError);
    this.failed(ctx, `POST failed: ${errorText(e)}`);
  }

  // -------------------------------------------------------------------------------------
  // Headers, closing

  /**
   * The headers of one request. Later sources replace earlier ones: the caller's `headers`,
   * then the transport's own (by their usual names: a custom `fetch` that spreads
   * `init.headers` and sets `Authorization` replaces it), then what `requestHeaders` returns
   * for this message. Names are compared case-insensitively (draft `streamable-http`, Case
   * Sensitivity): a record holding `Content-Type` and `content-type` would send both,
   * joined. The caller's names for the transport's own headers were dropped when it was
   * made ({@link OWN_HEADERS}), so only a modern request's `Mcp-*` and `requestHeaders`
   * need the case-insensitive replacement here.
   */
  headersFor(text: string | undefined, post: boolean, modern?: Record<string, string>): Record<string, string> {
    const h: Record<string, string> = { ...this.base };
    h[H.accept] = post ? `${JSON_TYPE}, ${SSE_TYPE}` : SSE_TYPE;
    if (post) h[H.contentType] = JSON_TYPE;
    if (modern !== undefined) for (const k in modern) putHeader(h, k, modern[k]!);
    else {
      if (this.sessionId !== undefined) h[H.sessionId] = this.sessionId;
      if (this.protocolVersion !== undefined) h[H.protocolVersion] = this.protocolVersion;
    }
    const extra = text === undefined ? undefined : this.options.requestHeaders?.(text);
    if (extra !== undefined) {
      for (const k in extra) {
        if (isHeaderName(k) && isSafeHeaderValue(extra[k])) putHeader(h, k, extra[k]);
        else this.report(`dropped unsafe header ${JSON.stringify(k)}`);
      }
    }
    return h;
  }

  shut(reason: string, deleteSession: boolean): void {
    if (this.closed) return;
    this.closed = true;
    this.getOpened?.();
    for (const f of this.fetches) f.abort();
    this.fetches.clear();
    for (const ctx of this.inflight.values()) ctx.modern?.abort.abort("transport closed");
    this.inflight.clear();
    for (const ctx of this.followed) letGo(ctx.reader);
    this.posts.stop();
    this.httpSse?.close();
    if (deleteSession) this.deleteSession();
    this.closeReason = reason;
    this.closeListener?.(reason);
  }

  /**
   * Spec: clients that no longer need a session SHOULD DELETE it (405 means the server keeps
   * it). A server that takes the DELETE and never answers it gets {@link DELETE_WAIT_MS}:
   * unbounded, the fetch held its connection, and a Node process, after close() (undici waits
   * five minutes for response headers).
   */
  deleteSession(): void {
    if (this.sessionId === undefined) return;
    const abort = new AbortController();
    // Ends the wait once the DELETE is answered (or fails), so no timer outlives it.
    const done = new AbortController();
    const cut = (): void => abort.abort("the DELETE was not answered in time");
    // A courtesy (SHOULD): a custom fetch, header callback or sleep that throws at once must not make close() throw.
    try {
      Promise.resolve(this.fetch(this.url, { method: "DELETE", headers: this.headersFor(undefined, false), signal: abort.signal }))
        .then(discard, () => {})
        .finally(() => done.abort());
      this.sleep(DELETE_WAIT_MS, done.signal).then(() => done.signal.aborted || cut(), cut);
    } catch {
      // nothing to undo: the session is left to the server's idle timeout
      cut();
    }
  }

  report(message: string): void {
    // An onError that throws is rethrown on a fresh microtask: thrown into a stream's read
    // loop (a dropped event's report), it read as a broken connection, as a receiver's did.
    const fn = this.options.onError;
    if (fn !== undefined) callListener(fn, message, undefined, undefined);
  }
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
 * How long the session's DELETE (on close, or of a session a failed renewal opened) may
 * wait for its answer, in ms, on the client's `sleep`; then it is aborted and the session
 * left to the server's idle expiry.
 */
export const DELETE_WAIT_MS = 5000;

/** The headers the transport sets itself, by lower-case name: the caller's are not sent beside them. */
const OWN_HEADERS: ReadonlySet<string> = /* @__PURE__ */ new Set([H.accept, H.contentType, H.sessionId, H.protocolVersion, H.lastEventId].map((n) => n.toLowerCase()));

/** Sets header `name` in `h`, replacing one of that name in another letter case (it would be sent beside it, joined). */
function putHeader(h: Record<string, string>, name: string, value: string): void {
  const lower = name.toLowerCase();
  for (const k in h) if (k !== name && k.toLowerCase() === lower) delete h[k];
  h[name] = value;
}

/** A single JSON-RPC response (no method): the answer to a request of the session it was made in. */
function isResponse(text: string): boolean {
  const m = parse(text);
  return typeof m === "object" && m !== null && !Array.isArray(m) && !("method" in m);
}
