/**
 * The stream channel: the runtime-neutral half of every stream transport (stdio, Web
 * Streams, any socket a custom transport wraps).
 *
 * Spec: `basic/transports` of 2025-11-25 ("stdio") and draft `basic/transports/stdio`:
 * one JSON-RPC message per line, "Messages are delimited by newlines, and MUST NOT
 * contain embedded newlines"; custom transports over byte streams "SHOULD reuse this
 * framing".
 *
 * Theory of operation. A runtime adapter owns the I/O and hands the channel two things:
 * a {@link Sink} to write to, and the chunks it reads ({@link StreamChannel.push}, then
 * {@link StreamChannel.endInput} and {@link StreamChannel.closeWith} when the input ends).
 * The channel does the rest, identically on every runtime:
 *
 * - Framing. In `ndjson` mode incoming chunks go through the pure NDJSON decoder and
 *   outgoing messages become lines; in `messages` mode each chunk already is one message
 *   (a MessagePort or WebSocket bridge) and is passed through.
 * - Lines that cannot be delivered as text are still answered, by the kernel rather than
 *   here (the channel holds no protocol logic): each is delivered as a small stand-in text
 *   of the codec's holding what the framer kept of it (its first and last characters, and
 *   for a line over `maxLineBytes` its size), which the codec classifies as it would the
 *   original: a line that is not UTF-8 (`invalidUtf8StandIn`) is `-32700`, id `null`, and
 *   an oversized one (`oversizedStandIn`) `-32600` naming the request's id where either
 *   end shows it; either one, when it is a response, fails the request it answers at once
 *   instead of at its timeout. The stream goes on with the next line. The true cause is
 *   reported to `onFault`, for logs.
 * - Write batching (`batchWrites`, ndjson only). A message sent while the sink is idle is
 *   written at once; the ones sent after it in the same turn of the event loop (the
 *   answers to a chunk of requests, a burst of calls) are joined and written together
 *   when the turn ends (`setImmediate` where the runtime has it, else a microtask). One
 *   write, one syscall, for a burst instead of one per message; no delay for a lone
 *   message. The end of the turn is only waited for once a second message comes: a
 *   lone message costs one microtask (did anything follow it?), not a pass of the event
 *   loop, which a sequential caller would pay on every round trip.
 * - Backpressure. A message is written straight through while the sink accepts more;
 *   once it reports full, messages wait in a queue, and on the sink's drain the whole
 *   queue goes out as one write (one syscall for a burst). Whether the peer reads is
 *   judged by time, not by one burst: a burst sent in one turn (six 3.5 MB answers to
 *   six concurrent calls) is all queued before any drain can come, though the peer is
 *   reading. So a queue over `maxQueuedChars` only arms a timer of `maxStallMs` (the
 *   30 s the HTTP handler gives a slow SSE reader); every drain (the peer took what was
 *   written) cancels it, and a queue still over the bound when the sink fills again
 *   re-arms it. A sink that does not drain in that time is a dead peer: the channel
 *   closes with a reason that says so, rather than buffering without end. Memory stays
 *   bounded meanwhile: a queue over {@link HARD_QUEUE_FACTOR} × `maxQueuedChars` (this
 *   side keeps producing, answers to the peer's requests say, while nothing drains)
 *   closes the channel at once, with a reason of its own (a burst that large closes it
 *   even while the peer reads: the price of the bound). The timer runs on the injected
 *   `clock` (by default the runtime's, which does not keep a process alive) and is
 *   cancelled on close.
 * - The {@link Transport} contract: messages that arrive before `onMessage` wait for it;
 *   `onClose` fires exactly once, with the first reason, whichever side closed; `send`
 *   after close is a no-op and nothing here throws.
 *
 * On close the queued output is still handed to the sink (a server's last answers reach
 * the client), then the sink is ended and the adapter's teardown runs once.
 */
import type { Transport } from "../api/transport.js";
import { refuseMisreadNumbers } from "../api/option-names.js";
import { systemClock, type Clock } from "../driver/clock.js";
import { callListener, type Callback } from "../driver/listener.js";
import { createNdjsonDecoder, encodeNdjsonLine, endNdjson, feedNdjson, lineExcerpts, type NdjsonDecoder, type NdjsonEvent } from "../framing/ndjson.js";
import { invalidUtf8StandIn, oversizedStandIn } from "../jsonrpc/codec.js";
import { chunkBytes, decodeUtf8 } from "../jsonrpc/safe-json.js";

/** How a stream carries messages: as NDJSON lines in a byte or text stream, or one message per chunk. */
export type Framing = "ndjson" | "messages";

/** A line the channel could not deliver as it came, as reported to {@link ChannelOptions.onFault}. */
export type FramingFault =
  /** A line over `maxLineBytes`, of `bytes` UTF-8 bytes (terminator excluded). */
  | { kind: "oversized"; bytes: number }
  /** A line (or message chunk) whose bytes are not UTF-8. */
  | { kind: "invalid-utf8" }
  /**
   * A chunk that is neither text nor bytes, of type `type` (its constructor's name): a
   * `Blob` from a WebSocket left at its default `binaryType`, say. `message` says so.
   */
  | { kind: "unsupported-chunk"; type: string; message: string };

/** Options shared by every stream transport. */
export interface ChannelOptions {
  /** Default `ndjson`. */
  framing?: Framing | undefined;
  /** Longest incoming line, in UTF-8 bytes (ndjson only). Default: the codec's 4 MiB. */
  maxLineBytes?: number | undefined;
  /**
   * Outgoing text (UTF-16 code units, about bytes for ASCII) that may wait for a full sink
   * while the peer reads nothing for up to `maxStallMs`; a queue past it that sees no drain
   * in that time closes the channel, and one past {@link HARD_QUEUE_FACTOR} times it closes
   * the channel at once. Default 16 Mi: a burst of several messages near the codec's 4 MiB
   * limit is served. A single message past the hard bound can only go out while the sink
   * has room: raise this with the peer's limits when messages can be that large.
   */
  maxQueuedChars?: number | undefined;
  /**
   * How long a queue past `maxQueuedChars` may wait for the sink to drain, in ms, before the
   * channel closes: the peer is not reading. Default {@link DEFAULT_MAX_STALL_MS}.
   */
  maxStallMs?: number | undefined;
  /** Time source for the `maxStallMs` timer. Default: the driver's `systemClock` (its timer does not keep a process alive). */
  clock?: Clock | undefined;
  /**
   * Told about every line replaced by a stand-in (not UTF-8, or over `maxLineBytes`), e.g.
   * to log it to stderr. If it throws, the stream still goes on, and the error is rethrown
   * on a fresh microtask, uncaught, as a throwing event listener's is: a peer decides when
   * faults happen, so a hook must not throw (Node ends a process on an uncaught error).
   */
  onFault?: Callback<(fault: FramingFault) => void> | undefined;
  /**
   * Join the lines sent in one turn of the event loop into one write (ndjson only; see
   * the module comment). Default false here; the stdio and Web Streams adapters turn it
   * on unless told otherwise.
   */
  batchWrites?: boolean | undefined;
}

/** Where a channel writes; one small implementation per runtime and stream kind. Must not throw. */
export interface Sink {
  /** Writes one chunk. Returns false when the sink is full: the channel then waits for {@link Sink.waitDrain}. */
  write(chunk: string): boolean;
  /** Calls `fn` once, when the sink can take more after a `write` returned false. */
  waitDrain(fn: () => void): void;
  /** Flushes what was written and closes the sink. Called once. */
  end(): void;
}

/** Default of {@link ChannelOptions.maxQueuedChars}. */
export const DEFAULT_MAX_QUEUED_CHARS = 16 * 1024 * 1024;

/** Default of {@link ChannelOptions.maxStallMs}: the grace the HTTP handler gives a slow SSE reader. */
export const DEFAULT_MAX_STALL_MS = 30_000;

/**
 * The hard bound on queued output, as a multiple of `maxQueuedChars`: past it the channel
 * closes at once, whether or not the stall timer has run out (see the module comment).
 */
export const HARD_QUEUE_FACTOR = 4;

/** The reason `onClose` gets when this side called `close()`. */
export const LOCAL_CLOSE_REASON = "transport closed by this side";

/** The reason `onClose` gets when the peer ended the stream. */
export const INPUT_ENDED_REASON = "the peer closed the stream";

/** Raw line breaks, which valid JSON text can hold only as whitespace. */
const LINE_BREAKS = /[\r\n]/g;

/**
 * A batch holding this many characters is written at once, without waiting for the end of
 * the turn: about a dozen 2025-era calls or answers. Small enough that the peer starts on
 * the first of a burst while this side still encodes the rest (with 64 KiB, a burst of 64
 * calls reached the server in one write, and each side idled while the other worked:
 * 64 in flight over stdio ran about 20 % slower, bench/transports), large enough that a
 * burst still costs a few syscalls, not one per message.
 */
const MAX_BATCH_CHARS = 2 * 1024;

/**
 * A settled promise, whose `then` queues {@link StreamChannel.firstSettled} (which cannot
 * throw) where `queueMicrotask` would: Node's makes an `AsyncResource` and a bound function
 * per call and runs the callback through `runInAsyncScope`, some 700 instructions more for
 * each message a batching channel sends.
 */
const SETTLED: Promise<void> = /* @__PURE__ */ Promise.resolve();

/** Runs `fn` when the current turn of the event loop is over (after its I/O callbacks and microtasks, where possible). */
const afterTurn: (fn: () => void) => void =
  typeof (globalThis as { setImmediate?: unknown }).setImmediate === "function"
    ? (fn) => void (globalThis as unknown as { setImmediate(fn: () => void): unknown }).setImmediate(fn)
    : (fn) => queueMicrotask(fn);

/**
 * A {@link Transport} over a {@link Sink} and the chunks an adapter pushes in. Adapters
 * construct it, wire their streams to {@link StreamChannel.push} / {@link StreamChannel.endInput}
 * / {@link StreamChannel.closeWith}, and hand it out as the transport.
 */
export class StreamChannel implements Transport {
  private readonly ndjson: NdjsonDecoder | undefined;
  private readonly maxQueued: number;
  private readonly maxStallMs: number;
  private readonly clock: Clock;
  /** The stall timer's handle while a queue over `maxQueued` waits for a drain. */
  private stallTimer: unknown = undefined;
  private readonly onFault: ChannelOptions["onFault"];
  private receiver: ((text: string) => void) | undefined = undefined;
  /** Messages that arrived before a receiver was registered. */
  private inbox: string[] = [];
  private closeListener: ((reason: string) => void) | undefined = undefined;
  private reason: string | undefined = undefined;
  /** The close listener already told: one registered after the close is told too (at once), none twice. */
  private notified: ((reason: string) => void) | undefined;
  /** Outgoing chunks waiting for the sink to drain; `queue[head ..]` are pending. */
  private queue: string[] = [];
  private head = 0;
  private queuedChars = 0;
  private blocked = false;
  private readonly batchWrites: boolean;
  /** A batch is open: a line went out this turn, later ones queue until {@link StreamChannel.batchDone}. */
  private batching = false;
  /** The batch outlived its first message's microtasks: it ends with the turn. */
  private turnScheduled = false;
  /** Bound once, so waiting for a drain allocates nothing per write. */
  private readonly drained = () => {
    // The peer took what was written: it is reading, however slowly.
    this.cancelStall();
    this.flush();
  };
  /** The stall timer ran out: nothing drained for `maxStallMs` with a queue over `maxQueued`. */
  private readonly stalled = () => {
    this.stallTimer = undefined;
    this.closeWith(`the output did not drain for ${this.maxStallMs} ms with ${this.queuedChars} characters waiting (over maxQueuedChars ${this.maxQueued}): the peer is not reading`, false);
  };
  private readonly batchDone = () => {
    this.batching = false;
    this.turnScheduled = false;
    if (!this.blocked) this.flush();
  };
  /** After the first message's microtasks: nothing else was sent, so the batch ends here. */
  private readonly firstSettled = () => {
    if (this.turnScheduled) return;
    this.batching = false;
  };

  /**
   * @param sink where outgoing messages are written
   * @param options framing and bounds
   * @param teardown called once when the channel closes, after the sink was ended: the
   *   adapter stops reading and releases its resources (for a child process: the shutdown
   *   sequence).
   */
  constructor(
    private readonly sink: Sink,
    options: ChannelOptions = {},
    private readonly teardown?: (reason: string) => void,
  ) {
    refuseMisreadNumbers("the stream transport", options, ["maxStallMs", "maxQueuedChars", "maxLineBytes"]);
    this.ndjson = (options.framing ?? "ndjson") === "ndjson" ? createNdjsonDecoder({ maxLineBytes: options.maxLineBytes }) : undefined;
    this.maxQueued = options.maxQueuedChars ?? DEFAULT_MAX_QUEUED_CHARS;
    this.maxStallMs = options.maxStallMs ?? DEFAULT_MAX_STALL_MS;
    this.clock = options.clock ?? systemClock;
    this.onFault = options.onFault;
    this.batchWrites = this.ndjson !== undefined && options.batchWrites === true;
  }

  /** True once the channel closed, from either side. */
  get closed(): boolean {
    return this.reason !== undefined;
  }

  /** Sends one message; queued while the sink is full; a no-op once closed. */
  send(text: string): void {
    if (this.reason !== undefined) return;
    let chunk = text;
    if (this.ndjson !== undefined) {
      const framed = encodeNdjsonLine(text);
      // Valid JSON holds a raw CR or LF only as whitespace between tokens (inside a string
      // it must be escaped), so a space means the same and keeps the message on one line.
      chunk = framed.ok ? framed.line : text.replace(LINE_BREAKS, " ") + "\n";
    }
    if (this.blocked || this.batching) {
      this.queue.push(chunk);
      this.queuedChars += chunk.length;
      if (this.batching && !this.turnScheduled) {
        this.turnScheduled = true;
        afterTurn(this.batchDone);
      }
      if (this.blocked) this.checkQueue();
      else if (this.queuedChars >= MAX_BATCH_CHARS) {
        // A big batch goes out now: batching saves syscalls, it must not hold large output back.
        if (!this.sink.write(this.takeQueued())) this.block();
      }
      return;
    }
    if (this.batchWrites) {
      this.batching = true;
      void SETTLED.then(this.firstSettled);
    }
    if (!this.sink.write(chunk)) this.block();
  }

  /** Registers the receiver; messages that arrived before it are delivered now, in order. */
  onMessage(fn: (text: string) => void): void {
    this.receiver = fn;
    if (this.inbox.length === 0) return;
    const waiting = this.inbox;
    this.inbox = [];
    for (let i = 0; i < waiting.length; i++) this.receive(waiting[i]);
  }

  /** Registers the close listener; called at once if the channel has already closed. */
  onClose(fn: (reason: string) => void): void {
    this.closeListener = fn;
    if (this.reason !== undefined) this.notify();
  }

  /** Closes from this side. Idempotent. */
  close(): void {
    this.closeWith(LOCAL_CLOSE_REASON);
  }

  /**
   * Adapter side: one chunk read from the stream. Ignored once closed. A chunk that is
   * neither text nor bytes (a peer enqueuing objects into a byte stream, a WebSocket's
   * `Blob`) is reported to `onFault` as `unsupported-chunk` and answered as undecodable,
   * like invalid UTF-8; the stream serves on.
   */
  push(chunk: string | Uint8Array): void {
    if (this.reason !== undefined) return;
    if (typeof chunk !== "string" && !(chunk instanceof Uint8Array)) {
      const bytes = chunkBytes(chunk);
      if (bytes === undefined) return this.fault({ kind: "invalid-utf8", head: "", tail: "" }, unsupported(chunk));
      chunk = bytes;
    }
    if (this.ndjson === undefined) {
      const text = typeof chunk === "string" ? chunk : decodeUtf8(chunk);
      if (text !== undefined) this.deliver(text);
      else this.fault({ kind: "invalid-utf8", ...lineExcerpts(chunk as Uint8Array) });
      return;
    }
    const events = feedNdjson(this.ndjson, chunk);
    for (let i = 0; i < events.length; i++) this.event(events[i]);
  }

  /** Adapter side: the input ended; a last line without its newline is still delivered. Does not close. */
  endInput(): void {
    if (this.reason !== undefined || this.ndjson === undefined) return;
    const events = endNdjson(this.ndjson);
    for (let i = 0; i < events.length; i++) this.event(events[i]);
  }

  /**
   * Adapter side: closes the channel with `reason` (the first reason wins). Queued output
   * is written first unless `flush` is false (the peer is known not to read it).
   */
  closeWith(reason: string, flush = true): void {
    if (this.reason !== undefined) return;
    this.reason = reason;
    this.cancelStall();
    if (flush) {
      // Past the sink's high-water mark, but the stream buffers it: nothing is lost.
      if (this.ndjson !== undefined) {
        if (this.queue.length > 0) this.sink.write(this.takeQueued());
      } else for (let i = this.head; i < this.queue.length; i++) this.sink.write(this.queue[i]);
    }
    this.queue = [];
    this.head = 0;
    this.queuedChars = 0;
    this.sink.end();
    this.teardown?.(reason);
    if (this.closeListener !== undefined) this.notify();
  }

  private notify(): void {
    const fn = this.closeListener!;
    if (this.notified === fn) return;
    this.notified = fn;
    fn(this.reason!);
  }

  private event(e: NdjsonEvent): void {
    if (e.kind === "line") this.deliver(e.text);
    else this.fault(e);
  }

  /** Reports `reported` (by default: what `fault` is, without the peer's data) and delivers the stand-in. */
  private fault(fault: Exclude<NdjsonEvent, { kind: "line" }>, reported?: FramingFault): void {
    // The excerpts are the peer's data: logs get the size only.
    reported ??= fault.kind === "oversized" ? { kind: "oversized", bytes: fault.bytes } : { kind: "invalid-utf8" };
    // A logging hook that throws must not cost the stream the rest of the chunk, nor be
    // swallowed: rethrown on a fresh microtask (channels have no onError).
    if (this.onFault !== undefined) callListener(this.onFault, reported, undefined, undefined);
    this.deliver(fault.kind === "oversized" ? oversizedStandIn(fault.head, fault.tail, this.ndjson!.maxLineBytes) : invalidUtf8StandIn(fault.head, fault.tail));
  }

  private deliver(text: string): void {
    // A receiver may close the channel while a chunk's lines are being delivered.
    if (this.reason !== undefined) return;
    if (this.receiver !== undefined) this.receive(text);
    else this.inbox.push(text);
  }

  /**
   * Hands one message to the receiver. One that throws (an endpoint rethrows its hook's
   * error from `receive`) costs the stream nothing: the message counts as delivered, the
   * rest of the chunk follows, and the error is rethrown on a fresh microtask. Let through,
   * it cut the chunk's later messages, and over Web Streams it read as a failed read, which
   * closed the transport.
   */
  private receive(text: string): void {
    callListener(this.receiver!, text, undefined, undefined);
  }

  private block(): void {
    this.blocked = true;
    this.sink.waitDrain(this.drained);
    // What a drain did not take (messages framing writes one chunk at a time) may still be over the bound.
    this.checkQueue();
  }

  /** While blocked: closes at once past the hard bound, or arms the stall timer past `maxQueued`. */
  private checkQueue(): void {
    const hard = HARD_QUEUE_FACTOR * this.maxQueued;
    if (this.queuedChars > hard) {
      this.closeWith(`outgoing queue over ${hard} characters (${HARD_QUEUE_FACTOR} × maxQueuedChars) before the peer took any of it: a burst this large, or a peer that is not reading`, false);
    } else if (this.queuedChars > this.maxQueued && this.stallTimer === undefined) {
      this.stallTimer = this.clock.schedule(this.clock.now() + this.maxStallMs, this.stalled);
    }
  }

  private cancelStall(): void {
    if (this.stallTimer === undefined) return;
    this.clock.cancel(this.stallTimer);
    this.stallTimer = undefined;
  }

  /** The sink drained (or a batch ended): writes the queue, joined into one chunk when it holds lines. */
  private flush(): void {
    this.blocked = false;
    if (this.ndjson !== undefined) {
      // While a batch is open, its end writes the queue (a drain mid-batch would split it).
      if (this.reason !== undefined || this.queue.length === 0 || this.batching) return;
      if (!this.sink.write(this.takeQueued())) this.block();
      return;
    }
    while (this.reason === undefined && this.head < this.queue.length) {
      const chunk = this.queue[this.head++];
      this.queuedChars -= chunk.length;
      if (this.head === this.queue.length) {
        this.queue = [];
        this.head = 0;
      }
      if (!this.sink.write(chunk)) {
        // Messages already written are let go: a peer that reads on but never catches up
        // (a backlog that never empties) would otherwise keep everything ever sent queued.
        if (this.head > 64 && this.head * 2 > this.queue.length) {
          this.queue = this.queue.slice(this.head);
          this.head = 0;
        }
        return this.block();
      }
    }
  }

  /** Every queued line as one chunk (ndjson only, where the queue never has a head offset); empties the queue. */
  private takeQueued(): string {
    const q = this.queue;
    this.queue = [];
    this.queuedChars = 0;
    return q.length === 1 ? q[0] : q.join("");
  }
}

/** The fault reported for a chunk that is neither text nor bytes. */
function unsupported(chunk: unknown): FramingFault {
  const type = (chunk as { constructor?: { name?: unknown } } | null | undefined)?.constructor?.name;
  const name = typeof type === "string" && type !== "" ? type : chunk === null ? "null" : typeof chunk;
  // A Blob's bytes can only be read asynchronously, which would reorder it with later chunks.
  const hint = name === "Blob" ? "; set binaryType = 'arraybuffer'" : "";
  return { kind: "unsupported-chunk", type: name, message: `unsupported chunk type ${name}${hint}` };
}
