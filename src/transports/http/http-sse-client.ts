/**
 * The client of the deprecated HTTP+SSE transport, which the Streamable HTTP client falls
 * back to for a server that predates it.
 *
 * Spec: 2025-11-25 `basic/transports` ("Backwards Compatibility": after a 400, 404 or 405
 * to the initialize POST, a client GETs the server URL and expects an SSE stream whose
 * first event is `endpoint`); 2024-11-05 `basic/transports` ("HTTP with SSE": on connect
 * the server MUST send an `endpoint` event whose data is the URI the client POSTs every
 * message to; the server's messages are `message` events, one JSON-RPC message each).
 *
 * Theory of operation. One GET with `Accept: text/event-stream` is the whole connection:
 * {@link HttpSseClient.opened} settles at its first event, with the endpoint resolved
 * against the stream's URL, or with what the GET gave instead, or after
 * {@link ENDPOINT_WAIT_MS} without an event. An endpoint on another
 * origin is refused: the client's messages, and the headers it was given (an
 * `Authorization`), would go to a host the user never named. Each `send` is then one POST
 * of the message to the endpoint; its answer comes on the stream, so the POST's body is
 * not read, and a POST refused or failed answers its request here. The stream ending, for
 * whatever reason, closes the transport: 2024-11-05 has no resumption. Fetch, headers and
 * the message limit are those of the Streamable HTTP client that opened it, which takes its
 * messages and its end as its own ({@link HttpSseHost}).
 */
import { errorText } from "../error-text.js";
import { createSseDecoder, feedSse, type SseOutput } from "../../framing/sse.js";
import { invalidUtf8StandIn, oversizedStandIn } from "../../jsonrpc/codec.js";
import { echoed, ErrorCode } from "../../jsonrpc/errors.js";
import { overBytes, readWithin, type PostGate } from "./client-stream.js";
import { exceedsBytes, peekRequestId } from "../../jsonrpc/safe-json.js";
import { letGo } from "./body.js";
import { discard, parse, sseLimits } from "./client-body.js";
import { H, mediaTypeOf, SSE_TYPE } from "./headers.js";

/**
 * How long the GET may take to bring its `endpoint` event, in ms, on the client's `sleep`.
 * 2024-11-05: the server MUST send it when the client connects, so it comes with the
 * stream's first bytes. A stream that stays silent (the session-less GET stream of a
 * Streamable HTTP server, the official SDK's stateless one among them) is no such server,
 * and would otherwise hold `connect` until its timeout, or forever without one.
 */
export const ENDPOINT_WAIT_MS = 5000;

/**
 * How long a POST carrying no request (a notification, a response to the server's request)
 * may wait for its answer's headers, in ms, on the client's `sleep`; then it is aborted.
 * 2024-11-05: the POST's answer is only an acknowledgement (`202 Accepted`), which a server
 * sends at once, and nothing awaits it; unbounded, a server that never answered held a
 * connection per message, and a Node process after close() (undici waits five minutes for
 * response headers). A request's POST is aborted once the request is settled instead
 * ({@link HttpSseClient.settled}).
 */
export const POST_WAIT_MS = 5000;

/** What the transport takes from the Streamable HTTP client: its options, as it applies them. */
export interface HttpSseHost {
  readonly fetch: (input: string, init: RequestInit) => Promise<Response>;
  /** The largest message read, in bytes (`maxMessageBytes`). */
  readonly maxBytes: number;
  /** A stream that brings nothing for this long is taken for a broken connection (`readIdleMs`; 0: no bound). */
  readonly readIdleMs: number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** The POSTs without a request waiting for their answer, which hold the stream's reading back. */
  readonly posts: PostGate;
  /** The request headers: the caller's `headers`, `requestHeaders(text)`, Accept and Content-Type. */
  headersFor(text: string | undefined, post: boolean): Record<string, string>;
  report(message: string): void;
  /** Takes a message of the stream (or one this transport wrote itself, `local`), as it takes its own. */
  hand(text: string, local?: boolean): void;
  /** Closes the connection, naming why: the stream ended after the endpoint was known. */
  shut(reason: string, deleteSession: boolean): void;
}

/**
 * A 2024-11-05 HTTP+SSE connection on the SSE stream at `sseUrl`, carrying the Streamable
 * HTTP client that opened it: its messages and its end go to that client ({@link HttpSseHost}),
 * whose listeners the application registered.
 */
export class HttpSseClient {
  /** Settles at the stream's first event: undefined once the endpoint is known, otherwise what the GET gave instead. */
  readonly opened: Promise<string | undefined>;
  private settle!: (failure: string | undefined) => void;
  private endpoint: string | undefined;
  /** The GET and the POSTs in flight, each on its own signal (see HttpClient.request): aborted on close. */
  private readonly fetches = new Set<AbortController>();
  private closed = false;
  /** The stream's reader, let go on close as well: a custom fetch may not end a body on abort. */
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  /** Ends the wait of {@link ENDPOINT_WAIT_MS} for the endpoint event. */
  private endpointWait: AbortController | undefined;
  /** The POSTs of requests not yet answered whose own answer has not come either, by request id key ({@link settled}). */
  private readonly unsettled = new Map<string, AbortController>();

  constructor(
    private readonly host: HttpSseHost,
    private readonly sseUrl: string,
  ) {
    this.opened = new Promise((resolve) => (this.settle = resolve));
    // Aborted (with the GET, by end) once the stream ends, or by adopt once the endpoint is known.
    const bound = (this.endpointWait = this.track());
    const expire = (): void => {
      if (!bound.signal.aborted) this.end(`the GET gave no endpoint event within ${ENDPOINT_WAIT_MS} ms`);
    };
    host.sleep(ENDPOINT_WAIT_MS, bound.signal).then(expire, expire);
    this.listen().catch((e) => this.end(`the HTTP+SSE stream failed: ${errorText(e)}`));
  }

  send(text: string): void {
    if (this.closed) return;
    if (this.unsettled.size > 0 && text.indexOf('"notifications/cancelled"') !== -1) {
      const m = parse(text) as { method?: unknown; params?: { requestId?: unknown } } | undefined;
      if (m?.method === "notifications/cancelled") this.settled(m.params?.requestId);
    }
    // Before the endpoint is known, in order behind it (then-callbacks run in order).
    if (this.endpoint === undefined) void this.opened.then((failure) => {
        if (failure === undefined) void this.post(text);
      });
    else void this.post(text);
  }

  close(): void {
    this.end("transport closed");
  }

  private async listen(): Promise<void> {
    const abort = this.track();
    try {
      let res: Response;
      try {
        res = await this.host.fetch(this.sseUrl, { method: "GET", headers: this.host.headersFor(undefined, false), signal: abort.signal });
      } catch (e) {
        return this.end(`the GET failed (${errorText(e)})`);
      }
      const type = mediaTypeOf(res.headers.get(H.contentType));
      if (!res.ok || type !== SSE_TYPE || res.body === null) {
        discard(res);
        return this.end(res.ok ? `the GET got HTTP ${res.status} with Content-Type ${JSON.stringify(type)}, not an event stream` : `the GET got HTTP ${res.status}`);
      }
      const decoder = createSseDecoder(sseLimits(this.host.maxBytes));
      const reader = (this.reader = res.body.getReader());
      try {
        for (;;) {
          const { done, value } = this.host.readIdleMs > 0 ? await readWithin(this.host, reader, this.host.readIdleMs) : await reader.read();
          if (done || this.closed) break;
          for (const o of feedSse(decoder, value)) {
            if (this.closed) break;
            this.take(o);
            // See PostGate: the answers the stream's messages made wait for the server.
            const room = this.host.posts.room();
            if (room !== undefined) await room;
          }
        }
      } catch (e) {
        return this.end(`the HTTP+SSE stream failed: ${errorText(e)}`);
      } finally {
        letGo(reader);
      }
      this.end(this.endpoint === undefined ? "the GET's event stream ended before an endpoint event" : "the server ended the HTTP+SSE stream");
    } finally {
      this.fetches.delete(abort);
    }
  }

  private take(o: SseOutput): void {
    if (o.type === "retry") return;
    if (this.endpoint === undefined) {
      if (o.type === "error") return this.end(`the GET's first event was over ${this.host.maxBytes} bytes, not an endpoint event`);
      if (o.event !== "endpoint") return this.end(`the GET's first event was ${echoed(JSON.stringify(o.event))}, not "endpoint"`);
      return this.adopt(o.data);
    }
    // What the client cannot read goes to the kernel as the codec's stand-in, classified as
    // the stdio channel's lines are (a response it names fails at once).
    if (o.type === "error") {
      this.host.report(`dropped an SSE event: ${o.reason}`);
      return this.hand(oversizedStandIn(o.head, o.tail, this.host.maxBytes));
    }
    if (o.event !== "message" || o.data === "") return;
    if (this.unsettled.size > 0 && (o.data.indexOf('"result"') !== -1 || o.data.indexOf('"error"') !== -1)) {
      const m = parse(o.data) as { method?: unknown; id?: unknown } | undefined;
      if (typeof m === "object" && m !== null && m.method === undefined) this.settled(m.id);
    }
    if (o.invalidUtf8 === true) {
      this.host.report("an SSE event is not valid UTF-8");
      return this.hand(invalidUtf8StandIn(o.data, o.data));
    }
    if (exceedsBytes(o.data, this.host.maxBytes)) {
      const over = overBytes(o.data, this.host.maxBytes);
      this.host.report(`dropped an SSE event: ${over.reason}`);
      return this.hand(oversizedStandIn(over.head, over.tail, this.host.maxBytes));
    }
    this.hand(o.data);
  }

  /** The `endpoint` event's URI, resolved against the stream's URL; refused on another origin. */
  private adopt(uri: string): void {
    let url: URL;
    try {
      // An empty one would resolve to the stream's own URL, which is no endpoint.
      if (uri.trim() === "") throw new TypeError("empty");
      url = new URL(uri, this.sseUrl);
    } catch {
      return this.end(`the endpoint event's data ${echoed(JSON.stringify(uri))} is not a URI`);
    }
    const origin = new URL(this.sseUrl).origin;
    if (url.origin !== origin) {
      return this.end(`the endpoint event names ${echoed(JSON.stringify(url.href))}, on another origin than the SSE stream's ${origin}: refused, as the client's messages and headers would go there`);
    }
    // Credentials of the server's choosing would reach the user's fetch with every message.
    if (url.username !== "" || url.password !== "") return this.end("the endpoint event names a URI with credentials: refused");
    this.endpoint = url.href;
    this.fetches.delete(this.endpointWait!);
    this.endpointWait!.abort();
    this.settle(undefined);
  }

  private async post(text: string): Promise<void> {
    const abort = this.track();
    const id = peekRequestId(text);
    // A response or notification: counted while it waits for the server (see PostGate).
    const noRequest = id === null;
    const key = noRequest ? undefined : JSON.stringify(id);
    // Ends the wait of POST_WAIT_MS once the POST is answered (or fails), so no timer outlives it.
    const done = new AbortController();
    let letGone = false;
    if (key !== undefined) this.unsettled.set(key, abort);
    else {
      this.host.posts.enter();
      const cut = (): void => {
        if (done.signal.aborted) return;
        letGone = true;
        abort.abort(`the server did not answer the POST within ${POST_WAIT_MS} ms`);
      };
      // An injected sleep that fails leaves the POST unbounded, as before, rather than cut at once.
      try {
        this.host.sleep(POST_WAIT_MS, done.signal).then(cut, () => {});
      } catch {
        // as above
      }
    }
    let res: Response;
    try {
      res = await this.host.fetch(this.endpoint!, { method: "POST", headers: this.host.headersFor(text, true), body: text, signal: abort.signal });
    } catch (e) {
      // Settled meanwhile (answered on the stream, or cancelled): its POST was let go, and nothing is wrong.
      if (key !== undefined && abort.signal.aborted && this.unsettled.get(key) !== abort && !this.closed) return;
      if (letGone) return this.host.report(`a POST was let go: ${String(abort.signal.reason)}`);
      return this.unsent(text, `connection closed: the POST failed (${errorText(e)})`, ErrorCode.ConnectionClosed);
    } finally {
      done.abort();
      this.fetches.delete(abort);
      if (key !== undefined && this.unsettled.get(key) === abort) this.unsettled.delete(key);
      if (noRequest) this.host.posts.leave();
    }
    // 2024-11-05: the answer comes on the stream; the POST's own body (202 "Accepted") holds none.
    discard(res);
    if (!res.ok) this.unsent(text, `the server refused the message: HTTP ${res.status}`, ErrorCode.InternalError);
  }

  /**
   * The request `id` is settled (its response came on the stream, or the client cancelled it,
   * on its timeout or its caller's abort): a POST of it still waiting for its answer's headers
   * is aborted. That answer is only the server's acknowledgement, and a server that never sent
   * it held the connection until close(), a Node process with it; the response comes on the
   * stream, and a cancelled request's is ignored (`basic/utilities/cancellation`).
   */
  private settled(id: unknown): void {
    if (typeof id !== "string" && typeof id !== "number") return;
    const key = JSON.stringify(id);
    const abort = this.unsettled.get(key);
    if (abort === undefined) return;
    this.unsettled.delete(key);
    abort.abort("the request was settled");
  }

  /** A message the server did not take: its request, if it is one, is answered here, so the caller does not wait for a timeout. */
  private unsent(text: string, why: string, code: number): void {
    if (this.closed) return;
    const id = peekRequestId(text);
    if (id === null) return this.host.report(why);
    this.hand(JSON.stringify({ jsonrpc: "2.0", id, error: { code, message: why } }), true);
  }

  private hand(text: string, local = false): void {
    this.host.hand(text, local);
  }

  private track(): AbortController {
    const abort = new AbortController();
    this.fetches.add(abort);
    return abort;
  }

  private end(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    for (const f of this.fetches) f.abort();
    this.fetches.clear();
    letGo(this.reader);
    // Before the endpoint the opener hears why there is none; after it, the connection ends.
    if (this.endpoint === undefined) this.settle(reason);
    else this.host.shut(reason, false);
  }
}
