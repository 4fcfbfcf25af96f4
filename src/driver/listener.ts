/**
 * Calling the application's hooks (event listeners, a channel's `onFault`). Spec: none of
 * its own; an error a hook throws is never swallowed, and never aborts the caller's loop.
 */

/**
 * Calls `fn(a, b)` so that a throwing listener cannot abort its caller's loop (the
 * endpoint's output, the rest of a stream channel's chunk): the error goes to `onError`,
 * or is rethrown on a fresh microtask (visible as an uncaught error, as an event emitter's
 * would be, but never swallowed).
 */
export function callListener<A, B>(fn: (a: A, b: B) => void, a: A, b: B, onError: ((error: unknown) => void) | undefined): void {
  try {
    const returned: unknown = fn(a, b);
    // An async listener fails later: its rejection is reported the same way, not left unhandled.
    if (typeof (returned as PromiseLike<unknown> | undefined)?.then === "function") (returned as PromiseLike<unknown>).then(undefined, (e: unknown) => report(e, onError));
  } catch (e) {
    report(e, onError);
  }
}

/** Hands `e` to `onError`, or rethrows it on a fresh microtask; an `onError` that throws is rethrown there too, never into the caller. */
function report(e: unknown, onError: ((error: unknown) => void) | undefined): void {
  try {
    if (onError !== undefined) return onError(e);
  } catch (again) {
    e = again;
  }
  queueMicrotask(() => {
    throw e;
  });
}
