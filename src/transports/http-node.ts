/**
 * The node:http bridge: serves a fetch-style handler (`(Request) => Promise<Response>`)
 * from Node's `http` module.
 *
 * Spec: 2025-11-25 `basic/transports` ("Security Warning": when running locally, servers
 * SHOULD bind only to localhost), which is why {@link serveNode} binds 127.0.0.1 unless
 * told otherwise.
 *
 * Theory of operation. Pure plumbing, both ways streaming. In: the `IncomingMessage`
 * becomes a `Request` whose body is the message itself as a Web stream (never buffered
 * here; the handler bounds it) and whose `signal` aborts when the client goes away
 * before the response is finished. A handler made by `createHttpHandler` is reached
 * through its fast entry instead (`http-view.ts`): the same core on a view of the message
 * (headers looked up in `rawHeaders`, the body read on demand within the handler's bound,
 * the signal made only if asked for), whose replies (status, header record, text or
 * stream) are written as they are; a `Request` is made only if the application asks for
 * one. Out: a JSON body (finite by its nature: one JSON text) is read whole, or taken as
 * the reply's text, and written with the status and headers in one write. Any other body
 * is written a turn of the event loop at a time: the chunks ready in one turn are gathered
 * into one write at its end, the first turn's with the status and headers (which go out
 * alone when no chunk is ready yet: an SSE response must reach the client before its
 * first event), so a body complete in its first turn is a single write with a
 * Content-Length; writing waits for `drain` when the socket pushes back, and a body that
 * errors meanwhile (the handler dropping a slow reader's queue) destroys the socket. A
 * client that disconnects mid-body cancels the body's reader, which is how the handler
 * learns that a stream lost its connection. Sockets get TCP keep-alive, so a peer that
 * vanished without closing is found. A client that keeps its socket open but stopped
 * reading would hold what was handed to that socket (a JSON answer of megabytes, the
 * last events of a stream) for good: while bytes wait to go out, a connection on which
 * none moved for {@link WRITE_STALL_MS} is closed ({@link stallGuard}), the time the
 * handler gives a slow SSE reader. Nothing else here knows what the bodies are.
 */
import { createServer, validateHeaderName, validateHeaderValue, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { systemClock, type Clock } from "../driver/clock.js";
import { ErrorCode } from "../jsonrpc/errors.js";
import { OVERFLOW_GRACE_MS } from "./http/connection.js";
import { bodyTooLarge, concatBytes, declaredLengthRefusal, httpError, UNREADABLE_BODY, type BodyResult } from "./http/body.js";
import { fastEntryOf, type ChunkSource, type FastEntry, type HttpReply, type HttpRequestView } from "./http-view.js";

/** A fetch-style handler: answers at once or later (a router in front of the MCP handler may answer its own routes synchronously). */
export type FetchHandler = (req: Request) => Response | Promise<Response>;

/** Options of {@link toNodeListener}. */
export interface NodeListenerOptions {
  /** Times the wait of a response no byte of which moves ({@link WRITE_STALL_MS}). Default: the system clock (tests inject one). */
  clock?: Clock | undefined;
}

/** Options of {@link serveNode}. */
export interface ServeNodeOptions extends NodeListenerOptions {
  /** Port to listen on; 0 picks a free one. Default 0. */
  port?: number | undefined;
  /** Interface to bind. Default `127.0.0.1` (loopback only). */
  host?: string | undefined;
}

/** A running server. */
export interface NodeServer {
  readonly server: Server;
  /** The bound port. */
  readonly port: number;
  /** `http://<host>:<port>`, with IPv6 hosts bracketed. */
  readonly url: string;
  /**
   * Stops accepting, ends open connections (SSE streams included) and resolves once closed;
   * an answer the handler has already completed (`handler.close()` first) is written out first.
   */
  close(): Promise<void>;
}

/** Adapts a fetch-style handler to a node:http request listener. */
export function toNodeListener(handler: FetchHandler, options: NodeListenerOptions = {}): (req: IncomingMessage, res: ServerResponse) => void {
  const fast = fastEntryOf(handler);
  const clock = options.clock ?? systemClock;
  return (req, res) => {
    // What no path can serve is answered here, once, for both.
    const url = urlOrRefusal(req);
    const departure = new Departure(res, clock);
    if (typeof url === "string") return void refuse(res, departure, url === FORBIDDEN_METHOD ? 501 : 400, url);
    // What the handler answered may not be writable (no Response at all, or one whose body
    // was read already): a 500, as for a handler that throws, never an unhandled rejection
    // (which ends a Node process) and a client left waiting.
    void (fast === undefined ? serve(handler, req, res, url, departure) : serveFast(fast, req, res, url, departure)).catch(() => internalError(res, departure));
  };
}

/**
 * Whether the client went away before the response was finished (`close` first), and
 * what that stops: the request's signal, made only if someone asks for it, and the body
 * being written.
 */
class Departure {
  left = false;
  private controller: AbortController | undefined;
  private listeners: (() => void)[] | undefined;
  /** Cancels the response body being written, while there is one. */
  stopBody: (() => void) | undefined = undefined;

  constructor(
    /** The response the client waits for. */
    readonly res: ServerResponse,
    /** The clock of {@link stallGuard}. */
    readonly clock: Clock,
  ) {
    res.on("close", () => {
      if (!res.writableFinished) this.leave();
    });
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.left) this.controller.abort(new Error("client disconnected"));
    }
    return this.controller.signal;
  }

  /** Runs `fn` when the client leaves (like an `abort` listener added to {@link Departure.signal} now), on a microtask if it has left already (see HttpRequestView.onAbort). */
  onLeave(fn: () => void): void {
    if (this.left) queueMicrotask(fn);
    else (this.listeners ??= []).push(fn);
  }

  private leave(): void {
    this.left = true;
    this.controller?.abort(new Error("client disconnected"));
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners !== undefined) for (const fn of listeners) fn();
    this.stopBody?.();
  }
}

async function serve(handler: FetchHandler, req: IncomingMessage, res: ServerResponse, url: URL, departure: Departure): Promise<void> {
  const consumed = consumedBody(req, Infinity);
  if (consumed?.ok === false) return refuse(res, departure, consumed.status, consumed.reason);
  let response: Response;
  try {
    response = await handler(toRequest(req, url, departure, consumed?.bytes));
  } catch {
    return internalError(res, departure);
  }
  await writeResponse(response, res, departure);
}

/** Like {@link serve}, through the handler's core: no `Request` unless the application asks for one, and replies written as they are. */
async function serveFast(fast: FastEntry, req: IncomingMessage, res: ServerResponse, url: URL, departure: Departure): Promise<void> {
  const view = new NodeRequestView(req, url, departure);
  let answer: Response | HttpReply;
  try {
    answer = await fast(view);
  } catch {
    return internalError(res, departure);
  }
  await (answer instanceof Response ? writeResponse(answer, res, view.departure) : writeReply(answer, res, view.departure));
}

/** A reply of the handler's core, as {@link writeResponse} writes a `Response` with the same parts. */
async function writeReply(reply: HttpReply, res: ServerResponse, departure: Departure): Promise<void> {
  const body = reply.body;
  if (body === null) res.writeHead(reply.status, reply.headers).end();
  else if (typeof body !== "string") await writeStream(body, res, reply.status, reply.headers, departure);
  else if (!departure.left) {
    // Status, headers and body in one write (and a Content-Length instead of chunks).
    res.writeHead(reply.status, { ...reply.headers, "content-length": String(Buffer.byteLength(body)) }).end(body);
    untilFinished(res, departure.clock);
  }
}

/**
 * The request URL (RFC 9112 §3.2), or why it cannot be read. An origin-form target is a
 * path joined to the `Host` header, not resolved against it: `//evil.example/mcp` is a
 * path, not another host. An absolute-form one (a proxy's request) carries its own
 * authority, and the `Host` header is then ignored (§3.2.2: the server MUST use the
 * target's), by the guards too ({@link NodeRequestView}). A `Host` that is no authority
 * (empty, or holding `/`, `@` or a space) is a 400, as §3.2 requires of an invalid one; so is
 * a URL with credentials, which RFC 9110 §4.2.4 says to treat as an error.
 */
function targetOf(req: IncomingMessage): URL | string {
  const target = req.url ?? "/";
  const host = req.headers.host ?? "localhost";
  let url: URL;
  try {
    // (`*`, the asterisk form of `OPTIONS *`, §3.2.4, is taken as the path `/*`, as before.)
    if (!isAbsoluteForm(req)) {
      if (!/^[^\s/?#@\\]+$/.test(host)) return "the Host header is not a host and port";
      url = new URL("http://" + host + (target === "*" ? "/*" : target));
    } else url = new URL(target);
  } catch {
    return "the request target or the Host header cannot be read as a URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "the request target is not an http(s) URL";
  if (url.username !== "" || url.password !== "") return "the request URL must not carry credentials";
  return url;
}

/** Whether the request target is in absolute form (`http://host/path`, §3.2.2), not a path or `*`. */
function isAbsoluteForm(req: IncomingMessage): boolean {
  const target = req.url ?? "/";
  return !target.startsWith("/") && target !== "*";
}

/** Methods `new Request` refuses (Fetch: forbidden methods). */
const FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);
const FORBIDDEN_METHOD = "the method has no Fetch API request (CONNECT, TRACE and TRACK are forbidden methods)";

/**
 * The request's URL, or why the bridge answers it itself: a target or Host it cannot read
 * (400), a method no `Request` can hold ({@link FORBIDDEN_METHOD}: 501, as through either
 * path alike, the fast entry's answers being byte for byte those of the general one).
 */
function urlOrRefusal(req: IncomingMessage): URL | string {
  return FORBIDDEN_METHODS.has(req.method ?? "GET") ? FORBIDDEN_METHOD : targetOf(req);
}

/** Answers what the bridge cannot pass on, as the handler answers what it refuses: `status` with a JSON-RPC error body. */
function refuse(res: ServerResponse, departure: Departure, status: number, message: string, code: number = ErrorCode.InvalidRequest): Promise<void> {
  return writeResponse(httpError(status, code, message), res, departure);
}

/** The handler threw (or rejected): a 500 with a JSON-RPC error, or the end of what it began to write. */
function internalError(res: ServerResponse, departure: Departure): Promise<void> | void {
  if (res.headersSent) return void res.end();
  // A head node:http refused (writeHead threw) left its status's reason phrase behind
  // ("500 OK"): cleared, the 500 gets its own.
  res.statusMessage = "";
  return refuse(res, departure, 500, "the handler failed", ErrorCode.InternalError);
}

/**
 * The `Request` for an `IncomingMessage`; throws on a request URL or method the Fetch API
 * refuses. `body`: the bytes already read, `undefined` to stream the message, `null` for none.
 */
function toRequest(req: IncomingMessage, url: URL, departure: Departure, body: Uint8Array | undefined | null): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  // An absolute-form target's authority replaces the Host header (see targetOf).
  const absolute = isAbsoluteForm(req);
  for (let i = 0; i + 1 < raw.length; i += 2) if (!(absolute && raw[i].toLowerCase() === "host")) headers.append(raw[i], raw[i + 1]);
  if (absolute) headers.set("host", url.host);
  const method = req.method ?? "GET";
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal: departure.signal };
  // (The body already read: a `BufferSource`, which the DOM typings spell with `ArrayBuffer`.)
  if (body !== undefined) init.body = body as Uint8Array<ArrayBuffer>;
  else if (method !== "GET" && method !== "HEAD") {
    init.body = bodyStream(req, departure.res);
    // Required by the Fetch API for a streamed request body.
    init.duplex = "half";
  }
  return new Request(url, init);
}

/**
 * The body of a POST a middleware read before the bridge (Express's `express.json()` and
 * the like: the stream has ended, and no `data` or `end` will come, so reading it would
 * wait forever): the bytes of what the middleware left in `req.body` (a Buffer or string as
 * is, anything else as JSON), or a 400 naming the cause when it left nothing, or nothing
 * with a JSON form (a BigInt, a cycle). Undefined when the body is still there to be read,
 * and for other methods, whose bodies MCP does not read (a drained DELETE still ends its session).
 */
function consumedBody(req: IncomingMessage, maxBytes: number): BodyResult | undefined {
  if (req.method !== "POST" || !req.readableEnded) return undefined;
  const parsed = (req as { body?: unknown }).body;
  let bytes: Uint8Array | undefined;
  if (parsed instanceof Uint8Array) bytes = parsed;
  else if (typeof parsed === "string") bytes = new TextEncoder().encode(parsed);
  else if (parsed !== undefined) {
    let text: string | undefined;
    try {
      text = JSON.stringify(parsed) as string | undefined;
    } catch {
      return { ok: false, status: 400, reason: "the request body was already read before this handler, and the req.body it left has no JSON form" };
    }
    if (text !== undefined) bytes = new TextEncoder().encode(text);
  }
  if (bytes === undefined) return { ok: false, status: 400, reason: "the request body was already read before this handler (a body-parsing middleware?), and it left no req.body" };
  return bytes.byteLength > maxBytes ? bodyTooLarge(maxBytes) : { ok: true, bytes };
}

/**
 * The request body as a byte stream: `data` chunks are enqueued, the message is paused
 * while the stream's queue is full and resumed when the reader pulls. (Lighter than
 * `Readable.toWeb`, which wraps the message in a general-purpose adapter.) It flows from
 * the start, so a body already received is still read after its client left. A body the
 * handler answered without reading in full (a 415, a wrapper's 401) is read and dropped
 * once the response is finished: paused with a full queue nobody reads, the message would
 * never end, and the keep-alive connection's next request would never be read (node:http
 * discards only a body nobody began to consume).
 */
function bodyStream(req: IncomingMessage, res: ServerResponse): ReadableStream<Uint8Array> {
  let open = true;
  const dropRest = (): void => {
    open = false;
    req.resume();
  };
  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        req.on("data", (chunk: Buffer) => {
          if (!open) return;
          c.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((c.desiredSize ?? 0) <= 0) req.pause();
        });
        req.once("end", () => {
          if (open) c.close();
          open = false;
        });
        req.once("error", (e) => {
          if (open) c.error(e);
          open = false;
        });
        res.once("finish", () => {
          if (open) dropRest();
        });
      },
      pull() {
        req.resume();
      },
      // The handler read enough (e.g. a body over its bound): the rest is dropped, so the
      // connection stays able to carry the answer (a 413).
      cancel: dropRest,
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}

/**
 * An `IncomingMessage` as the handler's core reads it. Headers are looked up in
 * `rawHeaders` with the semantics of `Headers` (names compared case-insensitively, repeated
 * fields joined with `, `; node:http has already refused names and values `Headers` would
 * refuse, and trimmed the values). The body is read on demand, bounded.
 */
class NodeRequestView implements HttpRequestView {
  readonly method: string;
  private bytes: Uint8Array | undefined;
  private request: Request | undefined;
  private head: Request | undefined;
  /** An absolute-form target's authority, which stands for the `Host` header (RFC 9112 §3.2.2: the Host header is then ignored). */
  private readonly targetHost: string | undefined;

  constructor(
    private readonly req: IncomingMessage,
    private readonly parsed: URL,
    readonly departure: Departure,
  ) {
    this.method = req.method ?? "GET";
    if (isAbsoluteForm(req)) this.targetHost = parsed.host;
  }

  get signal(): AbortSignal {
    return this.departure.signal;
  }

  onAbort(fn: () => void): void {
    this.departure.onLeave(fn);
  }

  url(): URL {
    return this.parsed;
  }

  header(name: string): string | null {
    const raw = this.req.rawHeaders;
    const wanted = name.toLowerCase();
    if (this.targetHost !== undefined && wanted === "host") return this.targetHost;
    let value: string | null = null;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const n = raw[i];
      if (n.length !== wanted.length || n.toLowerCase() !== wanted) continue;
      value = value === null ? raw[i + 1] : value + ", " + raw[i + 1];
    }
    return value;
  }

  readBody(maxBytes: number): Promise<BodyResult> {
    const refused = declaredLengthRefusal(this.header("content-length"), maxBytes);
    if (refused !== undefined) return Promise.resolve(refused);
    const consumed = consumedBody(this.req, maxBytes);
    if (consumed !== undefined) {
      if (consumed.ok) this.bytes = consumed.bytes;
      return Promise.resolve(consumed);
    }
    return new Promise((resolve) => {
      const req = this.req;
      const chunks: Buffer[] = [];
      let total = 0;
      const finish = (result: BodyResult): void => {
        req.off("data", onData);
        req.off("end", onEnd);
        req.off("error", onError);
        resolve(result);
      };
      const onData = (chunk: Buffer): void => {
        total += chunk.byteLength;
        if (total <= maxBytes) return void chunks.push(chunk);
        // The rest is read and dropped, as node:http does with a body nobody consumed, so
        // the connection stays able to carry the answer (a 413).
        finish(bodyTooLarge(maxBytes));
        req.resume();
      };
      const onEnd = (): void => {
        const whole = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total);
        this.bytes = new Uint8Array(whole.buffer, whole.byteOffset, whole.byteLength);
        finish({ ok: true, bytes: this.bytes });
      };
      const onError = (): void => finish(UNREADABLE_BODY);
      req.on("data", onData);
      req.once("end", onEnd);
      req.once("error", onError);
    });
  }

  toRequest(): Request {
    return (this.request ??= toRequest(this.req, this.parsed, this.departure, this.bytes));
  }

  headRequest(): Request {
    // A body stream on the message now would take its data from readBody's listener; and
    // never the full request, whose body holds the bytes: a kept head (a task's
    // `ctx.httpRequest`) then keeps none of them.
    return (this.head ??= toRequest(this.req, this.parsed, this.departure, null));
  }
}

/** A body read whole before anything is written: JSON, one text. */
function isWholeBody(response: Response): boolean {
  const type = response.headers.get("content-type");
  return type !== null && /^application\/json\s*(;|$)/i.test(type);
}

async function writeResponse(response: Response, res: ServerResponse, departure: Departure): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  const body = response.body;
  if (body === null) {
    res.writeHead(response.status, headers).end();
    return;
  }
  const reader = body.getReader();
  if (!isWholeBody(response)) return writeStream(chunksOf(reader), res, response.status, headers, departure);
  if (departure.left) return cancel(reader);
  departure.stopBody = () => cancel(reader);
  try {
    const bytes = await readWhole(reader);
    if (departure.left) return;
    // Status, headers and body in one write (and a Content-Length instead of chunks).
    headers["content-length"] = String(bytes.byteLength);
    res.writeHead(response.status, headers).end(bytes);
    untilFinished(res, departure.clock);
  } catch {
    // The body failed, or was cancelled because the client left.
    internalError(res, departure);
  } finally {
    departure.stopBody = undefined;
  }
}

function cancel(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  reader.cancel().catch(() => {});
}

/** What {@link writeStream} reads: the core's chunk source (an SSE connection), or a `Response` body's reader as one. */
type Chunks = Pick<ChunkSource, "read" | "cancel" | "onFail">;

function chunksOf(reader: ReadableStreamDefaultReader<Uint8Array>): Chunks {
  return { read: () => reader.read(), cancel: () => cancel(reader), onFail: (fn) => void reader.closed.catch(fn) };
}

/**
 * A body of unknown length. The chunks that are ready in one turn of the event loop are
 * gathered and written as one chunk at its end (or sooner, past {@link FLUSH_BYTES}); the
 * first turn's go with the status and headers, which go out alone at that turn's end when
 * no chunk is ready (an SSE client waits for them before its first event). A body that
 * ends within its first turn (an SSE answer complete at once) is one write, with a
 * Content-Length instead of chunks.
 */
async function writeStream(body: Chunks, res: ServerResponse, status: number, headers: Readonly<Record<string, string | string[]>>, departure: Departure): Promise<void> {
  if (departure.left) return body.cancel();
  // The head is written a tick later (Gather), where a header node:http refuses (a control
  // character `Headers` lets through, such as \x01) would throw past every catch and end
  // the process: refused here instead, a 500 as for a head refused in one write.
  if (!isWritableHead(headers)) {
    body.cancel();
    return internalError(res, departure);
  }
  // The answer to a HEAD has no body (RFC 9110 §9.3.2), and node:http drops what is
  // written to it but sends its head only at its end: a stream (an SSE answer) would keep
  // its client waiting for the head as long as the stream runs, for good if it never ends,
  // and the keep-alive connection's next request behind it. The head goes out now.
  if (res.req?.method === "HEAD") {
    body.cancel();
    return void res.writeHead(status, headers).end();
  }
  departure.stopBody = () => body.cancel();
  const out = new Gather(res, status, headers);
  // A body that errors while the socket does not drain (an SSE reader that stopped reading:
  // the handler drops its queue) must end the response now, or the socket stays open for good.
  const wait: Waiter = { wake: undefined };
  body.onFail(() => wait.wake?.());
  try {
    for (;;) {
      if (res.writableNeedDrain) await drained(res, wait, departure.clock);
      if (departure.left) return;
      const { done, value } = await body.read();
      if (done) break;
      out.add(value);
    }
    // (A body cancelled because the client left ends too: nothing is written then.)
    if (!departure.left) {
      out.end();
      untilFinished(res, departure.clock);
    }
  } catch {
    // The body failed or was cancelled: end the response where it stands. What was gathered
    // (the head at least) goes out first: node:http holds a write until the next tick.
    out.flush();
    process.nextTick(() => res.destroy());
  } finally {
    departure.stopBody = undefined;
  }
}

/** Whether node:http takes these header names and values (what `writeHead` would throw on). */
function isWritableHead(headers: Readonly<Record<string, string | string[]>>): boolean {
  try {
    for (const name in headers) {
      validateHeaderName(name);
      const value = headers[name];
      if (typeof value === "string") validateHeaderValue(name, value);
      else for (const one of value) validateHeaderValue(name, one);
    }
    return true;
  } catch {
    return false;
  }
}

/** Gathered bytes past which a turn's chunks are written at once (so a fast source cannot make them pile up). */
const FLUSH_BYTES = 64 * 1024;

/** The response side of {@link writeStream}: the head, then the gathered chunks, one write per turn. */
class Gather {
  private chunks: Uint8Array[] = [];
  private bytes = 0;
  private headSent = false;
  private scheduled = false;
  private readonly tick = (): void => {
    this.scheduled = false;
    this.flush();
  };

  constructor(
    private readonly res: ServerResponse,
    private readonly status: number,
    private readonly headers: Readonly<Record<string, string | string[]>>,
  ) {
    this.schedule();
  }

  add(chunk: Uint8Array): void {
    this.chunks.push(chunk);
    this.bytes += chunk.byteLength;
    if (this.bytes >= FLUSH_BYTES) this.flush();
    else this.schedule();
  }

  /** Writes the head if it is still due, and what was gathered. */
  flush(): void {
    if (this.res.destroyed) return;
    if (!this.headSent) {
      this.headSent = true;
      this.res.writeHead(this.status, this.headers);
      if (this.chunks.length === 0) return void this.res.flushHeaders();
    }
    if (this.chunks.length > 0) this.res.write(this.take());
  }

  /** The body is complete (a tick still due finds nothing left to write). */
  end(): void {
    if (this.headSent) {
      if (this.chunks.length > 0) this.res.write(this.take());
      this.res.end();
      return;
    }
    this.headSent = true;
    const body = this.take();
    this.res.writeHead(this.status, { ...this.headers, "content-length": String(body.byteLength) }).end(body);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    process.nextTick(this.tick);
  }

  private take(): Uint8Array {
    const chunks = this.chunks;
    this.chunks = [];
    this.bytes = 0;
    return concatBytes(chunks);
  }
}

/** Every chunk of `reader`, as one array. */
async function readWhole(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  return concatBytes(chunks);
}

/** How the wait for `drain` is cut short (a body that errored). */
interface Waiter {
  wake: (() => void) | undefined;
}

/**
 * Resolves on `drain`, on `close` (the client left, or stopped reading for
 * {@link WRITE_STALL_MS}: the loop then sees the abort), or when `wait.wake` is called
 * (the next read then throws).
 */
function drained(res: ServerResponse, wait: Waiter, clock: Clock): Promise<void> {
  return new Promise((resolve) => {
    const stop = stallGuard(res, clock);
    const done = (): void => {
      stop();
      wait.wake = undefined;
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    wait.wake = done;
    res.on("drain", done);
    res.on("close", done);
  });
}

/**
 * How long bytes handed to a socket may wait with none of them moving before the
 * connection is closed, in ms: the time the handler gives an SSE reader to take what it
 * has queued (`OVERFLOW_GRACE_MS`), so both bounds a slow reader meets are one.
 */
export const WRITE_STALL_MS = OVERFLOW_GRACE_MS;

/**
 * Closes the connection of `res` once none of the bytes waiting to go out to it moved for
 * {@link WRITE_STALL_MS}; returns what stops watching. What moved is read from the bytes
 * the socket still holds: the runtime's write queue where it shows one (Node's, which
 * shrinks as the peer takes part of a write), else what is still to be written.
 */
function stallGuard(res: ServerResponse, clock: Clock): () => void {
  // A pipelined response is written before Node gives it the socket (the one before it
  // still has it): its progress is judged from the first check that finds a socket.
  let seen = res.socket === null ? undefined : unsent(res.socket);
  const check = (): void => {
    const socket = res.socket;
    const now = socket === null ? undefined : unsent(socket);
    if (now !== undefined && seen !== undefined && now[0] >= seen[0] && now[1] >= seen[1]) return void res.destroy();
    seen = now;
    timer = clock.schedule(clock.now() + WRITE_STALL_MS, check);
  };
  let timer = clock.schedule(clock.now() + WRITE_STALL_MS, check);
  return () => clock.cancel(timer);
}

/** The bytes a socket still holds: [its write queue where the runtime shows one, what is still to be written]. */
function unsent(socket: NonNullable<ServerResponse["socket"]>): [number, number] {
  const queue = (socket as { _handle?: { writeQueueSize?: unknown } })._handle?.writeQueueSize;
  return [typeof queue === "number" ? queue : 0, socket.writableLength];
}

/** A {@link stallGuard} on a response that is complete but not yet all handed to its socket's peer, until it is. */
function untilFinished(res: ServerResponse, clock: Clock): void {
  if (res.writableFinished) return;
  const stop = stallGuard(res, clock);
  const done = (): void => {
    stop();
    res.off("finish", done);
    res.off("close", done);
  };
  res.on("finish", done);
  res.on("close", done);
}

/** Serves `handler` on node:http, bound to 127.0.0.1 by default; resolves once listening. */
export function serveNode(handler: FetchHandler, options: ServeNodeOptions = {}): Promise<NodeServer> {
  if (typeof handler !== "function") return Promise.reject(new TypeError("serveNode takes a fetch-style handler, (request) => Response: createHttpHandler(…) makes one"));
  const host = options.host ?? "127.0.0.1";
  // TCP keep-alive: a peer that vanished without closing its socket is found even on a
  // connection with nothing to write (the handler's SSE keep-alive covers open streams).
  const listener = toNodeListener(handler, options);
  // The responses not closed yet, for close(): see there.
  const open = new Set<ServerResponse>();
  const server = createServer({ keepAlive: true, keepAliveInitialDelay: 30_000 }, (req, res) => {
    open.add(res);
    res.once("close", () => open.delete(res));
    listener(req, res);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      const shown = host.indexOf(":") !== -1 ? `[${host}]` : host;
      resolve({
        server,
        port,
        url: `http://${shown}:${port}`,
        close: () =>
          new Promise<void>((done) => {
            // Resolved a turn after the last connection closed: a client in this same process
            // (a test, an in-process proxy) has then seen its pooled connections end, and does
            // not send its next request on one.
            server.close(() => setImmediate(done));
            for (const res of open) if (!res.headersSent) res.setHeader("connection", "close");
            // What the handler has already answered in full (README Deploying: a drain's last
            // answer, a listen's completion result, `handler.close({ drainMs })` coming first)
            // is still on its way through the bridge, a few promise turns and a tick: cut now,
            // its client would get "other side closed" instead. So it gets this turn of the event
            // loop to be written, then its connection closes once it is out (or cut by its
            // stall guard, WRITE_STALL_MS); a response still open then (an SSE stream nobody
            // ended) is cut at once, as is every other connection.
            setImmediate(() => {
              const ending: Promise<unknown>[] = [];
              for (const res of open) {
                if (res.writableEnded) ending.push(new Promise((resolve) => res.once("close", resolve)));
                else res.destroy();
              }
              void Promise.all(ending).then(() => server.closeAllConnections());
            });
          }),
      });
    });
  });
}
