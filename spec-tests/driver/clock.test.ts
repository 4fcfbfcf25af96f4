// The system clock's monotonic source: Node's process.hrtime (loading no perf_hooks), and
// performance.now() wherever process is not Node's own (workerd's nodejs_compat, polyfills).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";

/** The compiled clock module, as a file URL a child process imports. */
const CLOCK = new URL("../../src/driver/clock.js", import.meta.url).href;

/** Runs `body` as an ES module in a fresh node after `prelude`, with `systemClock` imported; returns what it printed, parsed. */
function inChild(prelude: string, body: string): Record<string, unknown> {
  const source = `${prelude}\nconst { systemClock } = await import(${JSON.stringify(CLOCK)});\n${body}`;
  return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", source], { encoding: "utf8" })) as Record<string, unknown>;
}

test("systemClock on Node: counts from the process start without loading perf_hooks (a getter that costs a stdio server 1.3 ms of its first message)", () => {
  const r = inChild(
    "",
    `const a = systemClock.now(), b = systemClock.now(), up = process.uptime() * 1e3;
console.log(JSON.stringify({ a, b, up, perfHooks: process.moduleLoadList.some((m) => m.endsWith(" perf_hooks")) }));`,
  );
  assert.equal(r.perfHooks, false);
  const a = r.a as number, b = r.b as number, up = r.up as number;
  assert.ok(a > 0 && b >= a, `monotonic from the process start: ${a}, ${b}`);
  // Both count from the start on the same clock: a reading is no later than the uptime read after it (float slack).
  assert.ok(b <= up + 1e-3, `${b} ms read before an uptime of ${up} ms`);
});

test("systemClock where process is not Node's own (workerd's nodejs_compat: a Date-based hrtime, versions.uv empty): reads performance.now()", () => {
  const r = inChild(
    `Object.defineProperty(globalThis, "process", { value: { release: { name: "node" }, versions: { node: "22.19.0", uv: "" }, hrtime: () => [1796614938, 0], uptime: () => 0 } });
performance.now = () => 42;`,
    "console.log(JSON.stringify({ now: systemClock.now() }));",
  );
  assert.equal(r.now, 42);
});

test("systemClock on Node looks process.hrtime up at every reading, as it did performance.now: a test runner's fake timers, installed after the first reading, move it (request timeouts then fire on fake time)", () => {
  const r = inChild(
    "",
    `const before = systemClock.now();
const real = process.hrtime;
const [s, ns] = real();
process.hrtime = () => [s + 3600, ns]; // an hour on, as fake timers advance it
const faked = systemClock.now();
process.hrtime = real;
console.log(JSON.stringify({ moved: faked - before }));`,
  );
  assert.ok((r.moved as number) >= 3600_000 && (r.moved as number) < 3601_000, `moved ${r.moved} ms`);
});
