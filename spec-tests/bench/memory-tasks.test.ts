// Smoke test of the long-lived-state memory rows (bench/memory-tasks.ts): each builds its
// items (tasks created in the table, listen streams acknowledged and held) and reports a
// finite figure. No heap assertion here: the limits are the bench's business.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

// The rows read the heap after gc(); the test runner does not pass --expose-gc, so expose it
// here, before the harness (which looks for gc when it loads) is imported.
setFlagsFromString("--expose-gc");
(globalThis as { gc?: unknown }).gc ??= runInNewContext("gc");
const { registeredMemoryBenches } = await import("../../bench/harness.js");
await import("../../bench/memory-tasks.js");

test("bench/memory-tasks: the per-task and per-subscription rows build what they measure and report a number", () => {
  const defs = registeredMemoryBenches().filter((d) => d.name.startsWith("memory/live task") || d.name.startsWith("memory/open subscriptions/listen"));
  assert.equal(defs.length, 2);
  for (const d of defs) {
    const bytes = d.measure(200);
    assert.ok(Number.isFinite(bytes), `${d.name}: ${bytes}`);
    assert.ok(d.maxBytes > 0);
  }
});
