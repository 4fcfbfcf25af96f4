/**
 * One live SSE connection: the body of one HTTP response, as a `ReadableStream` of
 * UTF-8 bytes that the server writes events into.
 *
 * Spec: 2025-11-25 `basic/transports` ("Streamable HTTP"): the distinction between
 * closing a *connection* and terminating an *SSE stream*. A connection is what this
 * module is; the stream (its id, its replay log, whether its last response went out) is
 * the server's, and outlives any one connection. Draft `basic/transports/streamable-http`:
 * servers are encouraged to emit an SSE comment line as a keep-alive during quiet periods.
 *
 * Theory of operation. The server calls `write` with encoded SSE text; it is enqueued
 * at once. The queue is bounded: once more than `maxQueuedBytes` wait for a slow reader,
 * the connection closes itself rather than buffer without bound. The reader still gets
 * what was queued (so even a replay larger than the bound makes progress), but only for
 * {@link OVERFLOW_GRACE_MS}: a reader that stopped reading (a client that keeps its socket
 * open) would pin it, so the body then errors, which drops what is left of the queue.
 * That is safe because every message is in the stream's replay log, and the client
 * resumes with `Last-Event-ID`. When the reader cancels (the HTTP client went away),
 * `onCancel` fires once and later writes are ignored.
 *
 * A connection that wrote nothing for `sseKeepAliveMs` writes a comment line. That keeps
 * proxies from timing out a quiet stream, and it is what finds a peer that vanished
 * without closing TCP: its writes fail, the runtime cancels the body, and the server's
 * cleanup and idle expiry take over. Every timer of a connection (the
 * keep-alive, a polling close) is cancelled when it ends. Nothing here knows about messages.
 */
import type { Clock } from "../../driver/clock.js";
import { encodeSseComment } from "../../framing/sse.js";

const utf8 = /* @__PURE__ */ new TextEncoder();

/** How long a reader past `maxQueuedBytes` has to take what was queued before it is dropped, in ms. */
export const OVERFLOW_GRACE_MS = 30_000;

const KEEP_ALIVE = /* @__PURE__ */ encodeSseComment();

/** What a connection needs from its server. */
export interface SseConnectionConfig {
  clock: Clock;
  /** Most bytes queued for a slow reader before the connection is closed (it can resume). */
  maxQueuedBytes: number;
  /** A comment line on a connection that wrote nothing for this long, in ms; 0: never. */
  sseKeepAliveMs: number;
}

/** A live SSE response body. */
export class SseConnection {
  /** The response body to hand to `new Response(...)`. */
  readonly body: ReadableStream<Uint8Array>;
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private open = true;
  /** When the last write was (the clock's time). */
  private lastWrite: number;
  private keepAlive: unknown;
  /** A timer that ends with the connection (see {@link SseConnection.after}). */
  private deadline: unknown;

  constructor(
    /** Called once if the reader goes away before the server closes the connection. */
    private readonly onCancel: (conn: SseConnection) => void,
    private readonly config: SseConnectionConfig,
  ) {
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (c) => {
          this.controller = c;
        },
        cancel: () => {
          if (!this.open) return;
          this.stop();
          this.onCancel(this);
        },
      },
      { highWaterMark: 0, size: (chunk) => chunk.byteLength },
    );
    this.lastWrite = config.clock.now();
    if (config.sseKeepAliveMs > 0) this.armKeepAlive(this.lastWrite + config.sseKeepAliveMs);
  }

  /** True until the server closes it or the reader cancels. */
  get isOpen(): boolean {
    return this.open;
  }

  /**
   * Enqueues SSE text. Returns false, writing nothing, once the connection is closed. A
   * queue past `maxQueuedBytes` closes the connection after this write and `onCancel`
   * fires, as for a reader that left (see the module comment for what the reader gets).
   */
  write(text: string): boolean {
    if (!this.open) return false;
    const c = this.controller!;
    c.enqueue(utf8.encode(text));
    this.lastWrite = this.config.clock.now();
    // desiredSize is highWaterMark (0) minus what waits: minus the queued byte count.
    if (-(c.desiredSize ?? 0) > this.config.maxQueuedBytes) {
      this.close();
      const clock = this.config.clock;
      // Erroring a body whose queue was taken since is a no-op.
      clock.schedule(clock.now() + OVERFLOW_GRACE_MS, () => c.error(new Error("the SSE reader fell more than maxQueuedBytes behind")));
      this.onCancel(this);
    }
    return true;
  }

  /** Calls `fn` in `ms` unless the connection has ended by then (one such timer at a time). */
  after(ms: number, fn: () => void): void {
    // An ended connection has nothing to wait for (nor anything left to cancel the timer).
    if (!this.open) return;
    const clock = this.config.clock;
    if (this.deadline !== undefined) clock.cancel(this.deadline);
    this.deadline = clock.schedule(clock.now() + ms, () => {
      this.deadline = undefined;
      fn();
    });
  }

  /** Ends the response body (the reader sees end of stream after what was queued). */
  close(): void {
    if (!this.open) return;
    this.stop();
    this.controller!.close();
  }

  private stop(): void {
    this.open = false;
    const clock = this.config.clock;
    if (this.keepAlive !== undefined) clock.cancel(this.keepAlive);
    if (this.deadline !== undefined) clock.cancel(this.deadline);
    this.keepAlive = this.deadline = undefined;
  }

  /** The keep-alive timer: at `at`, a comment if nothing was written for `sseKeepAliveMs`, else a wait until then. */
  private armKeepAlive(at: number): void {
    this.keepAlive = this.config.clock.schedule(at, () => {
      this.keepAlive = undefined;
      if (this.config.clock.now() >= this.lastWrite + this.config.sseKeepAliveMs) this.write(KEEP_ALIVE);
      if (this.open) this.armKeepAlive(this.lastWrite + this.config.sseKeepAliveMs);
    });
  }
}
