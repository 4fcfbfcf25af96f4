/**
 * A {@link ManualClock} that knows which of its timers are still scheduled (neither fired
 * nor cancelled), so a test can show that a close, a drain or a departure cancelled the
 * timers it armed: nothing left to keep a process alive or fire on a dead connection.
 */
import { ManualClock } from "../../src/driver/clock.js";

export class LiveTimersClock extends ManualClock {
  /** Handles of the timers scheduled and not yet fired or cancelled. */
  readonly live = new Set<unknown>();
  override schedule(at: number, fn: () => void): unknown {
    const h = super.schedule(at, () => {
      this.live.delete(h);
      fn();
    });
    this.live.add(h);
    return h;
  }
  override cancel(handle: unknown): void {
    this.live.delete(handle);
    super.cancel(handle);
  }
}
