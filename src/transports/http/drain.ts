/**
 * A graceful close of the HTTP handler (`handler.close({ drainMs })`): no new work starts,
 * the requests in flight get up to `drainMs` to finish with their own answers, then the
 * handler closes as `close()` does at once (each one still running answered with an error).
 *
 * Neither spec page defines a server's shutdown; this is what a rolling deploy needs (stop
 * taking work, let what runs finish, then go), as gRPC's GracefulStop and HTTP/2's GOAWAY
 * do it. The handler counts what is in flight; this module keeps the deadline and finishes
 * once, whichever comes first.
 */
import type { Clock } from "../../driver/clock.js";
import { refuseMisreadNumbers } from "../../api/option-names.js";

/** Reads `close()`'s `drainMs`: absent is 0 (close at once); anything but a number >= 0 is the caller's mistake. */
export function drainMsOf(options: { drainMs?: number | undefined } | undefined): number {
  if (options === undefined) return 0;
  if (typeof options !== "object" || options === null) throw new TypeError(`close() takes { drainMs }, got ${String(options)}`);
  refuseMisreadNumbers("close()", options, ["drainMs"]);
  return options.drainMs ?? 0;
}

/** One drain: its deadline, and the promise `close()` hands out. */
export class Drain {
  /** Resolves once the handler has closed. */
  readonly done: Promise<void>;
  private resolve!: () => void;
  private timer: unknown = undefined;
  private deadline = Infinity;
  private finished = false;

  constructor(
    private readonly clock: Clock,
    /** Requests in flight across the handler, an answer still waiting for its client to resume among them (not `subscriptions/listen` streams, nor GET streams: they never finish by themselves); the handler may end what is idle as it counts. */
    private readonly inFlight: () => number,
    /** Closes the handler: ends every session and every modern request still running. */
    private readonly close: () => void,
  ) {
    this.done = new Promise((r) => (this.resolve = r));
  }

  /** True once the handler has closed. */
  get over(): boolean {
    return this.finished;
  }

  /** Finishes by `clock.now() + ms` at the latest; a later `close()` can only bring the end nearer. */
  until(ms: number): void {
    if (this.finished) return;
    const at = this.clock.now() + ms;
    if (ms === 0) return this.finish();
    if (at >= this.deadline) return this.check();
    this.deadline = at;
    if (this.timer !== undefined) this.clock.cancel(this.timer);
    // Held: the caller awaits `done`, so the process must not exit before it settles.
    if (at !== Infinity) this.timer = this.clock.schedule(at, () => this.finish(), true);
    this.check();
  }

  /** Something in flight ended: the handler closes once nothing is left. */
  readonly check = (): void => {
    if (!this.finished && this.inFlight() === 0) this.finish();
  };

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.timer !== undefined) this.clock.cancel(this.timer);
    this.timer = undefined;
    try {
      this.close();
    } finally {
      this.resolve();
    }
  }
}
