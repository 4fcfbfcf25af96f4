/**
 * One live SSE connection: the body of one HTTP response, as a `ReadableStream` of
 * UTF-8 bytes that the server writes events into.
 *
 * Spec: 2025-11-25 `basic/transports` ("Streamable HTTP"): the distinction between
 * closing a *connection* and terminating an *SSE stream*. A connection is what this
 * module is; the stream (its id, its replay log, whether its last response went out) is
 * the server's, and outlives any one connection.
 *
 * Theory of operation. The server calls `write` with encoded SSE text; it is enqueued
 * at once. The queue is bounded: once more than `maxQueued` bytes wait for a slow
 * reader, the connection closes itself rather than buffer without bound. That is safe
 * because every message is in the stream's replay log, and the client resumes with
 * `Last-Event-ID`. When the reader cancels (the HTTP client went away), `onCancel`
 * fires once and later writes are ignored. Nothing here knows about messages.
 */

const utf8 = /* @__PURE__ */ new TextEncoder();

/** A live SSE response body. */
export class SseConnection {
  /** The response body to hand to `new Response(...)`. */
  readonly body: ReadableStream<Uint8Array>;
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private open = true;

  constructor(
    /** Called once if the reader goes away before the server closes the connection. */
    private readonly onCancel: (conn: SseConnection) => void,
    /** Most bytes queued for a slow reader before the connection is closed (it can resume). */
    private readonly maxQueued: number,
  ) {
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (c) => {
          this.controller = c;
        },
        cancel: () => {
          if (!this.open) return;
          this.open = false;
          this.onCancel(this);
        },
      },
      { highWaterMark: 0, size: (chunk) => chunk.byteLength },
    );
  }

  /** True until the server closes it or the reader cancels. */
  get isOpen(): boolean {
    return this.open;
  }

  /**
   * Enqueues SSE text. Returns false, writing nothing, once the connection is closed. A
   * queue past `maxQueued` closes the connection after this write (the reader still
   * gets what was queued) and `onCancel` fires, as for a reader that left.
   */
  write(text: string): boolean {
    if (!this.open) return false;
    const c = this.controller!;
    c.enqueue(utf8.encode(text));
    // desiredSize is highWaterMark (0) minus what waits: minus the queued byte count.
    if (-(c.desiredSize ?? 0) > this.maxQueued) {
      this.close();
      this.onCancel(this);
    }
    return true;
  }

  /** Ends the response body (the reader sees end of stream after what was queued). */
  close(): void {
    if (!this.open) return;
    this.open = false;
    this.controller!.close();
  }
}
