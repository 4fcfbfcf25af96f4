/**
 * The in-memory transport: two linked ends in one process.
 *
 * Spec: 2025-11-25 `basic/transports` (what a transport carries: JSON-RPC messages,
 * UTF-8 text, in order). This one carries them between a client and a server living in
 * the same process, for tests, for embedding a server in an application, and for
 * benchmarks that should measure the protocol, not a socket.
 *
 * Theory of operation. Each end has an inbox. `send` appends the text to the *peer's*
 * inbox and, if the peer has no drain pending, queues one microtask that delivers
 * everything in the inbox in order. Delivery is therefore always asynchronous (a reply
 * can never re-enter the sender's stack, exactly as with a real socket), FIFO, and costs
 * one array push per message plus one microtask per burst. The text is what the API's
 * codec produced, so a message crosses the pair exactly as it would cross a pipe.
 *
 * With `values: true` the ends carry message objects instead (`sendValue` / `onValue`,
 * which {@link attach} uses): no encoding and no parsing, the cost the official SDKs'
 * in-memory transport has. The receiving kernel still checks each object as it checks
 * parsed text (nesting bounds, JSON-RPC shape, schema), so a malformed message gets the
 * same answer. {@link attach} hands over only messages that are already JSON-shaped
 * (`isJsonShaped`: what the peer would have parsed from their text); any other, a `Date`
 * or a BigInt in application data, goes through the encoder and crosses as text, so it
 * arrives exactly as over a pipe (the `Date` as its string; a value with no JSON form is
 * answered by the sender's kernel with `-32603`). What is given up is isolation: both
 * sides share the objects, so neither may mutate a message it sent or received. Text
 * sent with `send` still works, and an object reaches a receiver that registered no
 * `onValue` as its encoded text.
 *
 * Closing one end closes it at once (its own `onClose` fires synchronously, with the
 * reason given, or at once when registered later) and queues the close behind the
 * messages already sent to the peer, which are still delivered; the peer then closes
 * with reason "peer closed". After closing, `send` is a no-op and nothing more is
 * delivered to that end.
 */
import type { Transport } from "../api/transport.js";
import { callListener, report, type Callback } from "../driver/listener.js";
import { encode } from "../jsonrpc/codec.js";
import type { JsonRpcMessage } from "../jsonrpc/types.js";

/** Options of {@link createMemoryPair}. */
export interface MemoryPairOptions {
  /** Observes every message sent, with the index (0 or 1) of the end that sent it; for tests and tracing. */
  onSend?: Callback<(from: 0 | 1, text: string) => void> | undefined;
  /** Carry message objects, not text (see the module comment). Default false: every message crosses as JSON text, as on a pipe. */
  values?: boolean | undefined;
}

/** An inbox emptied with more slots than this lets them go (a burst's worth is not kept for good). */
const MAX_KEPT_SLOTS = 1024;

/** Where drains are queued (see {@link MemoryEnd.drain}). */
const SETTLED: Promise<void> = /* @__PURE__ */ Promise.resolve();

/** Marks the end of an inbox: the peer closed. */
const CLOSE: unique symbol = Symbol("close");

class MemoryEnd implements Transport {
  peer!: MemoryEnd;
  /**
   * Texts, message objects (`values` mode) and the close mark, in the order sent: the first
   * `queued` slots. Delivered slots are overwritten with `undefined`, not cut off: emptying
   * an array with `length = 0` gives up its storage, and the next message would allocate it
   * again (~150 bytes a message, a tenth of an in-memory round trip's garbage).
   */
  private inbox: (string | JsonRpcMessage | typeof CLOSE | undefined)[] = [];
  private queued = 0;
  private draining = false;
  private receiver: ((text: string) => void) | undefined;
  private valueReceiver: ((value: unknown) => void) | undefined;
  /** Present in `values` mode only: {@link attach} sends objects when a transport has it. */
  readonly sendValue?: (message: JsonRpcMessage) => void;
  private closeListener: ((reason: string) => void) | undefined;
  private isClosed = false;
  /** Why this end closed; kept for a close listener registered afterwards. */
  private reason = "";
  /** The close listener already told: one registered after the close is told too (at once), none twice. */
  private notified: ((reason: string) => void) | undefined;
  /**
   * Bound once: scheduling a drain allocates no closure per message. Queued as the reaction
   * of a settled promise, not with `queueMicrotask`: the same place in the microtask queue,
   * but Node's `queueMicrotask` makes an `AsyncResource` and a bound function for each call
   * and runs the callback through `runInAsyncScope` (about a twentieth of an in-memory round
   * trip, with one drain each way). A receiver's throw is rethrown on a fresh microtask,
   * an uncaught error as it was, not a rejection of the reaction's promise.
   */
  private readonly drain = (): void => {
    try {
      this.deliver();
    } catch (e) {
      report(e, undefined);
    }
  };

  constructor(
    private readonly index: 0 | 1,
    private readonly options: MemoryPairOptions,
  ) {
    if (options.values === true) {
      this.sendValue = (message) => {
        if (this.isClosed) return;
        // The observer sees text either way; encoding happens only when someone watches.
        if (this.options.onSend !== undefined) callListener(this.options.onSend, this.index, encode(message), undefined);
        this.peer.enqueue(message);
      };
    }
  }

  send(text: string): void {
    if (this.isClosed) return;
    // An observer that throws loses no message and never throws out of `send` (the
    // Transport contract): its error is rethrown on a fresh microtask, as a hook's is.
    if (this.options.onSend !== undefined) callListener(this.options.onSend, this.index, text, undefined);
    this.peer.enqueue(text);
  }

  onMessage(fn: (text: string) => void): void {
    this.receiver = fn;
    if (this.queued > 0) this.schedule();
  }

  onValue(fn: (value: unknown) => void): void {
    this.valueReceiver = fn;
    if (this.queued > 0) this.schedule();
  }

  /**
   * Registers the close listener; called at once if this end has already closed (the
   * contract: once, whichever side closed). A listener that replaces one already told is
   * told too: a second client given a closed end must fail at once, not wait for a close
   * that happened before it listened.
   */
  onClose(fn: (reason: string) => void): void {
    this.closeListener = fn;
    if (this.isClosed) this.notify();
  }

  close(): void {
    this.shut("closed");
  }

  /** Whether this end is closed. */
  get closed(): boolean {
    return this.isClosed;
  }

  enqueue(item: string | JsonRpcMessage | typeof CLOSE): void {
    if (this.isClosed) return;
    this.inbox[this.queued++] = item;
    this.schedule();
  }

  private schedule(): void {
    if (this.draining) return;
    this.draining = true;
    void SETTLED.then(this.drain);
  }

  private deliver(): void {
    this.draining = false;
    const inbox = this.inbox;
    let i = 0;
    // The loop ran to its end (emptied the inbox, or stopped at an item no receiver takes yet).
    let stopped = false;
    try {
      // A receiver may register late: then the messages wait, in order, for it. An item
      // counts as delivered before its receiver runs: one that throws is not handed over
      // again with every later message.
      while (i < this.queued && !this.isClosed) {
        const item = inbox[i]!; // slots below `queued` are never undefined
        if (item === CLOSE) {
          this.shut("peer closed");
          break;
        }
        if (typeof item === "string") {
          if (this.receiver === undefined) break;
          i++;
          this.receiver(item);
        } else if (this.valueReceiver !== undefined) {
          i++;
          this.valueReceiver(item);
        } else if (this.receiver !== undefined) {
          i++;
          this.receiver(encode(item));
        } else break;
      }
      stopped = true;
    } finally {
      if (i >= this.queued) {
        // Emptied whole, the common case: the storage is kept, unless a burst made it large.
        if (inbox.length > MAX_KEPT_SLOTS) this.inbox = [];
        else for (let j = 0; j < i; j++) inbox[j] = undefined; // (`fill` is a C++ builtin: ~10× this loop for a slot or two)
        this.queued = 0;
      } else if (i > 0) {
        inbox.splice(0, i);
        this.queued -= i;
      }
      // A receiver threw: what is left still goes, on the next microtask. Not when the loop
      // stopped at an item no receiver takes (text with only `onValue` registered): it waits
      // for `onMessage`, which schedules again; rescheduling here spun on microtasks for good.
      if (!stopped && this.queued > 0 && !this.isClosed && (this.receiver !== undefined || this.valueReceiver !== undefined)) this.schedule();
    }
  }

  private shut(reason: string): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.inbox = [];
    this.queued = 0;
    this.reason = reason;
    this.peer.enqueue(CLOSE);
    this.notify();
  }

  private notify(): void {
    const fn = this.closeListener;
    if (fn === undefined || this.notified === fn) return;
    this.notified = fn;
    fn(this.reason);
  }
}

/**
 * Two linked transports: what one sends, the other receives, asynchronously and in
 * order. By convention the first is the server's end and the second the client's.
 */
export function createMemoryPair(options: MemoryPairOptions = {}): [Transport & { readonly closed: boolean }, Transport & { readonly closed: boolean }] {
  const a = new MemoryEnd(0, options);
  const b = new MemoryEnd(1, options);
  a.peer = b;
  b.peer = a;
  return [a, b];
}

/**
 * Connects a server and a client in-process: makes a pair, hands the first end to
 * `server` and the second to `client`, and returns what each returned. Typically
 * `connectMemory((t) => server.connect(t), (t) => client.connect(t))`, whose `client`
 * is the handshake's promise.
 */
export function connectMemory<S, C>(server: (transport: Transport) => S, client: (transport: Transport) => C, options: MemoryPairOptions = {}): { server: S; client: C } {
  const [s, c] = createMemoryPair(options);
  const serverSide = server(s);
  return { server: serverSide, client: client(c) };
}
