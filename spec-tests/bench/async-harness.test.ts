// bench/async-harness.ts warm-up: a row warms until it has done `warmupOps` ops (and spent
// `warmupMs`), bounded by `maxWarmupMs`, and the results say how many ops that was. Issue
// 10 ("each row is repeated and the median quoted"): a figure is only comparable across
// implementations when each was measured warm, so warm-up is counted in calls (what V8
// tiers code up on), not in time alone. No timing assertions: the bounds here are chosen
// so that the answer does not depend on how fast the machine is.
import { test } from "node:test";
import assert from "node:assert/strict";
import { comparedGroups, runRows, warm, type TimedRow } from "../../bench/async-harness.js";

/** A row whose every sample does `per` ops, counting the samples taken. */
function counting(per: number): TimedRow<{ samples: number }> & { state: { samples: number } } {
  const state = { samples: 0 };
  return { name: `counting ${per}`, state, setup: () => state, run: async (s) => (s.samples++, per) };
}

test("bench/async-harness: warm-up runs until warmupOps ops are done, in whole samples", async () => {
  const row = counting(7);
  const ops = await warm({ row, state: row.state }, { warmupMs: 0, warmupOps: 50, maxWarmupMs: 1e9 });
  assert.equal(ops, 56, "8 samples of 7: the first to reach 50");
  assert.equal(row.state.samples, 8);
});

test("bench/async-harness: maxWarmupMs bounds the warm-up, which still takes one sample", async () => {
  const row = counting(7);
  assert.equal(await warm({ row, state: row.state }, { warmupMs: 0, warmupOps: 1e12, maxWarmupMs: 0 }), 7);
  assert.equal(row.state.samples, 1);
});

test("bench/async-harness: the results report each timed row's warm-up ops, separately from the timed ops", async () => {
  const row = counting(5);
  const [result] = await runRows([row], { repeats: 1, warmupMs: 0, warmupOps: 40, maxWarmupMs: 1e9, budgetMs: 0, maxSamples: 2, minSamples: 1 });
  assert.equal(result.error, undefined);
  assert.equal(result.warmupOps, 40);
  // Timed: the heap probe's untimed samples (up to 64 ops) are not counted; one timed sample of 5.
  assert.equal(result.ops, 5);
});

test("bench/async-harness: rows are grouped with the rows they are compared with, in order", () => {
  const r = (name: string, baseline?: string) => ({ name, baseline, run: async () => 1 });
  const rows = [r("a floor"), r("b floor"), r("a ours", "a floor"), r("a sdk", "a ours"), r("b ours", "b floor"), r("alone"), r("dangling", "not a row")];
  assert.deepEqual(
    comparedGroups(rows).map((g) => g.map((x) => x.name)),
    [["a floor", "a ours", "a sdk"], ["b floor", "b ours"], ["alone"], ["dangling"]],
  );
});

test("bench/async-harness: each group is set up, measured and torn down before the next group is set up", async () => {
  const log: string[] = [];
  const row = (name: string, baseline?: string) => ({
    name,
    baseline,
    setup: () => void log.push(`setup ${name}`),
    run: async () => (log.push(`run ${name}`), 1),
    teardown: () => void log.push(`teardown ${name}`),
  });
  const opts = { repeats: 1, warmupMs: 0, warmupOps: 0, maxWarmupMs: 0, budgetMs: 0, maxSamples: 1, minSamples: 1 };
  const results = await runRows([row("x floor"), row("y floor"), row("x ours", "x floor")], opts);
  assert.deepEqual(results.map((r) => r.name), ["x floor", "y floor", "x ours"], "results keep the order given");
  const firstY = log.indexOf("setup y floor");
  assert.ok(log.lastIndexOf("teardown x ours") < firstY && log.lastIndexOf("run x floor") < firstY, log.join(", "));
});

test("bench/async-harness: no forced GC runs between a group's timed repeats; the heap probes come after them", async (t) => {
  // A forced full GC deoptimizes code whose maps died, so timing right after one measured
  // re-optimization (the header's figures). Every sample here is one op of 64 (one probe
  // sample each); a stand-in gc() marks where collections happen.
  const log: string[] = [];
  const g = globalThis as { gc?: () => void };
  const real = g.gc;
  g.gc = () => void log.push("gc");
  t.after(() => (g.gc = real));
  const row = (name: string, baseline?: string) => ({ name, baseline, run: async () => (log.push(name), 64) });
  const opts = { repeats: 2, warmupMs: 0, warmupOps: 0, maxWarmupMs: 0, budgetMs: 0, maxSamples: 1, minSamples: 1 };
  const results = await runRows([row("a"), row("b", "a")], opts);
  assert.deepEqual(results.map((r) => r.error), [undefined, undefined]);
  const warmAndTimed = ["a", "b", "a", "b", "a", "b"];
  assert.deepEqual(log.slice(0, warmAndTimed.length), warmAndTimed, log.join(", "));
  assert.deepEqual(log.slice(warmAndTimed.length), ["gc", "gc", "a", "gc", "gc", "b", "gc", "gc", "a", "gc", "gc", "b"]);
  assert.ok(results.every((r) => Number.isFinite(r.heapBytes)), "each row still has its heap figure");
});

test("bench/async-harness: a baseline that measured 0 gives the rows dividing by it no ratio and no verdict, with a note, instead of a ratio over nothing (cold start above the floor once read 112,841× when ours beat the floor)", async () => {
  const rows = [
    { name: "zero", metric: "time" as const, measure: async () => ({ cost: 0 }) },
    { name: "over it", metric: "time" as const, baseline: "zero", target: { min: 2 }, measure: async () => ({ cost: 5 }) },
  ];
  const [zero, over] = await runRows(rows, { repeats: 1 } as never);
  assert.equal(zero.pass, null);
  assert.equal(over.ratio, null);
  assert.equal(over.pass, null);
  assert.match(over.note ?? "", /baseline zero measured 0: no ratio/);
});
