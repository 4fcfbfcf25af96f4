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
 * the start of the stream (a new stream's priming event), never stored; messages count
 * from 1, and a resumption that replays nothing is primed at a position reserved for it
 * ({@link EventStore.reserve}), so no id names two events. {@link parseEventId}
 * reads an id back by hand (no regular expression sees request data).
 *
 * Each stream owns a {@link StreamLog}: its events in order, oldest first, and `written`,
 * the highest sequence number handed to a connection (moved only by the store:
 * {@link EventStore.append}, {@link EventStore.markWritten}, {@link EventStore.reserve}).
 * An event up to `written` is *history*, kept only in case the client reconnects; one
 * past it is *undelivered*, and evicting it loses a message. One {@link EventStore} per
 * handler bounds every log three times: per stream by count, per session by size (its
 * {@link SessionLogs}), and across all streams of all sessions by size (UTF-16 code units
 * of the message text, a close proxy for bytes). The session bound comes first: a session
 * past its share evicts its own events, so one session's traffic (a client that makes
 * calls with huge error answers, say) cannot push another session's undelivered response
 * out of the store; by default a share is half the store. Both size bounds evict history
 * first, oldest written first, and undelivered messages (oldest first) only when no
 * history is left in their scope: several sessions within their shares that together fill
 * the store then push out each other's history, not a small session's undelivered answer,
 * and a busy session's newest answer never makes way for older history. (Sessions that
 * never read what they are sent still fill the store with undelivered messages; the
 * per-session share caps what each one holds, and once no history is left anywhere the
 * session holding the most gives up its oldest, so a few such sessions cannot push out
 * the one answer of a session that holds little.) The store, and each session, keep two
 * queues: undelivered events in append order, and history in the order it was written.
 * A stream's events turn into history in sequence order, so the head of either queue is
 * the oldest event of its own stream's log (for the undelivered queue, once no history is
 * left), and eviction is O(1) (but for finding the session holding the most, above). An
 * event leaving a queue (removed, or written) stays in it as a tombstone (a removed one
 * with its text released at once) until the head passes it,
 * or until tombstones outnumber live events and the queue is compacted. An event evicted
 * before it was ever written is reported through `onLost`: that message is gone.
 *
 * The store is internal to `createHttpHandler` (its `eventStore` option sets the limits);
 * it is not a replaceable interface.
 */

/** Bounds of the replay store. */
export interface EventStoreLimits {
  /** Most events kept per stream (default 1000). */
  maxEventsPerStream?: number | undefined;
  /** Most message text kept across all streams, in UTF-16 code units (default 16 MiB). */
  maxTotalSize?: number | undefined;
  /** Most message text kept for the streams of one session, in UTF-16 code units (default half of `maxTotalSize`). */
  maxSessionSize?: number | undefined;
}

/** One stored message of one stream. */
export interface LoggedEvent {
  /** Sequence number in its stream, from 1. */
  readonly seq: number;
  /** The JSON-RPC message text; `""` once removed (a tombstone holds no text). */
  data: string;
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
  /** Highest sequence number handed to a connection (0: only the priming event); events up to it are history. Moved only by the store. */
  written = 0;
  /** Index in `entries` of the oldest live event not yet counted as history. */
  private pending = 0;
  /** Highest sequence number of an event evicted from this log (0: none): a resumption from below it misses events. */
  evictedUpTo = 0;

  constructor(
    /** The stream's number in its session, the first half of its event ids. */
    readonly stream: number,
    /** The session whose share of the store it draws on. */
    readonly session: SessionLogs,
  ) {}

  /** Live events held. */
  get size(): number {
    return this.entries.length - this.head;
  }

  /** True while the log holds an event not yet handed to a connection (one evicted unwritten is gone, and no longer counts). */
  get undelivered(): boolean {
    // Events are in sequence order and only the oldest are ever removed: the newest live one is last.
    const n = this.entries.length;
    return n > this.head && this.entries[n - 1].seq > this.written;
  }

  /** Events with a sequence number above `after`, in order (a fresh array). */
  after(after: number): LoggedEvent[] {
    const out: LoggedEvent[] = [];
    for (let i = this.head; i < this.entries.length; i++) if (this.entries[i].seq > after) out.push(this.entries[i]);
    return out;
  }

  /** @internal Appends (the store enforces the bounds); `written`: it is history at once, as everything before it already is. */
  push(event: LoggedEvent, written: boolean): void {
    this.entries.push(event);
    if (written) {
      this.written = event.seq;
      this.pending = this.entries.length;
    }
  }

  /** @internal The oldest event not yet counted as history, if it is written by now (counted from here on); else `undefined`. */
  nextWritten(): LoggedEvent | undefined {
    const e = this.entries[this.pending];
    if (e === undefined || e.seq > this.written) return undefined;
    this.pending++;
    return e;
  }

  /** @internal Removes and returns the oldest live event (the store marks it removed). */
  shift(): LoggedEvent | undefined {
    if (this.head >= this.entries.length) return undefined;
    const e = this.entries[this.head++];
    if (this.pending < this.head) this.pending = this.head;
    if (this.head > 64 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.pending -= this.head;
      this.head = 0;
    }
    return e;
  }
}

/**
 * Events of one kind, history or undelivered, in the order they became that kind; those
 * that left it (removed, or written) are left as tombstones until the head passes them or
 * they outnumber the live ones.
 */
class EventQueue {
  private items: LoggedEvent[] = [];
  private head = 0;
  /** Events at or after `head` that left the queue. */
  tombstones = 0;

  constructor(
    /** True: written events (history); false: undelivered ones. */
    private readonly history: boolean,
  ) {}

  /** Still of this queue's kind: not removed, and (undelivered queue) not written since. */
  private live(e: LoggedEvent): boolean {
    return e.log !== null && (this.history || e.seq > e.log.written);
  }

  push(e: LoggedEvent): void {
    this.items.push(e);
  }

  /** The oldest live event, passing the tombstones before it. */
  oldest(): LoggedEvent | undefined {
    while (this.head < this.items.length) {
      const e = this.items[this.head];
      if (this.live(e)) return e;
      this.head++;
      this.tombstones--;
    }
    return undefined;
  }

  compact(): void {
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    if (this.tombstones > 1024 && this.tombstones * 2 > this.items.length - this.head) {
      this.items = this.items.slice(this.head).filter((e) => this.live(e));
      this.head = 0;
      this.tombstones = 0;
    }
  }
}

/** The logs of one session: its share of the store. Created by {@link EventStore.createSession}. */
export class SessionLogs {
  /** Text held by this session's logs, in UTF-16 code units. */
  size = 0;
  /** @internal This session's written events, oldest written first. */
  readonly history = new EventQueue(true);
  /** @internal This session's undelivered events, in append order. */
  readonly undelivered = new EventQueue(false);
  /**
   * Called when an event of this session goes before it was ever written (as the store's
   * `onLost`): its session fails a request of its own that event carried, which no client
   * will ever see. Called from within an append or a drop: it must not touch the store.
   */
  lost: ((log: StreamLog, seq: number) => void) | undefined = undefined;

  constructor(
    /** The session's id, for diagnostics. */
    readonly sessionId: string,
  ) {}
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
  /** Most message text kept for one session's streams, in UTF-16 code units. */
  readonly maxSessionSize: number;
  /** Every written event (and tombstones), oldest written first. */
  private readonly history = new EventQueue(true);
  /** Every undelivered event (and tombstones), in append order. */
  private readonly undelivered = new EventQueue(false);
  /** Sessions holding text: one joins with its first event and leaves when its last goes (an ended session's logs are dropped, so it leaves then too). */
  private readonly holding = new Set<SessionLogs>();
  /** Text held, in UTF-16 code units. */
  size = 0;
  /** Live events held. */
  count = 0;

  constructor(
    limits: EventStoreLimits = {},
    /** Called when an event goes before it was ever written (evicted, or `dropped` with its stream): that message is lost. */
    private readonly onLost?: (log: StreamLog, seq: number, dropped: boolean) => void,
  ) {
    this.maxEventsPerStream = Math.max(1, limits.maxEventsPerStream ?? 1000);
    this.maxTotalSize = Math.max(1, limits.maxTotalSize ?? 16 * 1024 * 1024);
    this.maxSessionSize = Math.max(1, limits.maxSessionSize ?? Math.floor(this.maxTotalSize / 2));
  }

  /** The share of a new session, whose logs are then created with it. */
  createSession(sessionId: string): SessionLogs {
    return new SessionLogs(sessionId);
  }

  /** A new, empty log for stream number `stream` of `session`. */
  createLog(stream: number, session: SessionLogs): StreamLog {
    return new StreamLog(stream, session);
  }

  /**
   * Appends a message to `log`, evicting past the bounds; returns its sequence number.
   * `written`: the caller is writing it to a connection now, so its eviction (an event
   * bigger than the whole store) loses nothing.
   */
  append(log: StreamLog, data: string, written: boolean): number {
    // A connection carries its stream in order: what came before it went out first.
    if (written) this.toHistory(log, log.lastSeq);
    const event: LoggedEvent = { seq: ++log.lastSeq, data, log };
    const session = log.session;
    log.push(event, written);
    if (written) {
      this.history.push(event);
      session.history.push(event);
    } else {
      this.undelivered.push(event);
      session.undelivered.push(event);
    }
    this.size += data.length;
    if (session.size === 0) this.holding.add(session);
    session.size += data.length;
    this.count++;
    while (log.size > this.maxEventsPerStream) this.remove(log.shift()!);
    // The session's own share first: its traffic evicts its own events, not another session's.
    // Within either bound, history goes before any undelivered message.
    while (session.size > this.maxSessionSize) this.evictOldest(session.history) || this.evictOldest(session.undelivered);
    // With no history left anywhere, the session holding the most gives up its oldest: the
    // oldest undelivered message overall may be a small answer of a session that holds
    // nothing else, behind sessions that each hold up to a share of messages never read.
    while (this.size > this.maxTotalSize && this.count > 0) this.evictOldest(this.history) || this.evictOldest(this.largest().undelivered);
    this.compact(session);
    return event.seq;
  }

  /** Events of `log` up to `seq` (at most its last) were handed to a connection: they are history from now on. */
  markWritten(log: StreamLog, seq: number): void {
    this.toHistory(log, seq);
    this.compact(log.session);
  }

  /**
   * A fresh position of `log` with no event, handed to a connection now (a resumption's
   * priming event): later events count on after it, and resuming from it replays what
   * follows.
   */
  reserve(log: StreamLog): number {
    this.markWritten(log, ++log.lastSeq);
    return log.lastSeq;
  }

  /** Forgets every event of `log` (its stream is gone). */
  drop(log: StreamLog): void {
    for (let e = log.shift(); e !== undefined; e = log.shift()) this.remove(e, true);
    this.compact(log.session);
  }

  /**
   * Evicts the oldest live event of `queue`, which is the oldest of its own log (history
   * is older than any undelivered event of its log, and the undelivered queue is only
   * asked once no history is left); false if it holds none.
   */
  private evictOldest(queue: EventQueue): boolean {
    const e = queue.oldest();
    if (e !== undefined) this.remove(e.log!.shift()!);
    return e !== undefined;
  }

  /**
   * The session holding the most text (only asked while the store holds some). A scan of
   * the sessions holding any, at most `maxSessions`, and only on the rare path where the
   * whole store is full of messages no connection has carried.
   */
  private largest(): SessionLogs {
    let most: SessionLogs | undefined;
    for (const s of this.holding) if (most === undefined || s.size > most.size) most = s;
    return most!;
  }

  /** Moves `written` up to `seq`, and the events it passes from the undelivered queues to history. */
  private toHistory(log: StreamLog, seq: number): void {
    // Never past the last event: one appended later is not written yet.
    if (seq > log.written) log.written = Math.min(seq, log.lastSeq);
    for (let e = log.nextWritten(); e !== undefined; e = log.nextWritten()) {
      this.undelivered.tombstones++;
      log.session.undelivered.tombstones++;
      this.history.push(e);
      log.session.history.push(e);
    }
  }

  /** Takes an event out of its log's accounting; it stays in its queues as a tombstone, without its text. */
  private remove(e: LoggedEvent, dropped = false): void {
    const log = e.log!;
    const written = e.seq <= log.written;
    e.log = null;
    this.size -= e.data.length;
    log.session.size -= e.data.length;
    // Taken out as soon as it holds nothing: the set would otherwise keep every session
    // that ever held text, ended ones included, for as long as the handler runs.
    if (log.session.size === 0) this.holding.delete(log.session);
    this.count--;
    (written ? this.history : this.undelivered).tombstones++;
    (written ? log.session.history : log.session.undelivered).tombstones++;
    if (!written) {
      this.onLost?.(log, e.seq, dropped);
      log.session.lost?.(log, e.seq);
    }
    if (e.seq > log.evictedUpTo) log.evictedUpTo = e.seq;
    e.data = "";
  }

  private compact(session: SessionLogs): void {
    this.history.compact();
    this.undelivered.compact();
    session.history.compact();
    session.undelivered.compact();
  }
}
