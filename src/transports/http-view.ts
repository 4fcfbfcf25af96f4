/**
 * What the Streamable HTTP handler reads of a request and what it answers, without the
 * Fetch API's objects where nobody needs them.
 *
 * Spec: none of its own; it carries the requests of 2025-11-25 `basic/transports`
 * ("Streamable HTTP") and of the draft's `basic/transports/streamable-http` between the
 * node:http bridge and the handler.
 *
 * Theory of operation. The public handler takes a `Request` and returns a `Response`.
 * Between node:http and the handler those objects cost more than serving an MCP message
 * does (a `Request` with a streamed body and a signal of its own, a `Response` whose body
 * is a stream, read back by the bridge), and the bridge would build them only for the
 * handler to take them apart. So the handler's core reads an {@link HttpRequestView}
 * (method, URL, header lookup, bounded body, signal) and answers a `Response` or an
 * {@link HttpReply} (status, header record, body text or stream). Its public entry wraps
 * the `Request` in a {@link RequestView} and turns replies into `Response`s; the bridge
 * reaches the same core through {@link FAST_ENTRY} with a view over the `IncomingMessage`
 * and writes replies as they are. Both entries run the same checks in the same order: only
 * the carriers differ. Where the application is handed the request (the session factory's
 * context), the view makes a real `Request` on demand.
 */
import { readBody, type BodyResult } from "./http/body.js";
import { SSE_TYPE } from "./http/headers.js";

/** One HTTP request, as the handler's core reads it. */
export interface HttpRequestView {
  readonly method: string;
  /** The request URL. */
  url(): URL;
  /** A header's value as `Headers.get` gives it (repeated fields joined with `, `), or null. */
  header(name: string): string | null;
  /** Aborts when the client goes away before the response is finished. */
  readonly signal: AbortSignal;
  /**
   * Runs `fn` once when the client goes away before the response is finished (as an
   * `abort` listener of `signal` would, without making the signal); if it is gone
   * already, on a microtask (an `abort` listener added then would never run, and a client
   * that left while its body was read must still cancel what it asked for).
   */
  onAbort(fn: () => void): void;
  /** Reads the body, at most `maxBytes` (413 past it). Call at most once. */
  readBody(maxBytes: number): Promise<BodyResult>;
  /** The request as a Fetch `Request` (the same one each time). */
  toRequest(): Request;
  /**
   * The request's method, URL and headers as a Fetch `Request`, for checks made before
   * the body is read: {@link toRequest}'s where that leaves the body to `readBody`, else
   * one without a body (the node:http bridge: its stream would take the body from `readBody`).
   */
  headRequest(): Request;
}

/**
 * The request as the `ctx.httpRequest` of the requests it carries (`Endpoint.receive`):
 * made only if read, and without the body the handler has read (the node:http bridge's
 * then holds none of its bytes).
 */
export function carrierOf(req: HttpRequestView): () => Request {
  return () => req.headRequest();
}

/**
 * One read of a {@link ChunkSource}: a `ReadableStreamReadResult` of bytes, spelled out
 * because that name is the DOM library's alone (`@types/node` does not declare it), and
 * these declarations ship to consumers compiling without DOM.
 */
export type ChunkRead = { done: false; value: Uint8Array } | { done: true; value?: Uint8Array };

/**
 * A body written as it goes (an SSE connection), read as chunks: what the bridge needs of a
 * `ReadableStream`, without making one.
 */
export interface ChunkSource {
  /** What was written since the last read, as one chunk (waiting for it if none), or done; rejects once the body failed. One read at a time. */
  read(): Promise<ChunkRead>;
  /** The reader goes away. */
  cancel(): void;
  /** Runs `fn` if the body fails while no read waits (what was queued is dropped). */
  onFail(fn: () => void): void;
  /** The same body as a web stream, for a `Response`. */
  readonly body: ReadableStream<Uint8Array>;
}

/** A response as the core makes it: written as is by the bridge, or turned into a `Response`. */
export interface HttpReply {
  readonly status: number;
  /** Header names in lower case, as `Headers` writes them. Shared records: never mutated. */
  readonly headers: Readonly<Record<string, string>>;
  /** One text (a JSON body), a chunk source (SSE), or nothing. */
  readonly body: string | ChunkSource | null;
}

/** The core of a handler, on views: what the node:http bridge calls instead of the handler. */
export type FastEntry = (view: HttpRequestView) => Promise<Response | HttpReply>;

/** The property of a handler function that holds its {@link FastEntry}. */
export const FAST_ENTRY: unique symbol = Symbol("mcp-kernel.http.fastEntry");

/** The fast entry of `handler`, when it has one (handlers made by `createHttpHandler` do). */
export function fastEntryOf(handler: (req: Request) => Response | Promise<Response>): FastEntry | undefined {
  return (handler as { [FAST_ENTRY]?: FastEntry })[FAST_ENTRY];
}

/**
 * The property of a handler function that tells whether it refuses a request at the door
 * (its `Host` or `Origin` check, a 403), before anything else: a wrapper that answers
 * requests itself (`protectedResource`'s 401) hands such a request to the handler instead.
 */
export const DOOR_CHECK: unique symbol = Symbol("mcp-kernel.http.doorCheck");

/** The door check of `handler`, when it has one (handlers made by `createHttpHandler` do). */
export function doorCheckOf(handler: (req: Request) => Response | Promise<Response>): ((req: Request) => boolean) | undefined {
  return (handler as { [DOOR_CHECK]?: (req: Request) => boolean })[DOOR_CHECK];
}

const JSON_HEADERS: Readonly<Record<string, string>> = /* @__PURE__ */ Object.freeze({ "content-type": "application/json" });

/** A JSON body with `status`; `headers` (lower-case names) are added to its content type. */
export function jsonReply(status: number, text: string, headers?: Record<string, string>): HttpReply {
  return { status, headers: headers === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...headers }, body: text };
}

// Sorted, as `Headers` lists them: the bridge writes the same bytes whichever entry served the request.
const SSE_HEADERS: Readonly<Record<string, string>> = /* @__PURE__ */ Object.freeze({ "cache-control": "no-cache", "content-type": SSE_TYPE, "x-accel-buffering": "no" });

/** An SSE response (200) carrying `body`; `null`: a stream with nothing in it. */
export function sseReply(body: ChunkSource | null): HttpReply {
  return { status: 200, headers: SSE_HEADERS, body };
}

/** A response without a body (202, 204). */
export function emptyReply(status: number): HttpReply {
  return { status, headers: EMPTY_HEADERS, body: null };
}

const EMPTY_HEADERS: Readonly<Record<string, string>> = /* @__PURE__ */ Object.freeze({});

/** The `Response` for what the core answered. */
export function toResponse(r: Response | HttpReply): Response {
  if (r instanceof Response) return r;
  const body = r.body;
  return new Response(body === null || typeof body === "string" ? body : body.body, { status: r.status, headers: r.headers });
}

/** `r` with `headers` (lower-case names) added. */
export function withHeaders(r: Response | HttpReply, headers: Record<string, string>): Response | HttpReply {
  if (!(r instanceof Response)) return { status: r.status, headers: { ...r.headers, ...headers }, body: r.body };
  try {
    for (const k in headers) r.headers.set(k, headers[k]);
    return r;
  } catch {
    // Immutable headers (a `fetch` response that a custom `modern` path passed on): copy it.
    const copy = new Response(r.body, { status: r.status, statusText: r.statusText, headers: r.headers });
    for (const k in headers) copy.headers.set(k, headers[k]);
    return copy;
  }
}

/** The view of a Fetch `Request` (the handler's public entry). */
export class RequestView implements HttpRequestView {
  private parsed: URL | undefined;

  constructor(readonly request: Request) {}

  get method(): string {
    return this.request.method;
  }

  get signal(): AbortSignal {
    return this.request.signal;
  }

  url(): URL {
    return (this.parsed ??= new URL(this.request.url));
  }

  header(name: string): string | null {
    return this.request.headers.get(name);
  }

  onAbort(fn: () => void): void {
    if (this.request.signal.aborted) queueMicrotask(fn);
    else this.request.signal.addEventListener("abort", fn, { once: true });
  }

  readBody(maxBytes: number): Promise<BodyResult> {
    return readBody(this.request, maxBytes);
  }

  toRequest(): Request {
    return this.request;
  }

  headRequest(): Request {
    return this.request;
  }
}
