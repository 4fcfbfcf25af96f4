/**
 * The clock and the one timer a driver needs, behind an interface so tests can use
 * virtual time and every runtime can use its own.
 */

/** Time and a single re-armable timer. */
export interface Clock {
  /** Milliseconds on a monotonic scale. */
  now(): number;
  /**
   * Calls `fn` at (or soon after) time `at`; returns a handle for {@link Clock.cancel}.
   * `hold`: someone awaits what the timer settles (a request's timeout), so where the
   * runtime can tell, the timer keeps the process alive; otherwise it does not.
   */
  schedule(at: number, fn: () => void, hold?: boolean): unknown;
  cancel(handle: unknown): void;
  /**
   * Optional: changes whether a scheduled timer holds the process (see `hold` of
   * {@link Clock.schedule}) without rescheduling it. Returns false when it cannot; the
   * caller then cancels and schedules anew.
   */
  rehold?(handle: unknown, hold: boolean): boolean;
}

/**
 * The shortest wait a peer's suggestion can impose, in ms: an SSE `retry`, a task's
 * `pollIntervalMs`. A peer that asks for 0 (by mistake or not) would otherwise get a
 * tight loop of requests, a thousand a second.
 */
export const MIN_PEER_DELAY_MS = 100;

/**
 * The longest delay `setTimeout` takes (2^31 − 1 ms, about 24.8 days). Runtimes fire a
 * longer one after 1 ms, so a peer's huge `retry` or `pollIntervalMs` would become a
 * tight loop: such a wait is made of timers of at most this length, each re-armed.
 */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A wait longer than {@link MAX_TIMER_MS}: the current leg's timer, replaced as each leg ends. */
class LongTimer {
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** What Node's own `process` has and polyfills of it lack (see {@link monotonicSource}). */
interface NodeProcess {
  release?: { name?: unknown };
  versions?: { uv?: unknown };
  hrtime?: unknown;
  uptime?: unknown;
}

/**
 * The runtime's monotonic clock in ms since this process started: `performance.now()`,
 * except on Node, where the `performance` global is a getter that loads `perf_hooks` on
 * its first read (1.3 ms of a stdio server's start-up, spent on its first message).
 * `process.hrtime()` is loaded already and reads the same clock (libuv's `uv_hrtime`),
 * at about the same cost (70 ns against 60 on Node 20); it is counted here from about the
 * same start (the process's uptime; a few ms apart from `performance.now()`'s origin, which
 * nothing mixes with it). It is looked up on `process` at every reading, as
 * `performance.now` was: a test runner's fake timers replace it, and must move this clock.
 *
 * Only Node's own `process` qualifies: a `process.hrtime` elsewhere may read `Date.now()`
 * (workerd's `nodejs_compat`, bundlers' polyfills such as unenv), which is not monotonic.
 * Node names itself in `release` and gives libuv's version; workerd and the polyfills
 * leave `versions.uv` empty or out, and Deno and Bun are told by their globals.
 */
function monotonicSource(): () => number {
  const g = globalThis as { process?: NodeProcess; Deno?: unknown; Bun?: unknown };
  const p = g.Deno === undefined && g.Bun === undefined ? g.process : undefined;
  const { hrtime, uptime } = p ?? {};
  if (p?.release?.name !== "node" || typeof p.versions?.uv !== "string" || p.versions.uv === "" || typeof hrtime !== "function" || typeof uptime !== "function") {
    return () => performance.now();
  }
  const node = p as { hrtime(): [number, number] };
  const ms = (): number => {
    const t = node.hrtime();
    return t[0] * 1e3 + t[1] / 1e6;
  };
  // hrtime counts from an arbitrary point (boot); performance.now() from this process's
  // start. Uptime read first, so that no reading runs ahead of it.
  const started = (uptime as () => number)() * 1e3;
  const origin = ms() - started;
  return () => ms() - origin;
}

let monotonic: (() => number) | undefined;

/** A reading of the monotonic clock, its source chosen at the first (never at load: a bundle that imports the clock need not run it). */
function monotonicNow(): number {
  return (monotonic ??= monotonicSource())();
}

/** The runtime's clock: a monotonic reading (`performance.now()`, or Node's `process.hrtime()`) and `setTimeout`, in Node, Deno, Bun, browsers and workerd. */
export const systemClock: Clock = /* @__PURE__ */ timerClock(monotonicNow);

/**
 * The wall clock (`Date.now()`, ms since the epoch) and `setTimeout`: for an {@link Endpoint}
 * whose snapshot is restored in another process, where {@link systemClock}'s readings (from
 * this process's start) would mean another time. Not monotonic: a clock stepped back holds
 * the state's deadlines back as much.
 */
export const wallClock: Clock = /* @__PURE__ */ timerClock(() => Date.now());

/** A clock reading `now`, its timers set for a time on that scale. */
function timerClock(now: () => number): Clock {
  return {
    now,
    schedule(at, fn, hold) {
      const delay = at - now();
      if (delay <= MAX_TIMER_MS) return startTimer(fn, delay, hold);
      const long = new LongTimer();
      const leg = (): void => {
        const left = at - now();
        long.timer = left > MAX_TIMER_MS ? startTimer(leg, MAX_TIMER_MS, hold) : startTimer(fn, left, hold);
      };
      leg();
      return long;
    },
    cancel: (handle) => clearTimeout(handle instanceof LongTimer ? handle.timer : (handle as ReturnType<typeof setTimeout>)),
    rehold(handle, hold) {
      // A long wait's later legs are started with the hold it was scheduled with.
      if (handle instanceof LongTimer) return false;
      const t = handle as { ref?: () => void; unref?: () => void };
      if (hold) t.ref?.();
      else t.unref?.();
      return true;
    },
  };
}

function startTimer(fn: () => void, ms: number, hold: boolean | undefined): ReturnType<typeof setTimeout> {
  const t = setTimeout(fn, Math.max(0, ms));
  // A protocol timer nobody awaits (keep-alive, idle expiry) must not keep a Node process
  // alive on its own; one a caller awaits must, or the process could exit with the call unsettled.
  if (hold !== true) (t as { unref?: () => void }).unref?.();
  return t;
}

/** A clock that moves only when told: for tests and deterministic simulations. */
export class ManualClock implements Clock {
  private t: number;
  private timers = new Map<number, { at: number; fn: () => void }>();
  private seq = 0;
  /** `start`: the first reading (default 0), e.g. an epoch time where the clock is also a wall clock (task times). */
  constructor(start = 0) {
    this.t = start;
  }
  now(): number {
    return this.t;
  }
  /** How many timers are scheduled and not yet fired or cancelled (a test's check that nothing was left behind). */
  get pendingTimers(): number {
    return this.timers.size;
  }
  schedule(at: number, fn: () => void): unknown {
    const id = ++this.seq;
    this.timers.set(id, { at, fn });
    return id;
  }
  cancel(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  /**
   * Moves time forward by `ms` (a finite number >= 0: a clock that went back or became NaN
   * would fire nothing again; one at Infinity fired a recurring timer, a keep-alive, for
   * ever, and its readings are no time the kernel takes), firing due timers in order.
   */
  advance(ms: number): void {
    if (!(ms >= 0 && ms !== Infinity)) throw new RangeError(`ManualClock.advance takes a finite number of ms >= 0 (got ${ms})`);
    const until = this.t + ms;
    while (this.fireNext(until));
    // A timer's callback may have advanced it further: never back (a monotonic clock).
    this.t = Math.max(this.t, until);
  }

  /**
   * Like {@link advance} to the instant `until`, letting async work run (`settle`) after each
   * timer; once `stop` says so, returns where time is (a replay that has found its divergence).
   */
  async runUntil(until: number, settle: () => Promise<void>, stop?: () => boolean): Promise<void> {
    for (;;) {
      if (stop?.() === true) return;
      if (!this.fireNext(until)) break;
      await settle();
    }
    this.t = Math.max(this.t, until);
  }

  /** Fires the earliest timer, moving time to when it is due if that is later; false when none is scheduled. */
  fireEarliest(): boolean {
    return this.fireNext(Infinity);
  }

  /**
   * Fires the timer `handle` (from {@link schedule}) now, ahead of any due before it, moving
   * time to when it is due if that is later; false when it is not scheduled (never, cancelled,
   * or already fired). For a replay that follows which of a recorded process's timers fired, not the clock.
   */
  fire(handle: unknown): boolean {
    const timer = this.timers.get(handle as number);
    if (timer === undefined) return false;
    this.timers.delete(handle as number);
    this.t = Math.max(this.t, timer.at);
    timer.fn();
    return true;
  }

  /**
   * Moves time forward to `until` without firing the timers due by then (they fire when
   * {@link fire}, {@link fireEarliest} or {@link advance} says): for a replay that follows the order in
   * which a recorded process's timers fired among its input, not the clock.
   */
  jumpTo(until: number): void {
    this.t = Math.max(this.t, until);
  }

  /** Fires the earliest timer due by `until`; false when none is. */
  private fireNext(until: number): boolean {
    let next: [number, { at: number; fn: () => void }] | undefined;
    for (const e of this.timers) if (e[1].at <= until && (next === undefined || e[1].at < next[1].at)) next = e;
    return next !== undefined && this.fire(next[0]);
  }
}
