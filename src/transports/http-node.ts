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
 * before the response is finished. Out: a JSON body (finite by its nature: one JSON
 * text) is read whole and written with the status and headers in one write; any other
 * body has its status and headers written at once (an SSE response must reach the
 * client before its first event), then its chunks as they come, the chunks ready in one
 * turn of the event loop corked into one write, waiting for `drain` when the socket
 * pushes back. A client that disconnects mid-body cancels the body's reader, which is
 * how the handler learns that a stream lost its connection. Nothing else here knows
 * what the bodies are.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

/** A fetch-style handler. */
export type FetchHandler = (req: Request) => Promise<Response>;

/** Options of {@link serveNode}. */
export interface ServeNodeOptions {
  /** Port to listen on; 0 picks a free one. Default 0. */
  port?: number;
  /** Interface to bind. Default `127.0.0.1` (loopback only). */
  host?: string;
}

/** A running server. */
export interface NodeServer {
  readonly server: Server;
  /** The bound port. */
  readonly port: number;
  /** `http://<host>:<port>`, with IPv6 hosts bracketed. */
  readonly url: string;
  /** Stops accepting, ends open connections (SSE streams included) and resolves once closed. */
  close(): Promise<void>;
}

/** Adapts a fetch-style handler to a node:http request listener. */
export function toNodeListener(handler: FetchHandler): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void serve(handler, req, res);
  };
}

async function serve(handler: FetchHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const abort = new AbortController();
  // `close` before the response finished: the client went away.
  res.on("close", () => {
    if (!res.writableFinished) abort.abort(new Error("client disconnected"));
  });
  let request: Request;
  try {
    request = toRequest(req, abort.signal);
  } catch {
    res.writeHead(400, { "Content-Type": "text/plain" }).end("Bad Request");
    return;
  }
  let response: Response;
  try {
    response = await handler(request);
  } catch {
    if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" });
    res.end("Internal Server Error");
    return;
  }
  await writeResponse(response, res, abort.signal);
}

/** The `Request` for an `IncomingMessage`; throws on a request URL or header the Fetch API refuses. */
function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const host = req.headers.host ?? "localhost";
  const url = new URL(req.url ?? "/", "http://" + host);
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
  const method = req.method ?? "GET";
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal };
  if (method !== "GET" && method !== "HEAD") {
    init.body = bodyStream(req);
    // Required by the Fetch API for a streamed request body.
    init.duplex = "half";
  }
  return new Request(url, init);
}

/**
 * The request body as a byte stream: `data` chunks are enqueued, the message is paused
 * while the stream's queue is full and resumed when the reader pulls. (Lighter than
 * `Readable.toWeb`, which wraps the message in a general-purpose adapter.)
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let open = true;
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
      },
      pull() {
        req.resume();
      },
      cancel() {
        // The handler read enough (e.g. a body over its bound): the rest is read and dropped,
        // as node:http does with a body nobody consumed, so the connection stays able to
        // carry the answer (a 413).
        open = false;
        req.resume();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}

/** A body read whole before anything is written: JSON, one text. */
function isWholeBody(response: Response): boolean {
  const type = response.headers.get("content-type");
  return type !== null && /^application\/json\s*(;|$)/i.test(type);
}

async function writeResponse(response: Response, res: ServerResponse, signal: AbortSignal): Promise<void> {
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
  const stop = (): void => {
    reader.cancel().catch(() => {});
  };
  if (signal.aborted) return stop();
  signal.addEventListener("abort", stop, { once: true });
  if (isWholeBody(response)) {
    try {
      const bytes = await readWhole(reader);
      if (signal.aborted) return;
      // Status, headers and body in one write (and a Content-Length instead of chunks).
      headers["content-length"] = String(bytes.byteLength);
      res.writeHead(response.status, headers).end(bytes);
    } catch {
      // The body failed, or was cancelled because the client left.
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" });
      res.end("Internal Server Error");
    } finally {
      signal.removeEventListener("abort", stop);
    }
    return;
  }
  res.writeHead(response.status, headers);
  // Headers go out now: an SSE client waits for them before its first event.
  res.flushHeaders();
  let corked = false;
  const uncork = (): void => {
    corked = false;
    res.uncork();
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // Chunks already queued (an event and the response after it) reach the socket together:
      // the tick runs once the reads that resolve at once have been written.
      if (!corked) {
        corked = true;
        res.cork();
        process.nextTick(uncork);
      }
      if (!res.write(value)) await drained(res);
      if (signal.aborted) return;
    }
    res.end();
  } catch {
    // The body failed or was cancelled: end the response where it stands.
    res.destroy();
  } finally {
    signal.removeEventListener("abort", stop);
  }
}

/** Every chunk of `reader`, as one array. */
async function readWhole(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.byteLength;
  }
  if (chunks.length === 1) return chunks[0];
  const whole = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    whole.set(c, at);
    at += c.byteLength;
  }
  return whole;
}

/** Resolves on `drain`, or on `close` (the client left; the loop then sees the abort). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/** Serves `handler` on node:http, bound to 127.0.0.1 by default; resolves once listening. */
export function serveNode(handler: FetchHandler, options: ServeNodeOptions = {}): Promise<NodeServer> {
  const host = options.host ?? "127.0.0.1";
  const server = createServer(toNodeListener(handler));
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
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
