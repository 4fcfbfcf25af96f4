/**
 * One Streamable HTTP session on the server: which HTTP response each outgoing message
 * goes to, and the SSE streams that carry them.
 *
 * Spec: 2025-11-25 `basic/transports` ("Sending Messages to the Server" items 5-6,
 * "Listening for Messages from the Server", "Multiple Connections", "Resumability and
 * Redelivery") and SEP-1699 (polling by server-side disconnect).
 *
 * Theory of operation. The session kernel runs in an {@link Endpoint}; every `send` it
 * makes arrives here with `related`, the client request it belongs to. Routing is
 * mechanical and never looks inside a message beyond "is it a response, and to what id":
 *
 * - a response goes to the *exchange* (the POST) that carried the request with its id;
 * - a request or notification with `related` goes to that request's exchange while it is
 *   still open and streams SSE;
 * - anything else goes to the *standalone* stream (the GET stream). Spec: messages are
 *   sent on one stream only, never broadcast.
 *
 * While a POST body is being fed to the kernel (synchronously), that exchange is
 * `receiving`: an answer the kernel makes at once (an error, a ping) goes to it even when
 * an older exchange holds a request of the same id (the kernel's duplicate-id error).
 *
 * A *stream* is logical: a number, a {@link StreamLog} of every message it carried, and
 * at most one live {@link SseConnection}. Messages are appended to the log and written
 * to the connection if there is one; a connection that breaks leaves the stream intact,
 * and a GET with `Last-Event-ID` attaches a new connection that first replays what came
 * after that event (each message exactly once per connection, in order). A POST stream
 * is done when each of its requests has been answered (or cancelled, which ends it with
 * no answer); its connection closes once everything is written.
 *
 * Each GET without `Last-Event-ID` opens a standalone stream of its own (spec: the
 * client "MAY remain connected to multiple SSE streams simultaneously", and a GET is
 * answered with an event stream or 405, so a second one is not refused: a client whose
 * first connection died unnoticed by the server must be able to listen again). An
 * unrelated message goes to the standalone stream connected last that still has its
 * connection; with none connected, to the newest standalone stream, so the messages
 * waiting for a connection are on one stream, in order. Standalone streams without a
 * connection are forgotten when a new GET comes, after their messages that never reached
 * a connection move to it; at most {@link MAX_LIVE_GET_STREAMS} stay connected, GETs and
 * resumptions alike, the one connected longest ago closed first (a server-side close:
 * resumable until the next GET). Unrelated messages that arrive before any GET wait on a
 * standalone stream that has never been connected: queued, bounded by the per-stream log
 * limit; the oldest are dropped with an `onLost` diagnostic.
 *
 * Priming events and polling closes (SEP-1699) are for sessions at 2025-11-25; older
 * sessions get neither, only event ids on their messages for resumption. A resumption that
 * replays nothing is primed too, at a fresh position of its stream.
 *
 * Disconnection is not cancellation in the legacy era (spec: "Disconnection SHOULD NOT
 * be interpreted as the client cancelling its request"), so a broken connection changes
 * nothing but where messages are written: the response still lands in the log.
 *
 * A stateless handler's session serves the one POST it was made for
 * ({@link SessionConfig.stateless}): nothing can resume its stream, so its events have no
 * ids and no priming event, and once its last request is answered it ends.
 */
import type { Endpoint } from "../../driver/endpoint.js";
import { tryEncode } from "../../jsonrpc/codec.js";
import type { JsonRpcErrorResponse, JsonRpcMessage, RequestId } from "../../jsonrpc/types.js";
import { ErrorCode, rpcError } from "../../jsonrpc/errors.js";
import { encodeSseEvent, encodeSsePrimingEvent, encodeSseRetry, type SseEncoded } from "../../framing/sse.js";
import { idKey } from "../../session/types.js";
import { negotiatedVersion } from "../../session/session.js";
import { hasSsePolling } from "../../model/versions.js";
import type { Clock } from "../../driver/clock.js";
import { ChurnMap } from "../../driver/churn-map.js";
import { SseConnection } from "./connection.js";
import { formatEventId, type EventStore, type SessionLogs, type StreamLog } from "./event-log.js";

/** Most standalone (GET) streams of one session connected at once; a GET or resumption past it closes the one connected longest ago. */
export const MAX_LIVE_GET_STREAMS = 8;

/** What a session needs from its handler. */
export interface SessionConfig {
  store: EventStore;
  clock: Clock;
  /** `retry` sent in priming events and before a server-side close, in ms (sessions at 2025-11-25). */
  retryMs: number;
  /** Close each live connection this long after it opens (SEP-1699 polling, sessions at 2025-11-25); 0: never. */
  pollingCloseAfterMs: number;
  /** Most bytes queued on one connection for a slow reader. */
  maxQueuedBytes: number;
  /** A comment line on a connection quiet for this long, in ms; 0: never. */
  sseKeepAliveMs: number;
  /** Most finished POST streams kept for replay per session. */
  maxRetainedStreams: number;
  /** Reports a routing problem that needs no action. */
  diagnose(code: string, message: string, detail?: unknown): void;
  /** Called once when a session ends, whatever ended it. */
  onTerminate(session: HttpSession, reason: string): void;
  /** A request of this session was answered or cancelled, or a resumption took a finished stream's answer (a draining handler counts what is left). */
  settled(): void;
  /**
   * A stateless handler's session (`createHttpHandler({ stateless: true })`): it serves one
   * POST. Its events carry no ids and its streams are not primed, since no GET can resume
   * them, and it ends once that POST's requests are answered.
   */
  stateless?: boolean;
}

/** An SSE stream: a log, and at most one connection. */
export interface Stream {
  readonly kind: "sse";
  readonly no: number;
  readonly standalone: boolean;
  readonly log: StreamLog;
  conn: SseConnection | null;
  everConnected: boolean;
  /** POST streams: requests not yet answered or cancelled. */
  outstanding: number;
  /** POST streams: keys of the requests this POST carried, each with how many answers it still awaits (a batch may repeat an id). */
  readonly ids: Map<string, number>;
  /** POST streams: each answered request's id and the sequence number its answer went in as, so a resumption past it once evicted can say it is gone. */
  readonly answers: Map<string, { id: RequestId; seq: number }>;
  done: boolean;
}

/** A POST answered with JSON (enableJsonResponse): responses collect until all are in. */
export interface JsonExchange {
  readonly kind: "json";
  outstanding: number;
  /** As {@link Stream.ids}. */
  readonly ids: Map<string, number>;
  readonly batch: boolean;
  readonly responses: string[];
  done: boolean;
  /** True while its client waits on the POST: not finished, and the client not known to have left ({@link HttpSession.clientLeft}). */
  awaited: boolean;
  /** Called once, when every request has been answered or cancelled. */
  finish(exchange: JsonExchange): void;
}

/** Where the requests of one POST are answered. */
export type Exchange = Stream | JsonExchange;

/** True for a JSON-RPC response (result or error), as opposed to a request or notification. */
function isResponse(m: JsonRpcMessage): m is Extract<JsonRpcMessage, { id: RequestId | null }> & ({ result: unknown } | { error: unknown }) {
  return !("method" in m);
}

/** The routing state of one session. */
export class HttpSession {
  /** The kernel's driver; set by the handler right after construction. */
  endpoint!: Endpoint;
  /** True once {@link HttpSession.terminate} ran: later requests with this id get 404. */
  closed = false;
  /** When a request last touched this session (the clock's time). */
  lastActivity: number;
  /** The idle timer, when armed. */
  idleTimer: unknown = undefined;
  /** The principal the session was created for, and how the handler reads a request's (set by the handler; none: unbound). */
  owner: { principal: string; of(request: Request): string | undefined } | undefined = undefined;
  private readonly streams = new ChurnMap<number, Stream>();
  private nextStream = 1;
  /** Standalone streams, in the order they were last connected (unrelated messages go to the last one still connected). */
  private readonly standalone: Stream[] = [];
  private readonly routes = new ChurnMap<string, Exchange>();
  private receiving: Exchange | null = null;
  /** Set while {@link HttpSession.refused} feeds a body: the kernel's reply to it is dropped. */
  private refusing = false;
  private finishedStreams = 0;
  /** JSON exchanges whose client still waits on its POST ({@link JsonExchange.awaited}). */
  private awaitedJson = 0;
  /** This session's share of the replay store. */
  private readonly logs: SessionLogs;
  /** Requests of ours sent on a stream and maybe not answered yet, by the id of the event carrying each ({@link HttpSession.asking}). */
  private readonly asked = new Map<string, { stream: number; seq: number; id: RequestId }>();

  constructor(
    /** The `MCP-Session-Id` (a stateless session's: its key in the table, never sent). */
    readonly id: string,
    private readonly config: SessionConfig,
  ) {
    this.lastActivity = config.clock.now();
    this.logs = config.store.createSession(id);
    this.logs.lost = (log, seq) => this.lost(log.stream, seq);
  }

  /** One POST's session, of a stateless handler ({@link SessionConfig.stateless}). */
  get stateless(): boolean {
    return this.config.stateless === true;
  }

  /** Requests of this session not answered or cancelled yet. */
  get running(): number {
    return this.routes.size;
  }

  /**
   * True while a finished POST stream holds an answer never handed to a connection: its
   * client is between SEP-1699 polls, or lost the connection and will resume with
   * `Last-Event-ID`. A draining handler waits for it as for a request still running: the
   * answer lives only in this session's replay log, and goes if the session ends.
   */
  get undelivered(): boolean {
    // Nothing can resume a stateless session's stream.
    if (this.stateless) return false;
    for (const s of this.streams.values()) if (s.done && s.log.undelivered) return true;
    return false;
  }

  /**
   * Live SSE connections of this session, and JSON exchanges whose client still waits on
   * its POST: either is a client that is still there, so the session is not idle. A JSON
   * answer carries no keep-alive to find a vanished client by: it stops counting when the
   * runtime reports the client gone ({@link HttpSession.clientLeft}), or once answered.
   */
  get liveConnections(): number {
    let n = this.awaitedJson;
    for (const s of this.streams.values()) if (s.conn !== null) n++;
    return n;
  }

  // -------------------------------------------------------------------------------------
  // Exchanges: one per POST that carries requests

  /** A new POST stream for requests with the given ids (keys from {@link idKey}). */
  openPostStream(ids: RequestId[]): Stream {
    const s = this.newStream(false);
    this.register(s, ids);
    return s;
  }

  /** A new JSON exchange; `finish` is called once every request is answered or cancelled. */
  openJsonExchange(ids: RequestId[], batch: boolean, finish: (e: JsonExchange) => void): JsonExchange {
    const e: JsonExchange = { kind: "json", outstanding: 0, ids: new Map(), batch, responses: [], done: false, awaited: true, finish };
    this.awaitedJson++;
    this.register(e, ids);
    return e;
  }

  /** The client of a JSON exchange went away (its POST was aborted): it no longer keeps the session from idling. */
  clientLeft(e: JsonExchange): void {
    if (!e.awaited) return;
    e.awaited = false;
    this.awaitedJson--;
  }

  private register(e: Exchange, ids: RequestId[]): void {
    for (const id of ids) {
      const key = idKey(id);
      // A repeated id (in a batch, or of a request still in flight) gets the kernel's -32600
      // as one answer, and its first request's response as the other.
      e.ids.set(key, (e.ids.get(key) ?? 0) + 1);
      e.outstanding++;
      // A duplicate id keeps the older route; the kernel's error for it goes to `receiving`.
      if (!this.routes.has(key)) this.routes.set(key, e);
    }
  }

  /** Feeds a POST body (a parsed message or batch) with `e` as the exchange being received; `carrier`: the POST ({@link Endpoint.receive}). */
  receive(e: Exchange | null, value: unknown, carrier?: () => Request): void {
    this.receiving = e;
    try {
      this.endpoint.receive(value, undefined, carrier);
    } finally {
      this.receiving = null;
    }
  }

  /**
   * Puts on `e` an answer the handler made itself (the error of an invalid member of a
   * 2025-03-26 batch, which the kernel never sees), before the kernel is fed the rest of
   * the body: it settles none of the exchange's requests.
   */
  answer(e: Exchange, text: string): void {
    this.deliver(e, text);
  }

  /**
   * Feeds a body the handler answers itself (a malformed response, alone or a member of a
   * 2025-03-26 batch, an array where batches are not allowed, or a message with an id and
   * neither a method nor an answer, which may answer one of ours), so that the requests of
   * ours its responses name fail now. The kernel's reply to it, if any, is in the
   * handler's answer already (a 400's body): it is not routed again.
   */
  refused(value: unknown): void {
    this.refusing = true;
    try {
      this.endpoint.receive(value);
    } finally {
      this.refusing = false;
    }
  }

  // -------------------------------------------------------------------------------------
  // Routing what the kernel sends

  /** The endpoint's `send` hook. */
  route(message: JsonRpcMessage, related: RequestId | undefined): void {
    const encoded = tryEncode(message);
    // No JSON form (application data in a result, request or notification): the kernel
    // answers the request with -32603 instead, fails ours, or drops the notification.
    if (!encoded.ok) return this.endpoint.unsendable(message, encoded.reason);
    if (isResponse(message)) return this.routeResponse(encoded.text, message.id);
    // A request of the server's (a ping, an extension method's; the capability-gated ones
    // never get here: the client declared none) would be answered in another POST, which no
    // route leads back to this kernel: it fails now, not at its timeout.
    if (this.stateless && "id" in message) return this.endpoint.unsendable(message, "a stateless server cannot take an answer to its own request (it would come in another POST)");
    const target = related === undefined ? undefined : this.routes.get(idKey(related));
    // JSON exchanges carry only their responses; the rest falls back to the GET stream, which
    // a stateless session has none of: there, as on a modern request's JSON answer, it is dropped.
    const s = target !== undefined && target.kind === "sse" && !target.done ? target : this.stateless ? undefined : this.standaloneStream();
    if (s === undefined) return;
    if ("id" in message) {
      if (this.unreachable(s)) return this.undeliverable(message.id, "the client dropped the response stream of the request it was sent for before any event with an id reached it, so nothing can resume that stream");
      this.asking(s, message.id);
    }
    this.write(s, encoded.text);
  }

  /**
   * A POST stream of a session without SEP-1699 priming (before 2025-11-25) whose connection
   * went before any event did: the client holds no event id of it, so no `Last-Event-ID` can
   * resume it, and what goes on it reaches no one (the client's request has failed on its
   * side already).
   */
  private unreachable(s: Stream): boolean {
    return !s.standalone && s.everConnected && s.conn === null && s.log.written === 0 && !s.done && !this.stateless && !this.polls();
  }

  /**
   * A request of ours goes out on `s` as its next event: noted until it is answered, so that
   * if that event never reaches the client it fails now ({@link HttpSession.undeliverable}),
   * not at its timeout (a handler's `ctx.elicit` waiting minutes for an answer to a question
   * never asked). Noted before it is appended: the append may evict it at once.
   */
  private asking(s: Stream, id: RequestId): void {
    // What was answered (or failed, or cancelled) meanwhile is let go: the table holds the requests still waiting.
    const outbound = this.endpoint.state.outbound;
    for (const [key, a] of this.asked) if (!Object.hasOwn(outbound, idKey(a.id))) this.asked.delete(key);
    this.noteAsked(s, id);
  }

  /** Notes request `id` of ours as carried by the next event appended to `s`. */
  private noteAsked(s: Stream, id: RequestId): void {
    const seq = s.log.lastSeq + 1;
    this.asked.set(formatEventId(s.no, seq), { stream: s.no, seq, id });
  }

  /**
   * A request of ours whose event no client will ever get fails now, with `-32000` (as an
   * answer evicted before its client resumed does, {@link HttpSession.lostAnswers}), as this
   * side's own error: its handler hears it at once instead of waiting out its timeout.
   */
  private undeliverable(id: RequestId, why: string): void {
    // Not from within what found it out: the kernel's send, the store's append or drop, a connection's end.
    queueMicrotask(() => {
      if (this.closed || !Object.hasOwn(this.endpoint.state.outbound, idKey(id))) return;
      this.endpoint.receive({ jsonrpc: "2.0", id, error: rpcError(ErrorCode.ConnectionClosed, `connection closed: the request never reached the client: ${why}`) }, true);
    });
  }

  /** The store evicted event `seq` of stream `no` before any connection carried it. */
  private lost(no: number, seq: number): void {
    const key = formatEventId(no, seq);
    const a = this.asked.get(key);
    if (a === undefined) return;
    this.asked.delete(key);
    this.undeliverable(a.id, "it was evicted from the server's replay log (eventStore limits) before any connection carried it");
  }

  private routeResponse(text: string, id: RequestId | null): void {
    // The kernel's reply to a refused body is the 400's body already. One echoing an id (a
    // message with neither a method nor an answer, `orAnswers`, when no request of ours has
    // that id) would otherwise be routed to the client's own request of that id, open on
    // another POST, as its answer.
    if (this.refusing) return;
    const r = this.receiving;
    if (id === null) {
      // The kernel could not read the body being fed (a limit of this session's, say): this
      // one error answers the whole POST, and none of its requests will get another.
      if (r === null) return this.config.diagnose("response-unrouted", "an error response with a null id outside any POST was dropped");
      this.deliver(r, text);
      for (const key of r.ids.keys()) if (this.routes.get(key) === r) this.routes.delete(key);
      r.ids.clear();
      r.outstanding = 1;
      return this.settle(r, "");
    }
    const key = idKey(id);
    const target = r !== null && r.ids.has(key) ? r : this.routes.get(key);
    if (target === undefined) return this.config.diagnose("response-unrouted", "a response to no open POST was dropped", { id });
    this.deliver(target, text);
    if (target.kind === "sse") target.answers.set(key, { id, seq: target.log.lastSeq });
    this.settle(target, key);
  }

  /** The kernel cancelled an inbound request (the client's `notifications/cancelled`): it will get no response. */
  cancelled(id: RequestId): void {
    const key = idKey(id);
    const target = this.routes.get(key);
    if (target !== undefined) this.settle(target, key);
  }

  private deliver(e: Exchange, text: string): void {
    if (e.kind === "json") e.responses.push(text);
    else this.write(e, text);
  }

  /** One request of `e` is answered or cancelled. */
  private settle(e: Exchange, key: string): void {
    const left = (e.ids.get(key) ?? 1) - 1;
    if (left > 0) e.ids.set(key, left);
    else {
      e.ids.delete(key);
      if (this.routes.get(key) === e) this.routes.delete(key);
    }
    this.config.settled();
    // After the answer is routed, not inside it (settle runs within the kernel's send).
    if (this.stateless && this.routes.size === 0) queueMicrotask(() => this.endIfAnswered());
    if (--e.outstanding > 0 || e.done) return;
    e.done = true;
    if (e.kind === "json") {
      this.clientLeft(e);
      return e.finish(e);
    }
    const conn = e.conn;
    if (conn !== null && e.log.written === e.log.lastSeq) {
      // Spec: after the response has been sent the server SHOULD terminate the SSE stream.
      e.conn = null;
      conn.close();
    }
    this.retain();
  }

  /** A stateless session whose requests are all answered ends (its POST's stream closes once written). */
  private endIfAnswered(): void {
    if (!this.closed && this.routes.size === 0) this.terminate("stateless request answered");
  }

  /** The standalone stream an unrelated message goes to (made if there is none). */
  private standaloneStream(): Stream {
    const all = this.standalone;
    let s: Stream | undefined;
    for (let i = all.length - 1; i >= 0 && s === undefined; i--) if (all[i].conn !== null) s = all[i];
    // None connected: the newest stream holds it, so messages waiting for a connection are on one stream, in order.
    s ??= this.newestStandalone();
    if (s === undefined) all.push((s = this.newStream(true)));
    return s;
  }

  /** The standalone stream created last (streams are numbered as they are created). */
  private newestStandalone(): Stream | undefined {
    let newest: Stream | undefined;
    for (const s of this.standalone) if (newest === undefined || s.no > newest.no) newest = s;
    return newest;
  }

  private write(s: Stream, text: string): void {
    const conn = s.conn;
    const seq = this.config.store.append(s.log, text, conn !== null);
    if (conn !== null) conn.write(this.eventText(s.no, seq, text));
  }

  // -------------------------------------------------------------------------------------
  // Connections

  /**
   * Attaches a new connection to a POST stream just opened (the POST's response body):
   * the priming event, then whatever the kernel already sent.
   */
  connectPost(s: Stream): SseConnection {
    return this.attach(s, 0, false);
  }

  /** A GET without `Last-Event-ID`: a standalone stream of its own (the queue of one never connected, if that is the newest). */
  connectStandalone(): SseConnection {
    const all = this.standalone;
    const newest = this.newestStandalone();
    if (newest !== undefined && !newest.everConnected) return this.attach(newest, 0, false);
    // Streams without a connection are forgotten; what never reached one is handed on, oldest
    // stream first, and counted as delivered there (not lost) before the new stream takes it,
    // so moving it evicts nothing of this session's share.
    const waiting: { data: string; asked: { id: RequestId } | undefined }[] = [];
    for (const old of [...all].sort((a, b) => a.no - b.no)) {
      if (old.conn !== null) continue;
      for (const e of old.log.after(old.log.written)) {
        // A request of ours among them is noted under its new place (see `asking`).
        const key = formatEventId(old.no, e.seq);
        waiting.push({ data: e.data, asked: this.asked.get(key) });
        this.asked.delete(key);
      }
      this.config.store.markWritten(old.log, old.log.lastSeq);
      this.forget(old);
      all.splice(all.indexOf(old), 1);
    }
    const s = this.newStream(true);
    for (const w of waiting) {
      if (w.asked !== undefined) this.noteAsked(s, w.asked.id);
      this.config.store.append(s.log, w.data, false);
    }
    all.push(s);
    return this.attach(s, 0, false);
  }

  /**
   * A GET with `Last-Event-ID` naming event `seq` of stream `no`: a connection that
   * replays what came after it, or `undefined` when this session has no such stream or
   * position. A connection still attached to the stream is closed: the client has
   * evidently lost it, and two connections on one stream would broadcast.
   */
  resume(no: number, seq: number): SseConnection | undefined {
    const s = this.streams.get(no);
    if (s === undefined || seq > s.log.lastSeq) return undefined;
    // Evicted events, not a gap in the numbers: a position reserved for a priming event held none.
    const evicted = s.log.evictedUpTo;
    if (evicted > seq) this.config.diagnose("replay-gap", "events after Last-Event-ID were evicted from the replay log; the client misses them", { stream: no, from: seq + 1, to: evicted });
    return this.attach(s, seq, true);
  }

  /** A new connection on `s` that starts after event `after` (0: from the start); `resumed`: by `Last-Event-ID`. */
  private attach(s: Stream, after: number, resumed: boolean): SseConnection {
    const old = s.conn;
    if (old !== null) {
      s.conn = null;
      old.close();
    }
    const conn = new SseConnection((c) => this.connectionLost(s, c), this.config);
    s.conn = conn;
    s.everConnected = true;
    if (s.standalone) this.lastConnected(s);
    const retry = this.config.retryMs;
    const polls = this.polls();
    const log = s.log;
    const replay = log.after(after);
    // Spec (SEP-1699): a stream opens with an event id and empty data, to prime resumption
    // (`<stream>-0`). A resumption's replayed events carry their own ids; one that replays
    // nothing is primed too, at a fresh position of the stream (event ids MUST be unique in
    // the session: not the Last-Event-ID again), so a client that keeps only the ids seen on
    // its current connection (both TypeScript SDKs) still has one to resume from.
    if (polls) {
      if (!resumed) conn.write(textOf(encodeSsePrimingEvent(formatEventId(s.no, 0), retry)));
      else if (replay.length === 0) conn.write(textOf(encodeSsePrimingEvent(formatEventId(s.no, this.config.store.reserve(log)), retry)));
      else conn.write(textOf(encodeSseRetry(retry)));
    }
    let replayed = true;
    for (const e of replay) {
      if (!(replayed = conn.write(this.eventText(s.no, e.seq, e.data)))) break;
      this.config.store.markWritten(log, e.seq);
    }
    if (resumed && replayed) {
      this.lostAnswers(s, after, conn);
      this.lostRequests(s, after);
    }
    if (s.done) {
      if (s.conn === conn) s.conn = null;
      conn.close();
      // The answer a draining handler may be waiting on has reached the client: it counts again.
      this.config.settled();
    } else if (polls && this.config.pollingCloseAfterMs > 0) {
      // A timer of the connection's: cancelled when it ends first (terminate, client gone, overflow).
      conn.after(this.config.pollingCloseAfterMs, () => this.disconnect(s, conn));
    }
    return conn;
  }

  /**
   * A resumption from `after` on `s`, whose replay went out whole: an answer after that
   * position that the replay log evicted (it bounds each session's share) never reaches
   * the client, which would poll the stream for it until its own timeout, as nothing on
   * the wire says it is gone. Each such request gets an error response in its place, with
   * an event id of its own (a later resumption from before it replays it).
   */
  private lostAnswers(s: Stream, after: number, conn: SseConnection): void {
    // Evictions take a log's oldest events: every answer up to `evictedUpTo` is gone.
    const evicted = s.log.evictedUpTo;
    if (evicted <= after) return;
    for (const [key, a] of s.answers) {
      if (a.seq <= after || a.seq > evicted) continue;
      const reply: JsonRpcErrorResponse = { jsonrpc: "2.0", id: a.id, error: rpcError(ErrorCode.ConnectionClosed, "the request was handled, but its response was evicted from the server's replay log (eventStore limits) before the client resumed the stream") };
      const text = JSON.stringify(reply);
      const seq = this.config.store.append(s.log, text, true);
      s.answers.set(key, { id: a.id, seq });
      conn.write(this.eventText(s.no, seq, text));
    }
  }

  /**
   * A resumption from `after` on `s`, whose replay went out whole: a request of ours after
   * that position that the replay log evicted once a connection had carried it (one that
   * broke before the client read it) is one the client shows it never got. It fails now, as
   * one evicted before any connection carried it does ({@link HttpSession.lost}).
   */
  private lostRequests(s: Stream, after: number): void {
    const evicted = s.log.evictedUpTo;
    if (evicted <= after) return;
    for (const [key, a] of this.asked) {
      if (a.stream !== s.no || a.seq <= after || a.seq > evicted) continue;
      this.asked.delete(key);
      this.undeliverable(a.id, "it was evicted from the server's replay log (eventStore limits) before the client resumed the stream");
    }
  }

  /**
   * Makes `s` the standalone stream unrelated messages go to while it is connected, and
   * keeps at most {@link MAX_LIVE_GET_STREAMS} connected, by a GET or a resumption alike:
   * past it the one connected longest ago gets a server-side close (with `retry`), its
   * stream resumable until the next GET.
   */
  private lastConnected(s: Stream): void {
    const all = this.standalone;
    const i = all.indexOf(s);
    if (i >= 0 && i !== all.length - 1) all.push(...all.splice(i, 1));
    let live = 0;
    for (let j = all.length - 1; j >= 0; j--) {
      const conn = all[j].conn;
      if (conn !== null && ++live > MAX_LIVE_GET_STREAMS) this.disconnect(all[j], conn);
    }
  }

  /**
   * The client went away from `conn` (it cancelled the response body), or the connection
   * overflowed. Legacy era: nothing is cancelled; messages keep landing in the log for
   * resumption. (Modern requests never reach a session: closing their stream cancels
   * them, in `modern-request.ts`.)
   */
  private connectionLost(s: Stream, conn: SseConnection): void {
    if (s.conn !== conn) return;
    s.conn = null;
    if (!this.unreachable(s)) return;
    // Requests of ours already waiting on it (its connection broke before it carried them) are gone too.
    for (const [key, a] of this.asked) {
      if (a.stream !== s.no) continue;
      this.asked.delete(key);
      this.undeliverable(a.id, "the client dropped the response stream it went on before any event with an id reached it, so nothing can resume that stream");
    }
  }

  /** Server-side close of the live connection of `s` (SEP-1699): `retry`, then end of body; the stream lives on. */
  private disconnect(s: Stream, conn: SseConnection): void {
    if (s.conn !== conn) return;
    s.conn = null;
    conn.write(textOf(encodeSseRetry(this.config.retryMs)));
    conn.close();
  }

  /**
   * Closes every live connection without ending its stream; returns how many. Before
   * 2025-11-25 (no SEP-1699) a POST stream is left open: it has no event id until its
   * first message, so closed before that its response could not be resumed, and those
   * versions' servers SHOULD NOT close it before the response.
   */
  disconnectAll(): number {
    // A stateless session's stream cannot be resumed: closed, its response would be lost.
    if (this.stateless) return 0;
    const polls = this.polls();
    let n = 0;
    for (const s of this.streams.values()) {
      if (s.conn === null || (!polls && !s.standalone)) continue;
      this.disconnect(s, s.conn);
      n++;
    }
    return n;
  }

  /** SEP-1699 priming and polling closes: sessions at 2025-11-25 whose streams can be resumed. */
  private polls(): boolean {
    return !this.stateless && hasSsePolling(negotiatedVersion(this.endpoint.state));
  }

  /** One message event: `id: <stream>-<seq>` and the message as data (no id when nothing can resume the stream). */
  private eventText(no: number, seq: number, data: string): string {
    return textOf(encodeSseEvent(this.stateless ? { data } : { id: formatEventId(no, seq), data }));
  }

  // -------------------------------------------------------------------------------------
  // Streams

  private newStream(standalone: boolean): Stream {
    const no = this.nextStream++;
    const s: Stream = { kind: "sse", no, standalone, log: this.config.store.createLog(no, this.logs), conn: null, everConnected: false, outstanding: 0, ids: new Map(), answers: new Map(), done: false };
    this.streams.set(no, s);
    return s;
  }

  private forget(s: Stream): void {
    this.streams.delete(s.no);
    this.config.store.drop(s.log);
  }

  /**
   * Keeps at most `maxRetainedStreams` finished POST streams. The oldest one whose events
   * were all written goes first: it is only history, kept in case a client reconnects. A
   * stream still holding an undelivered answer (its client between SEP-1699 polls, or
   * about to resume) goes, oldest first, only when every finished stream holds one: else
   * a long call that finishes after many quick ones would lose its answer to their history.
   */
  private retain(): void {
    if (++this.finishedStreams <= this.config.maxRetainedStreams) return;
    // A finished stream's connection closed when its last event went out.
    // Streams are iterated in creation order: the first delivered one, else the first finished.
    let gone: Stream | undefined;
    for (const s of this.streams.values()) {
      if (!s.done) continue;
      if (!s.log.undelivered) {
        gone = s;
        break;
      }
      gone ??= s;
    }
    if (gone === undefined) return;
    this.forget(gone);
    this.finishedStreams--;
  }

  /**
   * Ends the session: each request still running is answered on its POST, the kernel
   * closes (its handlers are cancelled), then every connection closes and every log is
   * forgotten. Idempotent.
   */
  terminate(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.answerRunning(reason);
    this.endpoint.closed(reason);
    for (const s of this.streams.values()) {
      const conn = s.conn;
      s.conn = null;
      conn?.close();
      this.config.store.drop(s.log);
    }
    this.streams.clear();
    this.routes.clear();
    this.standalone.length = 0;
    this.config.onTerminate(this, reason);
  }

  /**
   * The requests the session ends under (a DELETE, idle expiry, the server closing) get an
   * error response on their POST: its stream "SHOULD eventually include a JSON-RPC
   * response" (2025-11-25 `basic/transports`, Sending Messages item 6), so a client is not
   * left waiting for its timeout on a stream that just ends; and a JSON exchange answers
   * with it, not with the 404 of a session unknown when the request came, after which a
   * client starts a new session and sends the request again (Session Management item 4),
   * running a tool twice.
   */
  private answerRunning(reason: string): void {
    const inbound = this.endpoint.state.inbound;
    for (const [key, e] of [...this.routes.entries()]) {
      const request = inbound[key];
      if (request === undefined || e.done) continue;
      // A stream whose client left has no one to tell (its log goes with the session).
      if (e.kind === "json" || e.conn !== null) {
        const reply: JsonRpcErrorResponse = { jsonrpc: "2.0", id: request.id, error: rpcError(ErrorCode.ConnectionClosed, `session terminated: ${reason}`) };
        this.deliver(e, JSON.stringify(reply));
      }
      this.settle(e, key);
    }
  }
}

/**
 * The text of an encoded event. Every event here is well-formed by construction (ids are
 * digits and a dash, `retryMs` is checked when the handler is created, data is codec
 * output with no raw line break), so the encoder's refusal cannot occur.
 */
function textOf(e: SseEncoded): string {
  return (e as { text: string }).text;
}
