/**
 * How the HTTP client reads what the server answers a POST with, and the SSE streams it
 * follows: one JSON body, an HTTP error, or an event stream read and, while a request on
 * it waits, resumed with `Last-Event-ID`. Functions of the transport's {@link HttpClient}
 * (`../http-client.ts`), which calls them.
 *
 * Spec: 2025-11-25 `basic/transports` ("Sending Messages to the Server" items 4-6,
 * "Listening for Messages from the Server", "Resumability and Redelivery"), the same page
 * of 2025-06-18 and 2025-03-26; SEP-1699 (the server may close a stream at will; the
 * client honours `retry`); draft `basic/transports/streamable-http` (modern streams are
 * not resumable).
 *
 * Theory of operation. {@link answer} sorts a POST's answer: an error status goes to
 * {@link httpFailure}, a JSON body is read to the message limit and delivered, an event
 * stream is followed ({@link follow}). Every stream, a POST's or the standalone GET's, is
 * read by {@link consume}, which hands each event's message to the client, remembers the
 * last complete event's id and the server's `retry`, and lets go of a POST stream once
 * every request on it is answered. A POST stream that ends before its responses lost its
 * connection, not its stream: {@link followStream} resumes it with a GET carrying
 * `Last-Event-ID`, after the server's `retry` or the backoff ({@link delay}), and after
 * `maxRetries` failures in a row answers its requests itself (-32000). The standalone GET
 * goes through the same loop from its first attempt. A modern stream is never resumed:
 * why it broke goes back to the modern path, which may re-issue the request. An event
 * too large or not UTF-8 is not delivered as it is ({@link unreadable}).
 */
import { errorText } from "../error-text.js";
import { MIN_PEER_DELAY_MS } from "../../driver/clock.js";
import { createSseDecoder, feedSse } from "../../framing/sse.js";
import { decodeInvalidUtf8, decodeOversized, invalidUtf8StandIn, malformedResponseAnswer, oversizedStandIn, type Decoded } from "../../jsonrpc/codec.js";
import { ErrorCode } from "../../jsonrpc/errors.js";
import { exceedsBytes, PEEK_WINDOW, TAIL_WINDOW } from "../../jsonrpc/safe-json.js";
import type { RequestId } from "../../jsonrpc/types.js";
import type { HttpClient, StreamCtx } from "../http-client.js";
import { letGo, NOT_UTF8_BODY } from "./body.js";
import { discard, notUtf8, parse, sseLimits } from "./client-body.js";
import { expired, lost, notYet, renewSession } from "./client-session.js";
import { H, JSON_TYPE, mediaTypeOf, SSE_TYPE } from "./headers.js";

/**
 * The shortest wait a server's `retry` can ask for before a reconnection, in ms
 * ({@link MIN_PEER_DELAY_MS}): a server that sends `retry: 0` and closes at once would
 * otherwise get a tight loop of GETs. The delays of {@link ReconnectOptions} are the
 * caller's, and are taken as they are.
 */
export const MIN_RECONNECT_DELAY_MS = MIN_PEER_DELAY_MS;

/**
 * Most POSTs carrying no request (responses to the server's requests, notifications) that
 * may wait for their answer before the client stops reading its streams ({@link PostGate}).
 */
export const MAX_BODILESS_POSTS = 64;

/**
 * Back-pressure from the POSTs to the streams. A message the server sends on a stream may
 * make the client POST one (the response to a `ping`, or to a request the kernel refuses),
 * and reading does not wait for those POSTs: a server that sent requests faster than it
 * took their answers (or took none: it hung) had the client hold a fetch, and a connection,
 * per request, without bound (20 000 pings, 20 000 fetches in flight). So while
 * {@link MAX_BODILESS_POSTS} such POSTs wait for their answer, no stream is read past the
 * event in hand: the server's messages wait on its side, in its own bounded queue (this
 * package's handler closes a connection whose reader falls `maxQueuedBytes` behind), as a
 * stdio server's output waits for a pipe its client does not drain. Only POSTs that went
 * out count (not those held at a session gate, which may wait on a stream being read), and
 * answering them takes the server no reading of ours: each is a 202.
 */
export class PostGate {
  private inFlight = 0;
  private waiting: (() => void)[] = [];
  private stopped = false;

  /** A POST without a request went out. */
  enter(): void {
    this.inFlight++;
  }

  /** One such POST was answered or failed: the streams read on once fewer than the bound wait. */
  leave(): void {
    this.inFlight--;
    if (this.inFlight < MAX_BODILESS_POSTS) this.release();
  }

  /** Resolves when the streams may be read on; undefined when they may now. */
  room(): Promise<void> | undefined {
    if (this.stopped || this.inFlight < MAX_BODILESS_POSTS) return undefined;
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** The transport closed: nothing waits any more (its streams are let go). */
  stop(): void {
    this.stopped = true;
    this.release();
  }

  private release(): void {
    if (this.waiting.length === 0) return;
    const waiting = this.waiting;
    this.waiting = [];
    for (const fn of waiting) fn();
  }
}

/** `subscriptions/listen`: its stream is kept once its request is answered (see {@link answered}), and it is never re-issued. */
export const LISTEN = "subscriptions/listen";

/**
 * A POST's non-202 answer: an HTTP error, one JSON body, or an SSE stream. Resolves to
 * why the response was lost, for a modern request whose connection broke (see
 * `attemptModern` in client-modern.ts); otherwise every request of `ctx` is answered.
 */
export async function answer(client: HttpClient, ctx: StreamCtx, res: Response): Promise<string | void> {
  const type = mediaTypeOf(res.headers.get(H.contentType));
  if (!res.ok) return httpFailure(client, ctx, res, type);
  // A null-body status (205) or a fetch that gives no body: an event stream with nothing
  // in it, so no answer will come, as for a 202.
  if (type === SSE_TYPE) {
    // A POST of notifications or responses only: the server MUST answer 202 with no body
    // (2025-11-25 `basic/transports`, Sending Messages item 4, and 2025-03-26, 2025-06-18;
    // draft `streamable-http` item 5), so nothing on such a stream is the client's to wait
    // for. Read to its end, one the server kept open held a connection until close(), per
    // notification (a browser has six per host); it is let go at once.
    if (ctx.ids.size === 0) return discard(res);
    return res.body === null ? bodiless(client, ctx, res.status) : follow(client, ctx, res);
  }
  if (type === JSON_TYPE) {
    // Read to the message limit: a server's endless body is cancelled there, not buffered.
    const read = await client.readText(res, ctx);
    // Read whole: the fetch is done with, and its controller can carry the caller's next request.
    const holder = ctx.modern ?? ctx.lease;
    if (read.ok && holder !== undefined) client.controllers.release(holder);
    // Past the message limit: no attempt can do better, so the request fails (not re-issued).
    if (!read.ok && read.status === 413) return client.failed(ctx, `the JSON response body exceeds ${client.maxBytes} bytes`, ErrorCode.InternalError);
    // Not UTF-8 (2025-11-25 basic/transports: messages MUST be): the body answers this POST
    // alone, so its requests fail as a malformed response's would (not re-issued: the server answered).
    if (read === NOT_UTF8_BODY) return client.failed(ctx, notUtf8("the JSON response body"), ErrorCode.InternalError);
    if (!read.ok && ctx.modern !== undefined) return "the JSON response body could not be read";
    if (!read.ok) return client.failed(ctx, "the JSON response body could not be read");
    if (read.text.length > 0) client.deliver(read.text, ctx);
    if (ctx.pending.size > 0) client.failed(ctx, "the JSON response did not answer the request", ErrorCode.InternalError);
    return;
  }
  discard(res);
  client.failed(ctx, `unexpected response Content-Type ${JSON.stringify(type)}`, ErrorCode.InternalError);
}

/** A 202 / 204 answer: fine for notifications and responses; a request MUST get an event stream or a JSON body, so no answer will come for it. */
export function bodiless(client: HttpClient, ctx: StreamCtx, status: number): void {
  if (ctx.pending.size > 0) client.failed(ctx, `the server answered a request with HTTP ${status} and no response`, ErrorCode.InternalError);
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
async function httpFailure(client: HttpClient, ctx: StreamCtx, res: Response, type: string): Promise<void> {
  const read = type === JSON_TYPE ? await client.readText(res, ctx) : (discard(res), undefined);
  const body = read?.ok === true ? read.text : undefined;
  const status = `HTTP ${res.status}`;
  // Whatever code or id it held cannot be read: the requests fail saying why, not with the bare status.
  if (read === NOT_UTF8_BODY) return client.failed(ctx, `${status}: ${notUtf8("the error body")}`, ErrorCode.InternalError);
  if (body !== undefined && body.length > 0) {
    const reply = parse(body) as { jsonrpc?: unknown; id?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } } | undefined;
    if (answersPending(reply, ctx)) {
      client.deliver(body, ctx);
      // The server refused the whole POST naming some of its requests (a member of a
      // 2025-03-26 batch, say): the others get no answer either, and fail now.
      if (ctx.pending.size > 0) client.failed(ctx, `${status}: the error body did not answer the request`, ErrorCode.InternalError);
      return;
    }
    if (reply !== undefined && typeof reply === "object" && reply !== null && !Array.isArray(reply)) {
      const e = reply.error;
      if (typeof e?.message === "string") {
        const message = `${status}: ${e.message}`;
        if (reply.jsonrpc !== "2.0" || !Number.isSafeInteger(e.code)) return client.failed(ctx, message, ErrorCode.InternalError);
        // The server's own error, without an id: its code and data are the peer's.
        return client.answerWaiting(ctx, message, e.data === undefined ? { code: e.code as number, message } : { code: e.code as number, message, data: e.data }, false);
      }
    }
  }
  client.failed(ctx, status, ErrorCode.InternalError);
}

/**
 * Reads `first` (a POST's SSE answer) and, while its requests are unanswered, resumes
 * it. A modern stream is not resumable: when it ends unanswered, resolves to why.
 */
export async function follow(client: HttpClient, ctx: StreamCtx, first: Response | undefined): Promise<string | void> {
  client.followed.add(ctx);
  try {
    return await followStream(client, ctx, first);
  } finally {
    client.followed.delete(ctx);
  }
}

async function followStream(client: HttpClient, ctx: StreamCtx, first: Response | undefined): Promise<string | void> {
  let res: Response | undefined = first;
  let failures = 0;
  // No `first`: the standalone GET, not opened yet. Its first attempt goes out at once, and
  // its failures are reported until a connection is made.
  let opened = first !== undefined;
  for (;;) {
    if (res !== undefined) {
      // A connection counts as a success only if the server sent something on it: an
      // event, the `retry` the spec asks of a server that closes a connection to be
      // polled, a keep-alive comment. One accepted with 200 and ended empty is a failure like a refusal;
      // counted as a success, it would be retried for as long as the server does that.
      failures = (await consume(client, ctx, res)) ? 0 : failures + 1;
      res = undefined;
    }
    if (client.closed || (ctx.kind === "post" && ctx.pending.size === 0)) return;
    // Draft streamable-http: modern streams are not resumable ("Resumable SSE streams via
    // Last-Event-ID are not supported"); the caller re-issues the request or answers it.
    if (ctx.modern !== undefined) return "the response stream ended before the response (modern streams are not resumable)";
    if (ctx.session !== client.sessionId) return lost(client, ctx);
    if (ctx.kind === "post" && ctx.lastEventId === "") return client.failed(ctx, "the response stream ended before the response and carried no event id to resume from");
    const resumeFrom = lastEventIdHeader(ctx.lastEventId);
    if (resumeFrom === undefined) {
      // No header carries this id as it is (see lastEventIdHeader): a resumption with it
      // would throw, or resume another stream. A POST stream cannot be resumed without it;
      // the GET stream is opened afresh, as after a 400.
      const why = `the event id ${JSON.stringify(ctx.lastEventId)} cannot be sent as a Last-Event-ID header`;
      if (ctx.kind === "post") return client.failed(ctx, why);
      client.report(`${why}; reopening the GET stream without it`);
      ctx.lastEventId = "";
    }
    // The first GET is always tried, whatever maxRetries says (it counts failures).
    if ((opened || failures > 0) && failures >= client.maxRetries) {
      if (ctx.kind === "post") return client.failed(ctx, `gave up resuming the response stream after ${failures} attempts`);
      // Not for good: the next POST the server answers opens it again (an outage, a restart
      // still under way), so the notifications a client listens for come back with it.
      if (ctx.kind === "get") client.getStarted = false;
      return client.report(`gave up on the GET stream after ${failures} attempts; the next request that goes through opens it again`);
    }
    if (opened || failures > 0) await client.pause(delay(client, ctx, failures));
    if (client.closed || (ctx.kind === "post" && ctx.pending.size === 0)) return;
    if (ctx.session !== client.sessionId) return lost(client, ctx);
    const headers = client.headersFor(undefined, false);
    if (ctx.lastEventId !== "" && resumeFrom !== undefined) headers[H.lastEventId] = resumeFrom;
    let r: Response;
    try {
      r = await client.request({ method: "GET", headers }, ctx);
    } catch (e) {
      failures++;
      if (!opened && !client.closed) client.report(`GET stream failed: ${errorText(e)}`);
      continue;
    } finally {
      // Requests held until the server answered the session's first GET go out (holdForGet).
      if (ctx.kind === "get") client.getOpened?.();
    }
    if (client.closed || ctx.released) return discard(r);
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
      client.report(`GET stream refused: HTTP ${r.status}`);
      // 404 right after the session answered: a server with no GET route (a framework's
      // POST-only endpoint), not an expired session; renewing would open a session per GET
      // without end (a session that did expire is renewed by its next POST). 409: see below.
      if (r.status === 404 || r.status === 409) return;
    }
    const sid = headers[H.sessionId];
    // A session renewal's own initialize stream (client-session.ts): the new session is gone
    // too. Renewing from here would wait on the renewal that waits on this stream, for good;
    // the stream gives up, and the renewal, with no answer, fails.
    if (r.status === 404 && ctx.renewal !== undefined) return;
    if (r.status === 404 && sid !== undefined) {
      const renewal = await renewSession(client, sid);
      if (renewal === false) return client.shut(expired(client, sid), false);
      // Put off (the server is not reachable yet): this stream tries again on its backoff,
      // so a client that only listens is not left deaf until it sends something.
      if (renewal === "later") {
        client.report(notYet(client, sid));
        continue;
      }
      // Renewed: the renewal ended this stream with its session (endStreams) and opened the new one's.
      return;
    }
    if (r.status === 405 || r.status === 409) {
      // 405: no GET streams here; 409: a server that keeps one GET stream per session (this kernel's keeps several).
      if (ctx.kind === "post") return client.failed(ctx, `the server refused to resume the response stream (HTTP ${r.status})`);
      return client.report(`the server refused to reopen the GET stream (HTTP ${r.status})`);
    }
    if (r.status === 400 && ctx.lastEventId !== "") {
      // The server cannot resume from there.
      if (ctx.kind === "post") return client.failed(ctx, "the server cannot resume the response stream (HTTP 400)");
      ctx.lastEventId = "";
    }
  }
}

/**
 * One read of `reader`, which is let go when nothing comes within `ms` (see
 * {@link HttpClientOptions.readIdleMs}): the stream then reads as broken, and is resumed or
 * ended as a dropped connection's would be.
 */
export async function readWithin(client: Pick<HttpClient, "sleep" | "report">, reader: ReadableStreamDefaultReader<Uint8Array>, ms: number): ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]> {
  const read = new AbortController();
  void client.sleep(ms, read.signal).then(
    () => {
      if (read.signal.aborted) return;
      client.report(`an SSE stream brought nothing for ${ms} ms (readIdleMs): taken for a broken connection`);
      letGo(reader);
    },
    () => undefined,
  );
  try {
    return await reader.read();
  } finally {
    read.abort();
  }
}

/**
 * Reads one SSE response to its end, handing messages over and remembering the cursor.
 * Resolves to whether the server sent anything on it (an event, a `retry`, a comment).
 */
async function consume(client: HttpClient, ctx: StreamCtx, res: Response): Promise<boolean> {
  // A resumption or GET answered with a null-body status: a stream that ended at once.
  if (res.body === null) return false;
  let heard = false;
  const decoder = createSseDecoder(sseLimits(client.maxBytes), ctx.lastEventId);
  const reader = res.body.getReader();
  ctx.reader = reader;
  try {
    for (;;) {
      const { done, value } = client.readIdleMs > 0 ? await readWithin(client, reader, client.readIdleMs) : await reader.read();
      if (done) break;
      // Any bytes are a sign of life, a keep-alive comment too: a quiet stream a proxy cuts
      // now and then (2025-06-18 has no priming event) is not a failing one.
      if (value.length > 0) heard = true;
      for (const o of feedSse(decoder, value)) {
        if (o.type === "retry") ctx.retryMs = o.ms;
        // (A receiver that throws costs the stream nothing: see HttpClient.hand.)
        else if (o.type === "error") dropped(client, o, ctx);
        // Empty data: the priming event, which only moves the cursor.
        else if (o.data !== "" && o.event === "message") {
          if (o.invalidUtf8 === true) notUtf8Event(client, o.data, ctx);
          else if (exceedsBytes(o.data, client.maxBytes)) dropped(client, overBytes(o.data, client.maxBytes), ctx);
          else client.deliver(o.data, ctx);
        }
        // The answers this stream's messages made wait for the server: the next waits here.
        const room = client.posts.room();
        if (room !== undefined) await room;
        // Closed meanwhile: the rest of the chunk is for no one.
        if (client.closed) break;
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

/** Backoff: the server's `retry` (at least {@link MIN_RECONNECT_DELAY_MS}) first, then exponential, never below it. */
export function delay(client: HttpClient, ctx: StreamCtx, failures: number): number {
  const backoff = Math.min(client.maxDelay, client.initialDelay * Math.pow(client.factor, failures));
  if (ctx.retryMs === undefined) return backoff;
  const retry = Math.max(MIN_RECONNECT_DELAY_MS, ctx.retryMs);
  return failures === 0 ? retry : Math.max(retry, backoff);
}

/**
 * An event too large to keep ({@link unreadable}). The error names the
 * client's `maxMessageBytes`, not the decoder's event bound (which leaves room for field
 * names).
 */
function dropped(client: HttpClient, e: { reason: string; head: string; tail: string }, ctx: StreamCtx): void {
  client.report(`dropped an SSE event: ${e.reason}`);
  unreadable(client, decodeOversized(e.head, e.tail, client.maxBytes), oversizedStandIn(e.head, e.tail, client.maxBytes), ctx);
}

/**
 * An event within the decoder's bound, which counts characters (a message of `maxBytes`
 * and its field names), whose message is over `maxBytes` in UTF-8 bytes: refused as a
 * JSON body of that size is, not handed on (up to three times the limit, in a language
 * that is not written in ASCII).
 */
export function overBytes(data: string, maxBytes: number): { reason: string; head: string; tail: string } {
  return { reason: `message exceeds maxMessageBytes (${maxBytes})`, head: data.slice(0, PEEK_WINDOW), tail: data.slice(-TAIL_WINDOW) };
}

/**
 * An event whose data held bytes that are not UTF-8 ({@link unreadable}):
 * "JSON-RPC messages MUST be UTF-8 encoded" (2025-11-25 `basic/transports`), and the
 * replacement characters WHATWG decoding put in their place would parse, so it is
 * refused as the stdio channel refuses such a line.
 */
function notUtf8Event(client: HttpClient, data: string, ctx: StreamCtx): void {
  client.report("an SSE event is not valid UTF-8");
  const head = data.slice(0, PEEK_WINDOW);
  const tail = data.slice(-TAIL_WINDOW);
  unreadable(client, decodeInvalidUtf8(head, tail), invalidUtf8StandIn(head, tail), ctx);
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
function unreadable(client: HttpClient, d: Decoded, standIn: string, ctx: StreamCtx): void {
  if (d.kind !== "invalid" || d.answers === undefined || d.answers === null) return client.hand(standIn);
  const modern = ctx.modern;
  const key = JSON.stringify(modern?.wireId !== undefined && d.answers === modern.wireId ? modern.id : d.answers);
  const id = ctx.ids.get(key);
  if (id === undefined || !ctx.pending.has(key)) return;
  ctx.pending.delete(key);
  // Through deliver, as any answer on the stream: a session renewal's initialize takes its own.
  client.deliver(JSON.stringify(malformedResponseAnswer(id, d.reason)), ctx, true);
}

/**
 * Whether `ctx` is a request's POST stream with nothing left to wait for on it: every
 * request it carried is answered (or cancelled). Never the standalone GET stream, nor a
 * `subscriptions/listen` stream, whose notifications are what it is for.
 */
export function answered(ctx: StreamCtx): boolean {
  return ctx.kind === "post" && ctx.pending.size === 0 && ctx.ids.size > 0 && ctx.modern?.method !== LISTEN;
}

/** Notes request `id` as carried by `ctx` and waiting for its response. */
export function track(ctx: StreamCtx, id: RequestId): void {
  const key = JSON.stringify(id);
  ctx.pending.add(key);
  ctx.ids.set(key, id);
}

/**
 * Whether an error body names a request of `ctx` still waiting: as its id, or (a
 * 2025-03-26 batch's errors, one per invalid member) as the id of one of its members.
 */
export function answersPending(reply: unknown, ctx: StreamCtx): boolean {
  const names = (m: unknown): boolean => {
    const id = typeof m === "object" && m !== null ? (m as { id?: unknown }).id : undefined;
    return (typeof id === "string" || typeof id === "number") && ctx.pending.has(JSON.stringify(id));
  };
  return Array.isArray(reply) ? reply.some(names) : names(reply);
}

/**
 * The `Last-Event-ID` header value for event id `id`: its UTF-8 bytes, one character each,
 * as fetch takes a header value (WHATWG HTML, EventSource: the last event ID string
 * "encoded as UTF-8"; an `é` goes as the two bytes C3 A9, not as the one byte E9, and an
 * emoji can be sent at all). Undefined when no header would carry it as it is: a control
 * character other than tab, which a field value may not hold (RFC 9110 §5.5; fetch
 * implementations differ on which they refuse), or a space or tab at either end, which
 * fetch trims (the server would resume another event's stream).
 */
export function lastEventIdHeader(id: string): string | undefined {
  if (/[\u0000-\u0008\u000a-\u001f\u007f]|^[ \t]|[ \t]$/.test(id)) return undefined;
  if (!/[^\u0000-\u007f]/.test(id)) return id;
  let bytes = "";
  for (const b of new TextEncoder().encode(id)) bytes += String.fromCharCode(b);
  return bytes;
}
