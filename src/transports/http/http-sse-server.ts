/**
 * The server side of the deprecated HTTP+SSE transport, for clients older than Streamable
 * HTTP, served by the same handler beside its MCP endpoint (`createHttpHandler({ httpSse })`).
 *
 * Spec: 2024-11-05 `basic/transports` ("HTTP with SSE": the server MUST provide an SSE
 * endpoint and a POST endpoint; on connection the server MUST send an `endpoint` event
 * with the URI for the client to POST to; its messages are SSE `message` events whose
 * data is the JSON); 2025-11-25 `basic/transports` (Backwards Compatibility: "Servers
 * wanting to support older clients should: continue to host both the SSE and POST
 * endpoints of the old transport, alongside the new MCP endpoint"; Security Warning: the
 * same Origin and Host checks).
 *
 * Theory of operation. A GET of the SSE path opens a session: a kernel from the
 * application's `createSession` (as a Streamable HTTP session's, told `era: "legacy"`),
 * and the one stream that carries everything it sends, which opens with the `endpoint`
 * event `<messagesPath>?sessionId=<id>` (a path on this origin, as the client resolves it
 * against the stream's URL). A POST there is checked outside in (Content-Type 415, the
 * session 400 without the parameter or 404 unknown, alike for another principal's, the
 * body 413, the codec 400 with the JSON-RPC error), fed to the kernel, and accepted
 * (202): the answers come on the stream. The old transport has no resumption, so the
 * session ends when its stream does (the client went away, or fell past the queue bound),
 * as well as when the kernel ends it or the handler closes. A session is bound to the
 * principal of the GET that opened it, as a Streamable HTTP session is to its
 * `initialize`'s.
 */
import { Endpoint } from "../../driver/endpoint.js";
import type { Clock } from "../../driver/clock.js";
import { decode, encode, tryEncode } from "../../jsonrpc/codec.js";
import { ErrorCode, rpcError } from "../../jsonrpc/errors.js";
import { decodeUtf8 } from "../../jsonrpc/safe-json.js";
import { errorText } from "../error-text.js";
import type { JsonRpcMessage } from "../../jsonrpc/types.js";
import { encodeSseEvent } from "../../framing/sse.js";
import { acceptsBatches } from "../../session/session.js";
import { lostAnswer } from "../../session/receive.js";
import type { HttpHandlerOptions, HttpSessionSetup } from "../http-server.js";
import { carrierOf, sseReply, type HttpReply, type HttpRequestView } from "../http-view.js";
import { httpError, jsonResponse, refusedBodyText, RETRY_SOON } from "./body.js";
import { ACCEPTED } from "./legacy-exchange.js";
import { SseConnection } from "./connection.js";
import { accepts, H, isJsonContentType, SSE_TYPE } from "./headers.js";
import { contextOf, principalOf } from "./session-table.js";

/** Where the old transport is served: its SSE endpoint and its POST endpoint, paths on the handler's origin. */
export interface HttpSseOptions {
  /** The SSE endpoint the client GETs (e.g. `/sse`). */
  path: string;
  /** The POST endpoint the `endpoint` event names (e.g. `/messages`). */
  messagesPath: string;
}

/** What the old transport's sessions take from the handler. */
export interface HttpSseConfig {
  readonly options: HttpHandlerOptions;
  readonly httpSse: HttpSseOptions;
  readonly clock: Clock;
  readonly maxBodyBytes: number;
  readonly maxQueuedBytes: number;
  readonly sseKeepAliveMs: number;
  /** An id for a new session, or the refusal (the session table's: `maxSessions` bounds both kinds together, and an id names one session of either). */
  freshId(): string | Response;
  /** A request of a session was answered or cancelled, or a session ended (a draining handler counts what is left). */
  settled(): void;
  /** The handler's diagnostics (an application hook that threw). */
  diagnose(code: string, message: string, sessionId?: string): void;
}


/** One session of the old transport: its kernel, its stream, and who opened it. */
interface SseSession {
  readonly id: string;
  readonly endpoint: Endpoint;
  readonly conn: SseConnection;
  readonly owner: { principal: string; of(request: Request): string | undefined } | undefined;
  readonly setup: HttpSessionSetup;
  closed: boolean;
  /** Set while a body the handler answers itself (malformed) is fed: the kernel's reply to it is not sent again. */
  refusing: boolean;
}

/** The old transport's sessions of one handler, and its two endpoints. */
export interface HttpSseSessions {
  /** Live sessions, by id. */
  readonly sessions: ReadonlyMap<string, { readonly endpoint: Endpoint }>;
  /** Which of the two endpoints `pathname` is, if either. */
  endpointOf(pathname: string): "stream" | "messages" | undefined;
  /** Serves a request to one of them (past the handler's Host and Origin checks). `draining`: no new session or request starts. */
  serve(req: HttpRequestView, which: "stream" | "messages", draining: boolean): Promise<Response | HttpReply>;
  /** Requests not answered yet, over every session. */
  running(): number;
  /** Ends a session (false if there is none). */
  terminate(id: string, reason: string): boolean;
  /** Ends each session with no request running (a draining handler: their clients go elsewhere). */
  endIdle(reason: string): void;
}

const STREAM_ALLOW = { Allow: "GET" };
const MESSAGES_ALLOW = { Allow: "POST" };

/** The old transport's sessions. See the module comment. */
export function createHttpSseSessions(cfg: HttpSseConfig): HttpSseSessions {
  const { options, httpSse, clock } = cfg;
  const sessions = new Map<string, SseSession>();
  // Relative to the SSE endpoint, as the client resolves it against the stream's URL: a
  // proxy that serves the handler under a prefix (`/api/sse`) keeps its POSTs under it too.
  const messagesRef = relativeReference(httpSse.path, httpSse.messagesPath);

  /**
   * Ends a session, whatever ended it (its stream, its kernel, the handler): idempotent. Its
   * requests still running are answered `-32000` on the stream, if it is still open (as a
   * Streamable HTTP session's are), and an `onClose` that throws is reported, not thrown into
   * the socket's close event (a client that disconnects would take the process down).
   */
  function end(s: SseSession, reason: string): void {
    if (s.closed) return;
    s.closed = true;
    if (sessions.get(s.id) === s) sessions.delete(s.id);
    for (const request of Object.values(s.endpoint.state.inbound)) {
      s.conn.write(eventText("message", JSON.stringify({ jsonrpc: "2.0", id: request.id, error: rpcError(ErrorCode.ConnectionClosed, `session terminated: ${reason}`) })));
    }
    s.endpoint.closed(reason);
    s.conn.close();
    try {
      s.setup.onClose?.(reason);
    } catch (e) {
      cfg.diagnose("handler-error", `onClose threw: ${errorText(e)}`, s.id);
    }
    cfg.settled();
  }

  /** A GET of the SSE endpoint: a new session, its stream opening with the `endpoint` event. */
  function open(req: HttpRequestView, draining: boolean): Response | HttpReply {
    if (req.method !== "GET") return httpError(405, ErrorCode.InvalidRequest, `${req.method} is not supported on the SSE endpoint of the HTTP+SSE transport`, { headers: STREAM_ALLOW });
    const accept = req.header(H.accept);
    if (accept !== null && !accepts(accept, SSE_TYPE)) return httpError(406, ErrorCode.InvalidRequest, `the client must accept ${SSE_TYPE}`);
    if (draining) return httpError(503, ErrorCode.InvalidRequest, "the server is closing: it takes no new sessions", { headers: RETRY_SOON });
    const id = cfg.freshId();
    if (id instanceof Response) return id;
    const setup = options.createSession(contextOf(req, id, "legacy"));
    const principal = principalOf(setup, req);
    let session!: SseSession;
    const conn = new SseConnection((_c, why) => end(session, `the SSE stream ended (${why})`), { clock, maxQueuedBytes: cfg.maxQueuedBytes, sseKeepAliveMs: cfg.sseKeepAliveMs });
    const endpoint = new Endpoint(
      setup.options,
      {
        send: (message) => deliver(session, message),
        onRequest: setup.onRequest,
        onNotification: setup.onNotification,
        onEvent: (e) => {
          // A cancelled request gets no answer: a drain counting what is left must hear of it.
          if (e.type === "cancelled") cfg.settled();
          setup.onEvent?.(e);
        },
        onError: setup.onError,
        record: setup.record,
        onClose: (reason) => end(session, reason),
      },
      clock,
    );
    session = { id, endpoint, conn, owner: typeof principal === "string" ? { principal, of: setup.principalOf! } : undefined, setup, closed: false, refusing: false };
    sessions.set(id, session);
    conn.write(eventText("endpoint", `${messagesRef}?sessionId=${encodeURIComponent(id)}`));
    try {
      setup.onOpen?.(endpoint, id);
    } catch (e) {
      // No one will read the stream of a 500: the session, its timers and its place go now.
      end(session, "onOpen failed: the session was not opened");
      throw e;
    }
    return sseReply(conn);
  }

  /** What the kernel sends: a `message` event on the session's stream. */
  function deliver(s: SseSession, message: JsonRpcMessage): void {
    // The kernel's reply to a body the handler refused is in the 400 already.
    if (s.refusing && !("method" in message)) return;
    const encoded = tryEncode(message);
    if (!encoded.ok) return s.endpoint.unsendable(message, encoded.reason);
    s.conn.write(eventText("message", encoded.text));
    if (!("method" in message)) cfg.settled();
  }

  /** A POST to the messages endpoint: fed to the session's kernel, answered 202. */
  async function post(req: HttpRequestView, draining: boolean): Promise<Response | HttpReply> {
    if (req.method !== "POST") return httpError(405, ErrorCode.InvalidRequest, `${req.method} is not supported on the POST endpoint of the HTTP+SSE transport`, { headers: MESSAGES_ALLOW });
    if (!isJsonContentType(req.header(H.contentType))) return httpError(415, ErrorCode.InvalidRequest, "Content-Type must be application/json");
    const sid = req.url().searchParams.get("sessionId");
    if (sid === null) return httpError(400, ErrorCode.InvalidRequest, "the sessionId query parameter is required");
    const s = sessions.get(sid);
    // Another principal's session is answered as an unknown one: it cannot be told from a missing one.
    if (s === undefined || s.closed || (s.owner !== undefined && s.owner.of(req.headRequest()) !== s.owner.principal)) return httpError(404, ErrorCode.InvalidRequest, "session not found");
    const state = s.endpoint.state;
    // The session's own limit where it is lower, so the kernel never refuses what passed here.
    const maxBytes = Math.min(cfg.maxBodyBytes, state.options.maxMessageBytes);
    const body = await req.readBody(maxBytes);
    if (!body.ok) return httpError(body.status, body.status === 413 ? ErrorCode.InvalidRequest : ErrorCode.ParseError, body.reason);
    if (s.closed) return httpError(404, ErrorCode.InvalidRequest, "session not found");
    const d = decode(body.bytes, { allowBatch: acceptsBatches(state), maxBytes, maxDepth: state.options.maxDepth });
    if (d.kind === "invalid") {
      // A malformed answer to one of the server's requests fails that request now, not at its timeout.
      // So does a message with neither a method nor an answer naming one of them (`orAnswers`):
      // the kernel tells which (its reply, when it makes one, is this 400's body).
      if (d.answers != null || d.orAnswers !== undefined) refuse(s, refusedBodyText(body.bytes));
      return jsonResponse(400, encode(d.reply));
    }
    // Draining: what finishes the requests in flight (answers to the server's own requests, cancellations) is taken; a new request is not.
    const holdsRequest = d.kind === "request" || (d.kind === "batch" && d.items.some((i) => i.kind === "request"));
    if (draining && holdsRequest) return httpError(503, ErrorCode.InvalidRequest, "the server is closing: it takes no new requests", { headers: RETRY_SOON });
    if (d.kind !== "batch") take(s, d.message, req, holdsRequest);
    else {
      // A 2025-03-26 batch (JSON-RPC 2.0 §6): each invalid member gets its error on the stream, the rest run.
      const valid: unknown[] = [];
      const malformedAnswers: number[] = [];
      d.items.forEach((item, i) => {
        if (item.kind !== "invalid") valid.push((item as { message: unknown }).message);
        // One of neither shape naming a request of ours in flight is its malformed answer (no reply), as on stdio.
        else if (item.answers != null || lostAnswer(state, item)) malformedAnswers.push(i);
        else s.conn.write(eventText("message", encode(item.reply)));
      });
      if (valid.length > 0) take(s, valid, req, holdsRequest);
      // The decoded batch keeps no invalid member's value: the body is parsed again for them.
      if (malformedAnswers.length > 0) {
        const members = JSON.parse(decodeUtf8(body.bytes)!) as unknown[];
        for (const i of malformedAnswers) refuse(s, members[i]);
      }
    }
    return ACCEPTED;
  }

  /**
   * Feeds what a POST carried. An application hook that throws meanwhile (`onEvent` on a
   * diagnostic of another member of a batch, say) does not stop the step (`Endpoint.feed`
   * throws it once the step is done): the kernel has taken the requests, which run and are
   * answered on the stream. So a POST holding requests is still accepted (202, as every
   * message the old transport takes) and the error reported: a 500 told the client its
   * requests failed while they ran on and their answers came on the stream (a tool's effects
   * unseen, a retry running it twice). One of notifications and responses alone gets the
   * 500, as a Streamable HTTP POST of them does.
   */
  function take(s: SseSession, value: unknown, req: HttpRequestView, holdsRequest: boolean): void {
    try {
      s.endpoint.receive(value, undefined, carrierOf(req));
    } catch (e) {
      if (!holdsRequest) throw e;
      cfg.diagnose("handler-error", errorText(e), s.id);
    }
  }

  /** Feeds a body the handler answers itself, so the server's requests its responses name fail now. */
  function refuse(s: SseSession, value: unknown): void {
    s.refusing = true;
    try {
      s.endpoint.receive(value);
    } finally {
      s.refusing = false;
    }
  }

  return {
    sessions,
    endpointOf: (pathname) => (pathname === httpSse.path ? "stream" : pathname === httpSse.messagesPath ? "messages" : undefined),
    serve: async (req, which, draining) => (which === "stream" ? open(req, draining) : post(req, draining)),
    running() {
      let n = 0;
      for (const s of sessions.values()) n += Object.keys(s.endpoint.state.inbound).length;
      return n;
    },
    terminate(id, reason) {
      const s = sessions.get(id);
      if (s === undefined) return false;
      end(s, reason);
      return true;
    },
    endIdle(reason) {
      for (const s of [...sessions.values()]) if (Object.keys(s.endpoint.state.inbound).length === 0) end(s, reason);
    },
  };
}

/**
 * The reference from the SSE endpoint `from` to `to`, relative (`messages`, `../messages`),
 * so that it resolves under whatever prefix the client reached `from` by.
 */
export function relativeReference(from: string, to: string): string {
  const base = from.split("/").slice(0, -1);
  const target = to.split("/");
  let common = 0;
  while (common < base.length && common < target.length - 1 && base[common] === target[common]) common++;
  const ref = "../".repeat(base.length - common) + target.slice(common).join("/");
  // A first segment with ":" would read as a scheme; an empty one as the base itself.
  return ref === "" || /^[^/]*:/.test(ref) ? `./${ref}` : ref;
}

/** One event of the old transport: `endpoint` or `message`, its data one line (JSON text has no raw line break). */
function eventText(event: string, data: string): string {
  return (encodeSseEvent({ event, data }) as { text: string }).text;
}
