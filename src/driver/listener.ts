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
    fn(a, b);
  } catch (e) {
    if (onError !== undefined) onError(e);
    else
      queueMicrotask(() => {
        throw e;
      });
  }
}
