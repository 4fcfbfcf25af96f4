/**
 * One live SSE connection: the body of one HTTP response, UTF-8 bytes that the server
 * writes events into, read as chunks.
 *
 * Spec: 2025-11-25 `basic/transports` ("Streamable HTTP"): the distinction between
 * closing a *connection* and terminating an *SSE stream*. A connection is what this
 * module is; the stream (its id, its replay log, whether its last response went out) is
 * the server's, and outlives any one connection. Draft `basic/transports/streamable-http`:
 * servers are encouraged to emit an SSE comment line as a keep-alive during quiet periods.
 *
 * Theory of operation. The server calls `write` with encoded SSE text; it goes to the
 * waiting read, or is queued, and a read takes what is queued as one chunk (at most
 * {@link READ_CHUNK_BYTES} of it when the body is a web stream). The
 * node:http bridge reads the connection itself; a `Response` gets it as a web stream
 * ({@link SseConnection.body}) made only then (Node 20 makes every `ReadableStream`
 * transferable, which cost more than the rest of an SSE answer's server side). The queue
 * is bounded: once more than `maxQueuedBytes` wait for a slow reader, the connection
 * closes itself rather than buffer without bound. The reader still gets what was queued
 * (so even a replay larger than the bound makes progress), but only for
 * {@link OVERFLOW_GRACE_MS}: a reader that stopped reading (a client that keeps its socket
 * open) would pin it, so the body then errors, which drops what is left of the queue. A
 * stream the server ends (its answer sent, a polling close, the session deleted) with
 * bytes still queued behind a reader that has been reading gets the same grace. That is
 * safe because every message is in the stream's replay log, and the client resumes with
 * `Last-Event-ID`. When the reader cancels (the HTTP client went away), `onCancel` fires
 * once and later writes are ignored.
 *
 * A connection that wrote nothing for `sseKeepAliveMs` writes a comment line. That keeps
 * proxies from timing out a quiet stream, and it is what finds a peer that vanished
 * without closing TCP: its writes fail, the runtime cancels the body, and the server's
 * cleanup and idle expiry take over. Every timer of a connection (the
 * keep-alive, a polling close) is cancelled when it ends, the grace once the queue is
 * taken or dropped. Nothing here knows about messages.
 */
import type { Clock } from "../../driver/clock.js";
import { encodeSseComment } from "../../framing/sse.js";
import type { ChunkRead, ChunkSource } from "../http-view.js";
import { concatBytes } from "./body.js";

const utf8 = /* @__PURE__ */ new TextEncoder();

/** Why a connection whose reader fell too far behind was closed. */
const OVERFLOWED = "the SSE reader fell more than maxQueuedBytes behind";

/** Most bytes one read of a connection's web stream takes (see SseConnection.takeChunk). */
export const READ_CHUNK_BYTES = 64 * 1024;

/** How long a reader past `maxQueuedBytes` has to take what was queued before it is dropped, in ms. */
export const OVERFLOW_GRACE_MS = 30_000;

const KEEP_ALIVE = /* @__PURE__ */ encodeSseComment();

const DONE: ChunkRead = /* @__PURE__ */ Object.freeze({ done: true, value: undefined });

/** What a connection needs from its server. */
export interface SseConnectionConfig {
  clock: Clock;
  /** Most bytes queued for a slow reader before the connection is closed (it can resume). */
  maxQueuedBytes: number;
  /** A comment line on a connection that wrote nothing for this long, in ms; 0: never. */
  sseKeepAliveMs: number;
}

/** A live SSE response body. */
export class SseConnection implements ChunkSource {
  /** Chunks written and not yet read, from {@link head} (a read takes them, or its most, as one chunk). */
  private queue: Uint8Array[] = [];
  private queuedBytes = 0;
  /** A read was made: the reader has been at it, and may stall. */
  private reading = false;
  /** The timer that fails the body if the reader does not take what is queued in time. */
  private grace: unknown;
  /** A read waiting for the next write (at most one: the reader reads a chunk at a time), and the most it takes. */
  private waiting: ((r: ChunkRead) => void) | undefined;
  private waitingMax = Infinity;
  /** Where the unread part of `queue` starts (a read of part of it moves this, not the rest). */
  private head = 0;
  /** The server may still write (false once it closed, the reader cancelled, or the queue overflowed). */
  private open = true;
  /** Why the body failed (the queue was dropped); reads reject with it. */
  private failure: Error | undefined;
  private failed: (() => void) | undefined;
  /** The body as a web stream, made on first use, and its controller. */
  private web: ReadableStream<Uint8Array> | undefined;
  private webController: ReadableStreamDefaultController<Uint8Array> | undefined;
  /** When the last write was (the clock's time). */
  private lastWrite: number;
  private keepAlive: unknown;
  /** A timer that ends with the connection (see {@link SseConnection.after}). */
  private deadline: unknown;

  constructor(
    /** Called once if the reader goes away before the server closes the connection. */
    private readonly onCancel: (conn: SseConnection, why: string) => void,
    private readonly config: SseConnectionConfig,
  ) {
    this.lastWrite = config.clock.now();
    if (config.sseKeepAliveMs > 0) this.armKeepAlive(this.lastWrite + config.sseKeepAliveMs);
  }

  /**
   * The response body as a web stream, for `new Response(...)`: it pulls from this
   * connection one chunk per read (a high-water mark of 0), so what the reader has not
   * taken waits here, where `maxQueuedBytes` counts it.
   */
  get body(): ReadableStream<Uint8Array> {
    return (this.web ??= new ReadableStream<Uint8Array>(
      {
        start: (c) => {
          this.webController = c;
        },
        pull: (c) => this.read(READ_CHUNK_BYTES).then((r) => (r.done ? c.close() : c.enqueue(r.value))),
        cancel: () => this.cancel(),
      },
      { highWaterMark: 0 },
    ));
  }

  /**
   * The next chunk: what is queued, at most `max` bytes of it. The node:http bridge takes
   * it all (it watches a stalled socket itself); a web stream's runtime takes
   * {@link READ_CHUNK_BYTES} at a time (see {@link takeChunk}).
   */
  read(max = Infinity): Promise<ChunkRead> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.waiting !== undefined) return Promise.reject(new Error("SseConnection: one read at a time"));
    this.reading = true;
    if (this.head < this.queue.length) return Promise.resolve({ done: false, value: this.takeChunk(max) });
    if (!this.open) return Promise.resolve(DONE);
    this.waitingMax = max;
    return new Promise((resolve) => (this.waiting = resolve));
  }

  /** The reader goes away: what was queued is dropped, and `onCancel` fires if the server had not closed the connection. */
  cancel(): void {
    // Idempotent: a second call finds nothing queued or waiting, and the connection no longer open.
    this.drop();
    this.take()?.(DONE);
    if (!this.open) return;
    this.stop();
    this.onCancel(this, "the client closed the response stream");
  }

  onFail(fn: () => void): void {
    this.failed = fn;
  }

  /**
   * Enqueues SSE text. Returns false, writing nothing, once the connection is closed. A
   * queue past `maxQueuedBytes` closes the connection after this write and `onCancel`
   * fires, as for a reader that left (see the module comment for what the reader gets).
   */
  write(text: string): boolean {
    if (!this.open) return false;
    const bytes = utf8.encode(text);
    this.lastWrite = this.config.clock.now();
    const reader = this.take();
    if (reader !== undefined && bytes.byteLength <= this.waitingMax) reader({ done: false, value: bytes });
    else {
      this.queue.push(bytes);
      this.queuedBytes += bytes.byteLength;
      // A waiting read that takes less gets its share; the rest is counted and watched here.
      if (reader !== undefined) reader({ done: false, value: this.takeChunk(this.waitingMax) });
    }
    if (this.queuedBytes > this.config.maxQueuedBytes) {
      this.end(OVERFLOWED, true);
      this.onCancel(this, OVERFLOWED);
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
    this.end("the SSE reader did not take the rest of a stream the server ended", false);
  }

  /**
   * Ends the body; what is still queued has {@link OVERFLOW_GRACE_MS} to be read, or the
   * body fails with `why`. Armed for a queue past the bound, and for any queue left behind
   * a reader that has been reading (it may have stopped); a body ended before its first
   * read (an answer complete at once) is taken whole by that read, with no timer.
   */
  private end(why: string, overflow: boolean): void {
    if (!this.open) return;
    this.stop();
    // A read waits only on an empty queue.
    this.take()?.(DONE);
    if (this.head === this.queue.length || !(overflow || this.reading)) return;
    const clock = this.config.clock;
    this.grace = clock.schedule(clock.now() + OVERFLOW_GRACE_MS, () => this.fail(new Error(why)));
  }

  /** Errors the body, dropping what is still queued (the reader then sees the failure, not the rest). */
  private fail(e: Error): void {
    this.grace = undefined;
    this.failure = e;
    this.drop();
    this.webController?.error(e);
    this.failed?.();
  }

  /**
   * What one read of at most `max` bytes takes (the queue is not empty): the queued chunks
   * up to `max` as one (a slow reader's backlog of small events costs a copy per read, not
   * a read per event), or the first `max` bytes of a larger one. A web stream's runtime
   * reads {@link READ_CHUNK_BYTES} at a time, not the whole backlog: it keeps whatever
   * chunk it is given (Deno, for as long as the client leaves it unread), and the grace
   * timer watches only what is still queued here.
   */
  private takeChunk(max: number): Uint8Array {
    const queue = this.queue;
    const first = queue[this.head];
    if (first.byteLength > max) {
      queue[this.head] = first.subarray(max);
      this.queuedBytes -= max;
      return first.subarray(0, max);
    }
    let end = this.head + 1;
    let bytes = first.byteLength;
    while (end < queue.length && bytes + queue[end].byteLength <= max) bytes += queue[end++].byteLength;
    const taken = this.head === 0 && end === queue.length ? queue : queue.slice(this.head, end);
    if (end === queue.length) this.drop();
    else {
      this.head = end;
      this.queuedBytes -= bytes;
      // The chunks already read are let go: a reader that keeps up but never catches up (a
      // backlog under maxQueuedBytes that never empties) would otherwise keep every byte
      // the connection ever carried. Amortized: at most once per as many reads as are left.
      if (end > 64 && end * 2 > queue.length) {
        this.queue = queue.slice(end);
        this.head = 0;
      }
    }
    return concatBytes(taken);
  }

  /** Empties the queue; a grace timer has nothing left to wait for. */
  private drop(): void {
    this.queue = [];
    this.head = 0;
    this.queuedBytes = 0;
    if (this.grace === undefined) return;
    this.config.clock.cancel(this.grace);
    this.grace = undefined;
  }

  private take(): SseConnection["waiting"] {
    const w = this.waiting;
    this.waiting = undefined;
    return w;
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
