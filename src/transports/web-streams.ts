/**
 * The Web Streams transport: a {@link Transport} over a `ReadableStream` and a
 * `WritableStream`, the stream API every runtime shares (Node, Deno, Bun, browsers).
 *
 * Spec: `basic/transports` ("Custom Transports": implementations "MUST preserve the
 * JSON-RPC message format and lifecycle requirements"); draft `basic/transports/stdio`:
 * custom transports over byte streams "SHOULD reuse this framing". Two framings:
 *
 * - `ndjson`: a byte or text stream (a socket, a pipe, Deno's stdio, a child process)
 *   carrying newline-delimited JSON, exactly as stdio does;
 * - `messages`: a stream whose every chunk already is one message (a MessagePort or
 *   WebSocket bridge, a TransformStream between two in-page endpoints).
 *
 * Theory of operation. The adapter is small: a read loop pushes each chunk into a
 * {@link StreamChannel}, which frames, buffers and answers nothing itself; writes go
 * through a {@link WriterSink}. Writes are serialized by the stream's own writer queue
 * and bounded: the sink reports full as soon as the writer's `desiredSize` is spent, the
 * channel then queues (bounded) and waits for `writer.ready`. Closing this side closes
 * the writer (the peer reads end-of-stream) and cancels the reader; the peer closing or
 * erroring either stream closes this side, once: the writable is watched through
 * `writer.closed`, since it can fail with nothing being written (a socket that died, a
 * peer that cancelled the other end of a pipe), and the requests in flight must fail then,
 * not at their timeout. Once closed, both streams are unlocked again, for the caller's
 * own clean-up.
 *
 * The read loop and the writer sink are exported for the runtime adapters that sit on
 * Web Streams too (Deno's stdio and child processes, Bun's child stdout).
 */
import { errorText } from "./error-text.js";
import type { Transport } from "../api/transport.js";
import { withDefaults } from "../api/option-names.js";
import { callListener } from "../driver/listener.js";
import { INPUT_ENDED_REASON, StreamChannel, type ChannelOptions, type Sink } from "./channel.js";
import type { ChildEvents, StderrMode } from "./child.js";

/** Options for {@link webStreamsTransport}. */
export interface WebStreamsOptions extends ChannelOptions {
  /**
   * What is written to the writable: UTF-8 bytes or strings. Default: bytes for `ndjson`
   * (byte streams such as pipes and sockets accept nothing else), strings for `messages`.
   */
  encoding?: "bytes" | "text" | undefined;
}

const utf8 = /* @__PURE__ */ new TextEncoder();
const ignore = (): void => {};

/**
 * A {@link Sink} over a `WritableStream` writer: full once the writer's `desiredSize`
 * is spent; a failed write is reported to `onError` (never thrown).
 */
export class WriterSink implements Sink {
  /** The promise of the latest write: settled, everything written before it is done too. */
  private last: Promise<void> = Promise.resolve();

  constructor(
    private readonly writer: WritableStreamDefaultWriter<Uint8Array | string>,
    private readonly bytes: boolean,
    private readonly onError: (e: unknown) => void,
  ) {}

  /** Queues the chunk on the writer; false once the writer's queue is full. */
  write(chunk: string): boolean {
    this.last = this.writer.write(this.bytes ? utf8.encode(chunk) : chunk);
    this.last.then(undefined, this.onError);
    const room = this.writer.desiredSize;
    // null: the stream errored; the rejected write reports it, so do not wait for a drain.
    return room === null || room > 0;
  }

  /** Calls `fn` when the writer has room again (`writer.ready`) or has written everything. */
  waitDrain(fn: () => void): void {
    // A stream with highWaterMark 0 is full even when idle, so its `ready` never resolves
    // though its sink takes every write: the last write being done is room enough.
    // A writer that errors instead rejects `ready`, and it may do so with no write in
    // flight to report it (the peer went away while the channel waited): that is the
    // error. Reported twice (a failed write too), the first report is the one kept.
    Promise.race([this.writer.ready, this.last]).then(fn, this.onError);
  }

  /**
   * Closes the writable once the queued writes are done, and gives the stream back
   * (unlocked) at once: the close stays queued in the stream, and a caller whose peer
   * stopped reading (the close would never settle) can still `abort()` it.
   */
  end(): void {
    this.writer.close().then(ignore, ignore);
    this.writer.releaseLock();
  }
}

/**
 * Reads `reader` to its end, handing every chunk to `onChunk`; then releases the reader's
 * lock and calls `onEnd`, or `onError` if the stream failed. Resolves when the loop stops;
 * never rejects.
 */
export async function pumpReader<T>(
  reader: ReadableStreamDefaultReader<T>,
  onChunk: (chunk: T) => void,
  onEnd: () => void,
  onError: (e: unknown) => void,
): Promise<void> {
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      onChunk(r.value);
    }
  } catch (e) {
    reader.releaseLock();
    return onError(e);
  }
  reader.releaseLock();
  onEnd();
}

/**
 * Reads a spawned child's pipes as Deno and Bun give them (streams): stdout into `events`,
 * stderr by `mode` (decoded text to a callback, or the stream itself, handed on, for
 * `"pipe"`). `release` cancels both reads: a pending read of a pipe a grandchild still holds
 * (it holds stderr as well as stdout) would keep this process alive, where Node unrefs both.
 */
export function readChildPipes(
  stdout: ReadableStream<Uint8Array>,
  stderr: () => ReadableStream<Uint8Array> | null | undefined,
  mode: StderrMode,
  events: ChildEvents,
): { stderr: ReadableStream<Uint8Array> | undefined; release(): void } {
  // A broken stdout pipe ends the conversation like an end of stream.
  const output = stdout.getReader();
  void pumpReader(output, events.stdout, events.stdoutEnd, events.stdoutEnd);
  // Read only when piped: Deno's `stderr` getter throws for a stream that is not.
  const logs = typeof mode === "function" ? stderr()?.getReader() : undefined;
  if (logs !== undefined) void forwardText(logs, mode as (text: string) => void);
  return {
    stderr: mode === "pipe" ? (stderr() ?? undefined) : undefined,
    release: () => {
      for (const reader of [output, logs]) void reader?.cancel().then(ignore, ignore);
    },
  };
}

/**
 * Decodes a byte stream as UTF-8 and hands each piece of text to `fn`, for a child's
 * stderr (a character split across chunks waits for the rest of it). Never rejects.
 * Takes the stream's reader, which the caller cancels to stop reading. An `fn` that throws
 * is rethrown on a fresh microtask and the reading goes on: let through, it ended the loop
 * unseen, and the server, its stderr no longer read, blocked once the pipe was full.
 */
export async function forwardText(reader: ReadableStreamDefaultReader<Uint8Array>, fn: (text: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  const emit = (chunk: Uint8Array) => {
    const text = decoder.decode(chunk, { stream: true });
    if (text !== "") callListener(fn, text, undefined, undefined);
  };
  const flush = () => {
    const rest = decoder.decode();
    if (rest !== "") callListener(fn, rest, undefined, undefined);
  };
  // A broken pipe ends the logs like an end of stream.
  await pumpReader(reader, emit, flush, flush);
}

/**
 * A transport over a pair of Web Streams. `readable` carries the peer's messages,
 * `writable` takes ours. The streams are locked while the transport is open, and
 * released once it has closed.
 */
export function webStreamsTransport(
  readable: ReadableStream<Uint8Array | string>,
  writable: WritableStream<Uint8Array | string>,
  options: WebStreamsOptions = {},
): Transport {
  const framing = options.framing ?? "ndjson";
  const reader = readable.getReader();
  let writer: WritableStreamDefaultWriter<Uint8Array | string> | undefined;
  let channel: StreamChannel;
  // A stream errored without a reason (its reader cancelled with none, as a peer's transport
  // closing does) rejects writes with `undefined`: say what that means rather than "undefined".
  const writeFailed = (e: unknown) => channel.closeWith(`write failed: ${e === undefined ? "the stream was closed by its other end" : errorText(e)}`, false);
  // Likewise a readable errored with none (the peer's `writable.abort()` across a pipe or a
  // TransformStream, a source's `controller.error()`) rejects reads with `undefined`.
  const readFailed = (e: unknown) => channel.closeWith(`read failed: ${e === undefined ? "the stream was aborted by its other end" : errorText(e)}`);
  try {
    writer = writable.getWriter();
    const bytes = (options.encoding ?? (framing === "ndjson" ? "bytes" : "text")) === "bytes";
    channel = new StreamChannel(new WriterSink(writer, bytes, writeFailed), withDefaults({ batchWrites: true }, options), () => {
      // Stops the read loop (its pending read resolves as done) and tells the peer.
      reader.cancel().then(ignore, ignore);
    });
  } catch (e) {
    // A writable already locked, an option refused: no transport, so the caller gets both
    // streams back unlocked (to retry, or to cancel a socket's), as a closed transport gives them.
    writer?.releaseLock();
    reader.releaseLock();
    throw e;
  }
  void pumpReader(
    reader,
    (chunk) => channel.push(chunk),
    () => {
      channel.endInput();
      channel.closeWith(INPUT_ENDED_REASON);
    },
    readFailed,
  );
  // The writable failing with no write in flight (after this side closed: a no-op).
  writer.closed.then(undefined, writeFailed);
  return channel;
}
