/**
 * Collecting the errors a test expects to be rethrown on a fresh microtask (a hook's error
 * that must be neither swallowed nor fail the run): the runner's own `uncaughtException`
 * listeners are set aside until `restore()`, which a test calls in its `finally`.
 */
export function collectUncaught(): { thrown: unknown[]; restore(): void } {
  const thrown: unknown[] = [];
  const prior = process.listeners("uncaughtException");
  process.removeAllListeners("uncaughtException");
  process.on("uncaughtException", (e) => thrown.push(e));
  return {
    thrown,
    restore() {
      process.removeAllListeners("uncaughtException");
      for (const l of prior) process.on("uncaughtException", l);
    },
  };
}
