/**
 * One modern-era (2026-07-28) POST on the server: a stateless request, its own kernel,
 * its own response.
 *
 * Spec: draft `basic/transports/streamable-http` ("Sending Messages", "Receiving
 * Messages", "Cancellation", "Request Metadata", "Server Validation") and
 * `basic/versioning` (a request carrying modern `_meta` is served statelessly).
 *
 * Theory of operation. There are no sessions, so each request gets a fresh server
 * {@link Endpoint} built from the application's setup: its state lives exactly as long as
 * the request, two clients can use the same JSON-RPC id, and nothing can leak from one
 * request into another. The request metadata headers are checked against the body first
 * ({@link headerMismatch}: `-32020`, HTTP 400), then the body against the setup's
 * `maxMessageBytes` and `maxDepth` (`-32600`, HTTP 400, as for a legacy session's body). Then the body
 * is fed to the kernel, which makes every JSON-RPC decision (per-request `_meta`,
 * version, capabilities, params, `server/discover`, `subscriptions/listen`). What the
 * kernel sends comes back through `send` with `related`, the id of this request:
 *
 * - an answer the kernel makes while the body is fed (an error, `server/discover`, a
 *   handler that answers synchronously) with nothing sent before it becomes one JSON
 *   body, with HTTP 400 for the errors the page ties to 400 and 404 for an unknown method;
 * - otherwise the response is an SSE stream (or, with `enableJsonResponse`, one JSON body
 *   once the response is in; `subscriptions/listen` always streams): notifications for
 *   this request, then the response, then the end of the stream. With
 *   `enableJsonResponse` a request's notifications are dropped: a JSON body holds one
 *   message, and a modern request has no other stream to carry them.
 *
 * The client closing the stream (its reader cancels) or going away (the view's
 * `onAbort`, which fires too for a client that left while its body was read or its token
 * verified) is the cancellation of the request: the endpoint is closed, the kernel
 * cancels the request, the handler's `AbortSignal` fires, and nothing more is written.
 * Events carry no `id`: modern streams are not resumable. The request is read through
 * its view, so the node bridge makes neither a `Request` nor an `AbortSignal` for it
 * unless the application asks for one.
 */
import { Endpoint } from "../../driver/endpoint.js";
import type { Clock } from "../../driver/clock.js";
import { tryEncode } from "../../jsonrpc/codec.js";
import { ErrorCode, rpcError } from "../../jsonrpc/errors.js";
import type { JsonObject, JsonRpcErrorResponse, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, RequestId } from "../../jsonrpc/types.js";
import { idKey } from "../../session/types.js";
import { MetaKey } from "../../model/meta.js";
import { encodeSseEvent } from "../../framing/sse.js";
import type { HttpSessionSetup } from "../http-server.js";
import { httpError, overSessionLimits, RETRY_SOON } from "./body.js";
import { carrierOf, emptyReply, jsonReply, sseReply, type HttpReply, type HttpRequestView } from "../http-view.js";
import { SseConnection } from "./connection.js";
import { errorText } from "../error-text.js";
import { headerMismatch, type ParamHeader } from "./request-metadata.js";
import { isMalformedRequestMeta, missingVersionError } from "../../modern/request-meta.js";

/** What a modern request needs from the handler. */
export interface ModernConfig {
  /** The application's setup for this request (its `createSession`, told `era: "modern"`). */
  setup(req: HttpRequestView): HttpSessionSetup;
  clock: Clock;
  /** Answer with one JSON body instead of an SSE stream. */
  jsonMode: boolean;
  /** Most bytes queued for a slow reader before the stream is closed (which cancels the request). */
  maxQueuedBytes: number;
  /** A comment line on a stream quiet for this long, in ms; 0: never. */
  sseKeepAliveMs: number;
  /** Most requests in progress at once (503 past it): the size of `live`. */
  maxRequests: number;
  /** Most `subscriptions/listen` streams among them (503 past it): the size of `listens`. */
  maxListens: number;
  /**
   * How long a request that has sent nothing may hold its response uncommitted. Until then
   * its final answer is one JSON body whose HTTP status fits it (400 for -32021 made after an
   * `await`); after it the response is an SSE stream with status 200.
   */
  streamAfterMs: number;
  /** The `x-mcp-header` declarations of a tool, for `Mcp-Param-*` validation (undefined: none recognized). */
  paramHeaders(tool: string, setup: HttpSessionSetup): readonly ParamHeader[] | undefined;
  diagnose(code: string, message: string, detail?: unknown): void;
  /** Every request in progress (`subscriptions/listen` among them), so that the handler's `close()` ends each one. */
  live: Set<{ shutdown(reason: string): void }>;
  /** The `subscriptions/listen` streams of `live`. */
  listens: Set<{ shutdown(reason: string): void }>;
  /** A request left `live` (a draining handler counts what is left). */
  settled(): void;
}


/** HTTP statuses the page ties to JSON-RPC errors of a modern request; others ride on 200. */
const ERROR_STATUS: Record<number, number> = {
  [ErrorCode.MethodNotFound]: 404,
  [ErrorCode.HeaderMismatch]: 400,
  [ErrorCode.MissingRequiredClientCapability]: 400,
  [ErrorCode.UnsupportedProtocolVersion]: 400,
  [ErrorCode.InvalidRequest]: 400,
};

/** True when a decoded request (or notification) declares its protocol version in `_meta`. */
export function modernVersionOf(message: JsonRpcRequest | JsonRpcNotification): unknown {
  const meta = message.params?._meta;
  return meta !== null && typeof meta === "object" && !Array.isArray(meta) ? (meta as JsonObject)[MetaKey.protocolVersion] : undefined;
}

/**
 * Serves one modern request or notification POST (already decoded, a single message, from
 * `body`). The body was read to the handler's `maxBodyBytes`; the setup's `maxMessageBytes`
 * and `maxDepth` are checked here, once the setup is known, since the kernel is handed the
 * decoded value and cannot measure it (a legacy session's limits are applied when its body
 * is decoded, and an `initialize`'s, like this, once its setup is made).
 */
export function serveModern(req: HttpRequestView, message: JsonRpcRequest | JsonRpcNotification, body: Uint8Array, cfg: ModernConfig): Response | HttpReply | Promise<Response | HttpReply> {
  let setup: HttpSessionSetup | undefined;
  if ("id" in message) {
    // Each request in progress holds a connection and a kernel; as `maxSessions` bounds sessions, this bounds them.
    if (cfg.live.size >= cfg.maxRequests) return httpError(503, ErrorCode.InvalidRequest, `too many modern requests in progress (maxModernRequests ${cfg.maxRequests})`, { id: message.id, headers: RETRY_SOON });
    // Listen streams last as long as their clients like: bounded apart, so that they cannot
    // take every place, leaving calls and server/discover with none.
    if (message.method === "subscriptions/listen" && cfg.listens.size >= cfg.maxListens) return httpError(503, ErrorCode.InvalidRequest, `too many subscriptions/listen streams open (maxListenStreams ${cfg.maxListens})`, { id: message.id, headers: RETRY_SOON });
    // A body without a protocol version string is malformed (SEP-2575: -32602, HTTP 400),
    // and there is no body value for the header to mismatch: its `_meta` error wins over
    // -32020. A body that names a version is checked against the headers first (a version
    // that differs from the header is a mismatch even when neither is supported).
    const missing = missingVersionError(message.params);
    if (missing !== null) return httpError(400, missing.code, missing.message, { id: message.id });
    let params: readonly ParamHeader[] | undefined;
    if (message.method === "tools/call" && typeof message.params?.name === "string") {
      // The application's setup knows its tools (McpServer's reads its registry), so it is made first.
      setup = cfg.setup(req);
      params = cfg.paramHeaders(message.params.name, setup);
    }
    const why = headerMismatch((n) => req.header(n), message, modernVersionOf(message), params);
    if (why !== null) {
      // The factory has run for a tools/call: the application hears that this request ends unserved, as a refused initialize's does.
      setup?.onClose?.(`header mismatch: ${why}: the request was not served`);
      return httpError(400, ErrorCode.HeaderMismatch, `Header mismatch: ${why}`, { id: message.id });
    }
  }
  setup ??= cfg.setup(req);
  const refused = overSessionLimits(body, setup.options);
  if (refused !== undefined) {
    setup.onClose?.("the request exceeds the setup's maxMessageBytes or maxDepth: it was not served");
    return refused;
  }
  return new ModernRequest(req, message, cfg, setup).run();
}

/** The HTTP status of a modern request's final response. */
function statusOf(answer: JsonRpcMessage, params: JsonObject | undefined): number {
  if (!("error" in answer)) return 200;
  const code = answer.error.code;
  if (Object.hasOwn(ERROR_STATUS, code)) return ERROR_STATUS[code];
  // -32602 is 400 when it is about the request's `_meta` (SEP-2575), not the method's params.
  return code === ErrorCode.InvalidParams && isMalformedRequestMeta(params) ? 400 : 200;
}

/**
 * The life of one modern POST: feed, route, answer, end.
 *
 * The HTTP response is committed as late as possible: while the request has produced
 * nothing, or only its final response, the answer is one JSON body whose status fits the
 * response (an error the page ties to 400 stays 400 even when the handler makes it
 * asynchronously). The first message that is not the final response (a notification for
 * this request, also one sent before a synchronous answer) commits an SSE stream with
 * status 200; `subscriptions/listen` does so at once with its acknowledgment. With
 * `enableJsonResponse` there is never a stream except for `subscriptions/listen`, so a
 * request's notifications are dropped.
 */
class ModernRequest {
  private readonly endpoint: Endpoint;
  private readonly setup: HttpSessionSetup;
  /** The answer and its JSON text, once the kernel made it. */
  private response: { message: JsonRpcMessage; text: string } | undefined;
  /** Messages for this request sent before there is a stream to carry them. */
  private early: string[] = [];
  private conn: SseConnection | undefined;
  /** Resolves the HTTP response while it is not committed yet (after `run` returned a promise). */
  private commit: ((r: Response | HttpReply) => void) | undefined;
  /** Commits to a stream after `streamAfterMs` of silence, so slow handlers still get headers early. */
  private streamTimer: unknown;
  /** No SSE stream for this request: `enableJsonResponse`, except for `subscriptions/listen`. */
  private readonly jsonOnly: boolean;
  private ended = false;

  constructor(
    private readonly req: HttpRequestView,
    private readonly message: JsonRpcRequest | JsonRpcNotification,
    private readonly cfg: ModernConfig,
    setup: HttpSessionSetup,
  ) {
    this.jsonOnly = cfg.jsonMode && message.method !== "subscriptions/listen";
    this.setup = setup;
    try {
      this.endpoint = new Endpoint(
        this.setup.options,
        {
          send: (m, related) => this.route(m, related),
          onRequest: this.setup.onRequest,
          onNotification: this.setup.onNotification,
          onEvent: this.setup.onEvent,
          onError: this.setup.onError,
          record: this.setup.record,
          onClose: (reason) => this.end(reason),
        },
        cfg.clock,
      );
      this.setup.onOpen?.(this.endpoint, "");
    } catch (e) {
      // The request fails (500) and is over: a later close of its endpoint ends nothing.
      this.ended = true;
      throw e;
    }
    // In progress until `end`; not once ended (an endpoint closed in onOpen): nothing would take it out again.
    if ("id" in message && !this.ended) {
      cfg.live.add(this);
      if (message.method === "subscriptions/listen") cfg.listens.add(this);
    }
  }

  /**
   * The server ends this request (the handler closes): its handler is cancelled and its
   * stream ends. A listen stream gets its completion result first. Draft
   * `basic/patterns/subscriptions`, Graceful Closure: the server tearing a subscription
   * down SHOULD answer the listen request with a result before closing;
   * `notifications/cancelled` from a server is for stdio only (draft schema,
   * `CancelledNotification`), where there is no stream to end.
   */
  shutdown(reason: string): void {
    if (this.ended) return;
    const id = (this.message as JsonRpcRequest).id;
    if (this.message.method === "subscriptions/listen") {
      this.endpoint.feed({ type: "end-subscription", now: this.cfg.clock.now(), id });
    } else {
      // Any other request is answered, as a legacy session's running requests are when it
      // ends (2025-11-25 basic/transports, Sending Messages item 6: a response SHOULD come):
      // on its stream, or as its one JSON body; not a stream that just ends, nor a 500. With
      // -32603, not a legacy session's -32000: draft basic/index, of -32000..-32019, "new
      // implementations SHOULD NOT use codes from this sub-range at all".
      const reply: JsonRpcErrorResponse = { jsonrpc: "2.0", id, error: rpcError(ErrorCode.InternalError, `request terminated: ${reason}`) };
      const text = JSON.stringify(reply);
      if (this.conn !== undefined) this.conn.write(eventText(text));
      else this.take()?.(jsonReply(statusOf(reply, this.message.params), text));
    }
    // Answered and ended by now for a listen, unless the kernel holds no such subscription: end it anyway.
    this.end(reason);
  }

  run(): Response | HttpReply | Promise<Response | HttpReply> {
    try {
      this.endpoint.receive(this.message, undefined, carrierOf(this.req));
    } catch (e) {
      // An application hook threw (onEvent, onNotification…): the request fails (500), and
      // its place among maxModernRequests (in `live`) is given back.
      this.end("the application's handler threw");
      throw e;
    }
    if (!("id" in this.message)) {
      this.end("notification delivered");
      return emptyReply(202);
    }
    const r = this.response;
    if (r !== undefined) {
      // A handler that logged or reported progress before answering synchronously: its
      // notifications precede the response on a stream (draft streamable-http, Receiving
      // Messages), as they would had it answered after an `await`.
      if (this.early.length > 0) {
        const stream = this.openStream();
        this.conn!.write(eventText(r.text));
        this.end("request answered");
        return stream;
      }
      this.end("request answered");
      // A light reply, not a `Response`: the node bridge writes it as it is (no `Headers`
      // built and read back), and the public entry turns it into a `Response`.
      return jsonReply(statusOf(r.message, this.message.params), r.text);
    }
    if (this.ended) return httpError(500, ErrorCode.InternalError, "the request ended without an answer", { id: this.message.id });
    // Also when the client left before now (while its body was read, or its token verified):
    // the draft's "MUST treat a client disconnect as cancellation" has no window.
    this.req.onAbort(() => this.cancel("the client aborted the request"));
    if (!this.jsonOnly && this.early.length > 0) return this.openStream();
    return new Promise<Response | HttpReply>((resolve) => {
      this.commit = resolve;
      // A client waits for the response headers only so long (undici: 300 s by default) and
      // proxies drop idle requests: a handler still silent after `streamAfterMs` gets its
      // stream (status 200) now, and its answer, whatever it is, rides on it.
      if (!this.jsonOnly) {
        const clock = this.cfg.clock;
        this.streamTimer = clock.schedule(clock.now() + this.cfg.streamAfterMs, () => this.take()?.(this.openStream()));
      }
    });
  }

  /** The pending response resolver, taken once (and its stream timer cancelled). */
  private take(): ((r: Response | HttpReply) => void) | undefined {
    const commit = this.commit;
    this.commit = undefined;
    if (this.streamTimer !== undefined) this.cfg.clock.cancel(this.streamTimer);
    this.streamTimer = undefined;
    return commit;
  }

  /** Commits the response to an SSE stream, writing what waited for it. */
  private openStream(): HttpReply {
    const conn = (this.conn = new SseConnection((_, why) => this.cancel(why), this.cfg));
    for (const text of this.early) conn.write(text);
    this.early = [];
    return sseReply(conn);
  }

  /** The kernel's `send`: this request's notifications and its response; anything else has nowhere to go. */
  private route(m: JsonRpcMessage, related: RequestId | undefined): void {
    if (this.ended) return;
    const isAnswer = !("method" in m);
    if (!isAnswer && ((m as { id?: unknown }).id !== undefined || related === undefined || idKey(related) !== idKey((this.message as JsonRpcRequest).id))) {
      // Notifications on a response stream MUST relate to its request, and servers MUST
      // NOT send requests there (MRTR replaces them); there is no other stream.
      this.cfg.diagnose("message-dropped", "a message unrelated to the modern request, or a server-to-client request, was dropped", { method: m.method });
      return;
    }
    const encoded = tryEncode(m);
    // No JSON form (application data in a result, log or progress message): the kernel
    // answers -32603 instead of the result, or drops and reports the notification.
    if (!encoded.ok) return this.endpoint.unsendable(m, encoded.reason);
    const note = isAnswer ? undefined : eventText(encoded.text);
    if (isAnswer) this.response = { message: m, text: encoded.text };
    if (this.conn !== undefined) {
      this.conn.write(note ?? eventText(encoded.text));
      if (isAnswer) {
        // The final response SHOULD terminate the stream.
        this.conn.close();
        this.end("request answered");
      }
      return;
    }
    // Still inside `run`'s receive: `run` answers (or streams what waited) itself.
    if (this.commit === undefined) {
      if (note !== undefined && !this.jsonOnly) this.early.push(note);
      return;
    }
    if (isAnswer) {
      this.take()!(jsonReply(statusOf(m, this.message.params), encoded.text));
      this.end("request answered");
      return;
    }
    // With JSON responses a notification has no stream to ride on.
    if (this.jsonOnly) return;
    this.early.push(note!);
    this.take()!(this.openStream());
  }

  /** Stream closed or request aborted before the answer: the request is cancelled. */
  private cancel(reason: string): void {
    if (this.ended) return;
    this.take()?.(new Response(null, { status: 499 }));
    this.end(reason);
  }

  /** Ends this request's kernel once (cancelling what is still running) and tells the application. */
  private end(reason: string): void {
    if (this.ended) return;
    this.ended = true;
    this.cfg.live.delete(this);
    this.cfg.listens.delete(this);
    this.cfg.settled();
    // A kernel that closed before answering: the client still gets an answer, not a hang.
    this.take()?.(httpError(500, ErrorCode.InternalError, "the request ended without an answer", { id: (this.message as JsonRpcRequest).id }));
    this.conn?.close();
    this.endpoint.closed(reason);
    // Reported, not thrown into what ended the request (the client's socket closing, say).
    try {
      this.setup.onClose?.(reason);
    } catch (e) {
      this.cfg.diagnose("handler-error", `onClose threw: ${errorText(e)}`);
    }
  }
}

/** One SSE event with the message as data (no id: modern streams are not resumable). */
function eventText(data: string): string {
  // Codec output has no raw line break, so the encoder cannot refuse it.
  return (encodeSseEvent({ data }) as { text: string }).text;
}
