/**
 * Calling the application's hooks (event listeners, a channel's `onFault`). Spec: none of
 * its own; an error a hook throws is never swallowed, and never aborts the caller's loop.
 */

/**
 * The type of a callback option, `F`, with its parameters compared as a method's are
 * (bivariantly). The options' callbacks were declared as methods (`onError?(error: unknown):
 * void`), which cannot also take `undefined`; declared `onError?: Callback<(error: unknown)
 * => void> | undefined` instead, they do (a caller compiled with `exactOptionalPropertyTypes`
 * may forward one that may be undefined), and a function with a narrower parameter
 * (`onError: (e: Error) => …`) still type-checks, as it did against the method.
 */
export type Callback<F extends (...args: never[]) => unknown> = { callback(...args: Parameters<F>): ReturnType<F> }["callback"];

/**
 * Calls `fn(a, b)` so that a throwing listener cannot abort its caller's loop (the
 * endpoint's output, the rest of a stream channel's chunk): the error goes to `thrown`
 * when given (the endpoint throws it once its step is done), else to `onError`, or is
 * rethrown on a fresh microtask (visible as an uncaught error, as an event emitter's would
 * be, but never swallowed). A promise it returns that rejects goes to `onError` the same way.
 */
export function callListener<A, B>(fn: (a: A, b: B) => void, a: A, b: B, onError: ((error: unknown) => void) | undefined, thrown?: (error: unknown) => void): void {
  try {
    const returned: unknown = fn(a, b);
    // An async listener fails later: its rejection is reported the same way, not left unhandled.
    if (typeof (returned as PromiseLike<unknown> | undefined)?.then === "function") (returned as PromiseLike<unknown>).then(undefined, (e: unknown) => report(e, onError));
  } catch (e) {
    if (thrown !== undefined) thrown(e);
    else report(e, onError);
  }
}

/** Hands `e` to `onError`, or rethrows it on a fresh microtask; an `onError` that throws is rethrown there too, never into the caller. */
export function report(e: unknown, onError: ((error: unknown) => void) | undefined): void {
  try {
    if (onError !== undefined) return onError(e);
  } catch (again) {
    e = again;
  }
  queueMicrotask(() => {
    throw e;
  });
}

/**
 * A promise, or any object with a `then` (what `await` would wait for): a promise of another
 * realm (a `vm` context) or of a promise library is no `Promise` here, and an application's
 * handler or store may answer with one.
 */
export function isThenable<T>(v: T | PromiseLike<T>): v is PromiseLike<T> {
  return typeof v === "object" && v !== null && typeof (v as { then?: unknown }).then === "function";
}

/**
 * A signal that aborts when `a` or `b` does, with its reason (`AbortSignal.any` is missing
 * before Node 20.3); `done` detaches it from both.
 */
export function eitherSignal(a: AbortSignal, b: AbortSignal): { signal: AbortSignal; done(): void } {
  const either = new AbortController();
  const abort = (e: Event): void => either.abort((e.target as AbortSignal).reason);
  if (a.aborted || b.aborted) either.abort(a.aborted ? a.reason : b.reason);
  a.addEventListener("abort", abort, { once: true });
  b.addEventListener("abort", abort, { once: true });
  return {
    signal: either.signal,
    done: () => {
      a.removeEventListener("abort", abort);
      b.removeEventListener("abort", abort);
    },
  };
}

/**
 * A transcript writer (`record` of McpClient and McpServer) whose throw goes to `onError`,
 * as every other callback of theirs does: handed to the endpoint as it is, its throw was a
 * hook's error, leaving the step that wrote the line (a request failed with it, a
 * transport's delivery threw it, uncaught). Undefined stays undefined: no cost per step.
 */
export function recordTo(write: ((line: string) => void) | undefined, onError: ((error: unknown) => void) | undefined): ((line: string) => void) | undefined {
  return write === undefined ? undefined : (line) => callListener(write, line, undefined, onError);
}
