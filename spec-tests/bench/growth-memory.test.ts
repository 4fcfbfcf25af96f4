// Smoke test of issue 10's growth, memory and install-footprint rows (bench/growth-inflight.ts,
// bench/growth-size.ts's round trips and sweeps, bench/memory-live.ts, bench/install-footprint.ts):
// each runs with tiny counts and yields a well-formed row. No timing or heap assertions: how
// fast or small anything is is the bench's business, never a test's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

// Memory rows read the heap after gc(); the test runner does not pass --expose-gc, so expose
// it before the harness (which looks for gc when it loads) is imported.
setFlagsFromString("--expose-gc");
(globalThis as { gc?: unknown }).gc ??= runInNewContext("gc");
const { evaluateSweeps, registeredBenches, registeredMemoryBenches, registeredSweeps, runBenches, runMemoryBenches } = await import("../../bench/harness.js");
type BenchOptions = import("../../bench/harness.js").BenchOptions;
type BenchResult = import("../../bench/harness.js").BenchResult;
const { IN_FLIGHT_LEVELS, inFlightRow } = await import("../../bench/growth-inflight.js");
await import("../../bench/growth-size.js");
await import("../../bench/memory-live.js");
const { countInstalled } = await import("../../bench/install-footprint.js");
const { FULL_MODE, SMOKE_MODE, compareRows } = await import("../../bench/compare.js");

const TINY: BenchOptions = { repeats: 1, samples: 2, sampleMs: 0.05, warmupMs: 0, quick: true, minSamples: 1 };

function assertTimedRow(r: BenchResult): void {
  assert.equal(r.error, undefined, `${r.name}: ${r.error}`);
  assert.equal(r.kind, "time");
  assert.ok(r.ops > 0 && Number.isFinite(r.opsPerSec) && r.opsPerSec > 0, `${r.name}: ops`);
  assert.ok(r.p50us > 0 && r.p99us >= r.p50us, `${r.name}: percentiles`);
  assert.ok(r.perMessageUs !== undefined && Number.isFinite(r.perMessageUs) && r.perMessageUs > 0, `${r.name}: perMessageUs`);
  assert.ok(r.perByteNs !== undefined && Number.isFinite(r.perByteNs) && r.perByteNs > 0, `${r.name}: perByteNs`);
  assert.ok(r.repeats === 1 && r.spread >= 1, `${r.name}: repeats/spread`);
}

function assertSweepRow(r: BenchResult, points: number): void {
  assert.equal(r.error, undefined, `${r.name}: ${r.error}`);
  assert.equal(r.kind, "sweep");
  assert.ok(r.ratio !== null && r.ratio >= 1 && Number.isFinite(r.ratio), `${r.name}: ratio ${r.ratio}`);
  assert.equal(r.target, 3);
  assert.equal(r.pass, r.ratio <= 3);
  assert.ok(r.ops > 0 && r.repeats === 1, `${r.name}: ops/repeats`);
  assert.equal(registeredSweeps().find((s) => s.name === r.name)?.points.length, points);
}

test("bench/growth-inflight: one row per level from 1 to 10,000 in flight, each timing whole bursts, and a sweep row judging per-message cost", () => {
  assert.deepEqual([...IN_FLIGHT_LEVELS], [1, 10, 100, 1000, 10_000]);
  const defs = IN_FLIGHT_LEVELS.map((k) => registeredBenches().find((d) => d.name === inFlightRow(k))!);
  const results = runBenches(defs, TINY);
  IN_FLIGHT_LEVELS.forEach((k, i) => {
    assertTimedRow(results[i]);
    assert.equal(results[i].ops % k, 0, `${results[i].name}: ${results[i].ops} ops is not whole bursts of ${k}`);
  });
  // Per message is half a round trip; per byte divides by the two messages' bytes, which are more than 2.
  assert.ok(results[0].perByteNs! < results[0].perMessageUs! * 1e3);
  const [sweep] = evaluateSweeps(registeredSweeps().filter((s) => s.name.startsWith("growth/in-flight sweep")), results);
  assertSweepRow(sweep, 5);
});

test("bench/growth-size: an in-memory tools/call round trip per size, per-byte figures on every size row, and three sweep rows from 10 KB to 1 MB (per byte: codec, round trip; the round trip's ratio to its JSON floor)", () => {
  const defs = registeredBenches().filter((d) => d.name.startsWith("growth/size "));
  assert.equal(defs.length, 20, "5 sizes × (JSON floor, codec, round trip's JSON floor, round trip)");
  for (const d of defs.filter((x) => x.name.endsWith("round trip (echo)"))) assert.match(d.baseline ?? "", /floor JSON round trip/, d.name);
  const results = runBenches(defs, TINY);
  for (const r of results) assertTimedRow(r);
  const sweeps = registeredSweeps().filter((s) => s.name.startsWith("growth/size sweep"));
  assert.equal(sweeps.length, 3);
  assert.deepEqual(sweeps.map((s) => s.metric), ["perByteNs", "perByteNs", "ratio"]);
  for (const r of evaluateSweeps(sweeps, results)) assertSweepRow(r, 3);
});

test("bench/harness: a sweep row whose point did not run is an error, not a pass", () => {
  const [r] = evaluateSweeps([{ name: "x", points: ["no such row"], metric: "perByteNs", maxRatio: 3 }], []);
  assert.equal(r.pass, false);
  assert.equal(r.ratio, null);
  assert.match(r.error ?? "", /no such row/);
});

test("bench/memory-live: the McpServer live-task and listen rows build what they measure and give well-formed memory rows", async () => {
  const defs = registeredMemoryBenches().filter((d) => d.name.includes("McpServer"));
  assert.equal(defs.length, 2);
  const results = await runMemoryBenches(defs.map((d) => ({ ...d, quickOps: 20 })), TINY);
  for (const r of results) {
    assert.equal(r.error, undefined, `${r.name}: ${r.error}`);
    assert.equal(r.kind, "memory");
    assert.equal(r.ops, 20);
    assert.ok(Number.isFinite(r.heapBytes), `${r.name}: heapBytes`);
    assert.equal(typeof r.pass, "boolean");
    assert.equal(r.target, defs.find((d) => d.name === r.name)!.maxBytes);
  }
});

test("bench/install-footprint: counts every package directory (scoped and nested) and the bytes of its regular files, not npm's dot-files or symlinks", () => {
  const root = mkdtempSync(join(tmpdir(), "footprint-test-"));
  try {
    const nm = join(root, "node_modules");
    const file = (path: string, bytes: number) => {
      mkdirSync(join(path, ".."), { recursive: true });
      writeFileSync(path, "x".repeat(bytes));
    };
    file(join(nm, "a", "package.json"), 10);
    file(join(nm, "a", "lib", "index.js"), 7);
    file(join(nm, "@s", "b", "package.json"), 5);
    file(join(nm, "@s", "b", "node_modules", "c", "package.json"), 3);
    file(join(nm, ".package-lock.json"), 100);
    mkdirSync(join(nm, ".bin"));
    symlinkSync(join(nm, "a", "lib", "index.js"), join(nm, ".bin", "a"));
    symlinkSync(join(nm, "a", "package.json"), join(nm, "a", "alias.json"));
    const got = countInstalled(nm);
    assert.equal(got.packages, 3);
    assert.equal(got.bytes, 10 + 7 + 5 + 3);
    assert.deepEqual(got.names.sort(), ["@s/b", "a", "c"]);
    assert.deepEqual(countInstalled(join(root, "absent")), { packages: 0, bytes: 0, names: [] });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("bench/compare: the full run has the install rows (ours, our dependency count with limit 0, sdk 1.x, sdk 2.x server + client); the smoke run leaves them out", () => {
  const names = compareRows(FULL_MODE).map((r) => r.name).filter((n) => n.startsWith("footprint install"));
  assert.deepEqual(names, ["footprint install: ours", "footprint install dependencies: ours", "footprint install: sdk 1.32.2", "footprint install: sdk 2.4.0 (server + client)"]);
  assert.equal(compareRows(SMOKE_MODE).filter((r) => r.name.startsWith("footprint install")).length, 0);
});
