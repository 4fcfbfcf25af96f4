/**
 * The replay log behind resumable SSE streams: event ids, and a bounded store of the
 * messages each stream carried.
 *
 * Spec: 2025-11-25 `basic/transports` ("Resumability and Redelivery"): event ids MUST be
 * unique across all streams of a session and SHOULD identify the stream, so that a
 * `Last-Event-ID` names both the stream and the position in it; the server replays what
 * came after that position on that stream only, never another stream's messages.
 *
 * Theory of operation. An event id is `<stream>-<seq>`: the stream's number in its
 * session and the event's sequence number in the stream, both decimal. Sequence 0 is
 * the priming event, which is never stored; messages count from 1. {@link parseEventId}
 * reads an id back by hand (no regular expression sees request data).
 *
 * Each stream owns a {@link StreamLog}: its events in order, oldest first, and `written`,
 * the highest sequence number handed to a connection. One {@link EventStore} per handler
 * bounds every log twice: per stream by count and across all streams of all sessions by
 * size (UTF-16 code units of the message text, a close proxy for bytes). Evictions take
 * the oldest event first; the store keeps one queue of every live event in append order,
 * so the globally oldest event is always at the head of its own stream's log and
 * eviction is O(1). Removed events stay in the queue as tombstones until the head passes
 * them, or until tombstones outnumber live events and the queue is compacted. An event
 * evicted before it was ever written is reported through `onLost`: that message is gone.
 */

/** Bounds of the replay store. */
export interface EventStoreLimits {
  /** Most events kept per stream (default 1000). */
  maxEventsPerStream?: number;
  /** Most message text kept across all streams, in UTF-16 code units (default 16 MiB). */
  maxTotalSize?: number;
}

/** One stored message of one stream. */
export interface LoggedEvent {
  /** Sequence number in its stream, from 1. */
  readonly seq: number;
  /** The JSON-RPC message text. */
  readonly data: string;
  /** The log holding it; `null` once removed. */
  log: StreamLog | null;
}

/** The events of one stream. Created by {@link EventStore.createLog}. */
export class StreamLog {
  /** Live events, oldest first, from index `head`. */
  private entries: LoggedEvent[] = [];
  private head = 0;
  /** Highest sequence number appended (0: none yet). */
  lastSeq = 0;
  /** Highest sequence number handed to a connection (0: only the priming event). */
  written = 0;

  constructor(
    /** The stream's number in its session, the first half of its event ids. */
    readonly stream: number,
  ) {}

  /** Live events held. */
  get size(): number {
    return this.entries.length - this.head;
  }

  /** Lowest sequence number still held, or `lastSeq + 1` when empty. */
  get firstSeq(): number {
    return this.head < this.entries.length ? this.entries[this.head].seq : this.lastSeq + 1;
  }

  /** Events with a sequence number above `after`, in order (a fresh array). */
  after(after: number): LoggedEvent[] {
    const out: LoggedEvent[] = [];
    for (let i = this.head; i < this.entries.length; i++) if (this.entries[i].seq > after) out.push(this.entries[i]);
    return out;
  }

  /** @internal Appends (the store enforces the bounds). */
  push(event: LoggedEvent): void {
    this.entries.push(event);
  }

  /** @internal Removes and returns the oldest live event (the store marks it removed). */
  shift(): LoggedEvent | undefined {
    if (this.head >= this.entries.length) return undefined;
    const e = this.entries[this.head++];
    if (this.head > 64 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
    return e;
  }
}

/** Formats the id of event `seq` of stream `stream`. */
export function formatEventId(stream: number, seq: number): string {
  return stream + "-" + seq;
}

/** Reads an id of {@link formatEventId}'s form; `undefined` for anything else. */
export function parseEventId(id: string): { stream: number; seq: number } | undefined {
  const dash = id.indexOf("-");
  if (dash <= 0 || dash === id.length - 1) return undefined;
  const stream = digits(id, 0, dash);
  const seq = digits(id, dash + 1, id.length);
  return stream === undefined || seq === undefined ? undefined : { stream, seq };
}

/** A decimal number of 1 to 15 digits (always a safe integer), or `undefined`. */
function digits(s: string, from: number, to: number): number | undefined {
  if (to - from > 15) return undefined;
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i) - 0x30;
    if (c < 0 || c > 9) return undefined;
    n = n * 10 + c;
  }
  return n;
}

/** The bounded store every stream log of one handler draws on. */
export class EventStore {
  /** Most events kept per stream. */
  readonly maxEventsPerStream: number;
  /** Most message text kept across all streams, in UTF-16 code units. */
  readonly maxTotalSize: number;
  /** Every appended event not yet passed by `head`, tombstones included, in append order. */
  private queue: LoggedEvent[] = [];
  private head = 0;
  private tombstones = 0;
  /** Text held, in UTF-16 code units. */
  size = 0;
  /** Live events held. */
  count = 0;

  constructor(
    limits: EventStoreLimits = {},
    /** Called when an event is evicted before it was ever written: that message is lost. */
    private readonly onLost?: (log: StreamLog, seq: number) => void,
  ) {
    this.maxEventsPerStream = Math.max(1, limits.maxEventsPerStream ?? 1000);
    this.maxTotalSize = Math.max(1, limits.maxTotalSize ?? 16 * 1024 * 1024);
  }

  /** A new, empty log for stream number `stream`. */
  createLog(stream: number): StreamLog {
    return new StreamLog(stream);
  }

  /**
   * Appends a message to `log`, evicting the oldest events past the bounds; returns its
   * sequence number. `written`: the caller is writing it to a connection now, so its
   * eviction (an event bigger than the whole store) loses nothing.
   */
  append(log: StreamLog, data: string, written: boolean): number {
    const event: LoggedEvent = { seq: ++log.lastSeq, data, log };
    if (written) log.written = event.seq;
    log.push(event);
    this.queue.push(event);
    this.size += data.length;
    this.count++;
    while (log.size > this.maxEventsPerStream) this.remove(log.shift()!);
    while (this.size > this.maxTotalSize && this.count > 0) this.evictOldest();
    this.compact();
    return event.seq;
  }

  /** Forgets every event of `log` (its stream is gone). */
  drop(log: StreamLog): void {
    for (let e = log.shift(); e !== undefined; e = log.shift()) this.remove(e);
    this.compact();
  }

  private evictOldest(): void {
    while (this.head < this.queue.length) {
      const e = this.queue[this.head++];
      if (e.log !== null) {
        // The globally oldest live event is the oldest of its own log.
        this.remove(e.log.shift()!);
        this.tombstones--;
        return;
      }
      this.tombstones--;
    }
  }

  /** Takes an event out of its log's accounting; it stays in the queue as a tombstone. */
  private remove(e: LoggedEvent): void {
    const log = e.log!;
    e.log = null;
    this.size -= e.data.length;
    this.count--;
    this.tombstones++;
    if (e.seq > log.written) this.onLost?.(log, e.seq);
  }

  private compact(): void {
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    if (this.tombstones > 1024 && this.tombstones * 2 > this.queue.length - this.head) {
      this.queue = this.queue.slice(this.head).filter((e) => e.log !== null);
      this.head = 0;
      this.tombstones = 0;
    }
  }
}
